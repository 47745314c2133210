/* A SCSI disk's power conditions (SPC-4 5.12): the power condition mode page and START STOP UNIT. */
#ifndef HDPARM_SCSI_EPC_H
#define HDPARM_SCSI_EPC_H

#include "device.h"

int scsi_disk_epc_read(struct device *dev, struct disk_epc *e);
uint64_t scsi_epc_counts(uint64_t tenths);
int scsi_disk_epc_change(struct device *dev, const struct disk_epc_change *ch, struct disk_cause *c);

#endif
