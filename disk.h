/*
 * Which kind of disk a device is, decided once when it is opened, and the
 * ATA drive's commands of every disk (the NVMe and SCSI ones are in
 * nvme.c and scsi.c).
 */
#ifndef HDPARM_DISK_H
#define HDPARM_DISK_H

#include "device.h"

/* Set dev->disk (and the NVMe namespace): NVMe, a SCSI disk without ATA pass-through, or ATA. */
void disk_choose(struct device *dev);

#endif
