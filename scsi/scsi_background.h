/* A SCSI disk's background medium scan (SBC-3 4.22): the Background Control mode page. */
#ifndef HDPARM_SCSI_BACKGROUND_H
#define HDPARM_SCSI_BACKGROUND_H

#include "device.h"

int scsi_background_scan_get(struct device *dev, struct disk_background_scan *b);
int scsi_background_scan_set(struct device *dev, bool on, bool save, struct disk_cause *c);

#endif
