/* --scan-verify's command on NVMe (disk_ops.h's media_verify and media_verify_check). */
#ifndef HDPARM_NVME_VERIFY_H
#define HDPARM_NVME_VERIFY_H

#include <stdint.h>

#include "device.h"

int nvme_media_verify_check(struct device *dev, struct disk_cause *c);
int nvme_media_verify(struct device *dev, uint64_t lba, uint32_t sectors, struct disk_cause *c);

#endif
