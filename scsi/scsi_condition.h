/* --condition on a SCSI disk (scsi_condition.c). */
#ifndef HDPARM_SCSI_CONDITION_H
#define HDPARM_SCSI_CONDITION_H

#include "condition_facts.h"
#include "device.h"

/* The log pages and the grown defect list a SCSI disk keeps of its condition. */
int scsi_disk_condition(struct device *dev, struct disk_condition *d, struct disk_cause *c);

#endif
