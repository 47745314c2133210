/* --scan-verify's command on a SCSI disk (disk_ops.h's media_verify). */
#ifndef HDPARM_SCSI_VERIFY_H
#define HDPARM_SCSI_VERIFY_H

#include <stdint.h>

#include "device.h"

int scsi_media_verify(struct device *dev, uint64_t lba, uint32_t sectors, struct disk_cause *c);

#endif
