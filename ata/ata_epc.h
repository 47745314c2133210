/* ATA's Extended Power Conditions (ACS-3 4.9): the Power Conditions log and SET FEATURES EPC. */
#ifndef HDPARM_ATA_EPC_H
#define HDPARM_ATA_EPC_H

#include <stdint.h>

#include "device.h"

int ata_disk_epc_read(struct device *dev, struct disk_epc *e);
uint64_t ata_epc_counts(uint64_t tenths);
int ata_disk_epc_change(struct device *dev, const struct disk_epc_change *ch, struct disk_cause *c);

#endif
