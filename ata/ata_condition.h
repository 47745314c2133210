/* --condition on an ATA drive (disk_ops.h's condition_read). */
#ifndef HDPARM_ATA_CONDITION_H
#define HDPARM_ATA_CONDITION_H

#include "device.h"
#include "disk_facts.h"
#include "condition_facts.h"

/* Every source of the drive's condition into *d (zeroed by the caller); 0 where any was read, nothing said. */
int ata_disk_condition(struct device *dev, struct disk_condition *d, struct disk_cause *c);

#endif
