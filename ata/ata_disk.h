/* ATA drives: their commands of every disk. */
#ifndef HDPARM_ATA_DISK_H
#define HDPARM_ATA_DISK_H

#include "device.h"

/* The ATA commands of every disk (device.h). */
extern const struct disk_ops ata_disk;

#endif
