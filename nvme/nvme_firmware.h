/* NVMe firmware: the slots, Firmware Image Download and Firmware Commit, as struct disk_ops wants them. */
#ifndef HDPARM_NVME_FIRMWARE_H
#define HDPARM_NVME_FIRMWARE_H

#include "device.h"
#include "nvme_spec.h"

int nvme_firmware(struct device *dev, struct disk_firmware *fw);
int nvme_firmware_piece(struct device *dev, struct disk_firmware *fw, const uint8_t *buf, uint32_t len, uint32_t offset,
			bool now, struct disk_cause *c);
enum firmware_commit nvme_firmware_commit(struct device *dev, const struct disk_firmware *fw, unsigned int slot, bool now,
					  struct disk_cause *c);

#endif
