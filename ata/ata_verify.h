/* --scan-verify's command on an ATA drive (disk_ops.h's media_verify). */
#ifndef HDPARM_ATA_VERIFY_H
#define HDPARM_ATA_VERIFY_H

#include <stdint.h>

#include "device.h"

int ata_media_verify(struct device *dev, uint64_t lba, uint32_t sectors, struct disk_cause *c);

#endif
