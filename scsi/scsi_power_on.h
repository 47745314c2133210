/* --power-on-hours on a SCSI disk (scsi_power_on.c). */
#ifndef HDPARM_SCSI_POWER_ON_H
#define HDPARM_SCSI_POWER_ON_H

#include "device.h"

/* The Background Scan Results log page's accumulated power on minutes, as hours and minutes. */
int scsi_disk_power_on(struct device *dev, struct disk_power_on *p);

#endif
