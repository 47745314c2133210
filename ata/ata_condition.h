/* --condition on an ATA drive (disk_ops.h's condition_read). */
#ifndef HDPARM_ATA_CONDITION_H
#define HDPARM_ATA_CONDITION_H

#include "device.h"
#include "disk_facts.h"
#include "condition_facts.h"

/* Every source of the drive's condition into *d (zeroed by the caller); 0 where any was read, nothing said. */
int ata_disk_condition(struct device *dev, struct disk_condition *d, struct disk_cause *c);

/* --self-test: SMART EXECUTE OFF-LINE IMMEDIATE; its progress from SMART READ DATA (disk_ops.h). */
int ata_disk_self_test_start(struct device *dev, enum disk_self_test what, struct disk_cause *c);
int ata_disk_self_test_progress(struct device *dev, bool *running, int *percent_done, struct disk_cause *c);

#endif
