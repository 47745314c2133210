/* --self-test on SCSI: SEND DIAGNOSTIC and its progress (disk_ops.h). */
#ifndef HDPARM_SCSI_SELF_TEST_H
#define HDPARM_SCSI_SELF_TEST_H

#include "device.h"
#include "disk_facts.h"
#include "condition_facts.h"

int scsi_disk_self_test_start(struct device *dev, enum disk_self_test what, struct disk_cause *c);
int scsi_disk_self_test_progress(struct device *dev, bool *running, int *percent_done, struct disk_cause *c);

#endif
