/* SCSI firmware: WRITE BUFFER with offsets, deferred and activated, as struct disk_ops wants it. */
#ifndef HDPARM_SCSI_FIRMWARE_H
#define HDPARM_SCSI_FIRMWARE_H

#include "device.h"

int scsi_firmware(struct device *dev, struct disk_firmware *fw);
int scsi_firmware_piece(struct device *dev, struct disk_firmware *fw, const uint8_t *buf, uint32_t len, uint32_t offset,
			bool now, struct disk_cause *c);
enum firmware_commit scsi_firmware_commit(struct device *dev, const struct disk_firmware *fw, unsigned int slot, bool now,
					  struct disk_cause *c);

#endif
