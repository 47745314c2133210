/* ATA drives: their commands of every disk. */
#ifndef HDPARM_ATA_DISK_H
#define HDPARM_ATA_DISK_H

#include "device.h"

/* The ATA commands of every disk (disk_ops.h). */
extern const struct disk_ops ata_disk;

struct ata_result;

/* A command that failed, as the disk's cause (" WHAT failed: why"); returns err. */
int ata_cause(struct disk_cause *c, const char *what, const struct ata_result *res, int err);

/* IDENTIFY, read once a device; a failure is the cause where it first fails, and not again (*err either way). */
const uint16_t *identify_for(struct device *dev, int *err, struct disk_cause *c);

#endif
