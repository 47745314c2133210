/*
 * Which kind of disk a device is, decided once when it is opened; the
 * commands are then the chosen kind's (ata_disk.c, nvme_disk.c, scsi_disk.c).
 */
#ifndef HDPARM_DISK_H
#define HDPARM_DISK_H

#include "device.h"

/*
 * Set dev->disk (and the NVMe namespace): NVMe, a SCSI disk without ATA
 * pass-through, or ATA; and dev->bridge, what a USB bridge in front passes.
 * EINVAL, said in one line, where --bridge forces a vendor's protocol on a
 * disk behind no USB bridge: nothing was sent, and dev->refused is set.
 */
int disk_choose(struct device *dev);

/* Free what the kind kept of the device (its state: device.h); the device may be chosen again. */
void disk_release(struct device *dev);

#endif
