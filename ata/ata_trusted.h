/* IF-RECV on an ATA drive: TRUSTED RECEIVE, for --tcg. */
#ifndef HDPARM_ATA_TRUSTED_H
#define HDPARM_ATA_TRUSTED_H

#include "device.h"

int ata_disk_security_send(struct device *dev, uint8_t protocol, uint16_t sp_specific, const uint8_t *buf, size_t len,
			   struct disk_cause *c);
int ata_disk_security_recv(struct device *dev, uint8_t protocol, uint16_t sp_specific, uint8_t *buf, size_t len,
			   size_t *got, struct disk_cause *c);

#endif
