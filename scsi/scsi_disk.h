/* SCSI disks without ATA pass-through: how to tell them, and their commands of every disk. */
#ifndef HDPARM_SCSI_DISK_H
#define HDPARM_SCSI_DISK_H

#include <stdbool.h>

#include "device.h"

/*
 * The device takes SCSI commands and nothing says it is an ATA drive
 * (libata's vendor "ATA", a SAT layer's ATA Information VPD page): only
 * trying ATA pass-through can tell.  Sends nothing.
 */
bool scsi_may_lack_ata(struct device *dev);

extern const struct disk_ops scsi_disk;

#endif
