/*
 * --scan-verify on an ATA drive: READ VERIFY SECTORS EXT (42h), or READ
 * VERIFY SECTORS (40h) where IDENTIFY says the drive has no 48-bit
 * addressing; the drive reads its medium and sends nothing.  The outcome
 * sorted as disk_ops.h's media_verify wants it: a medium error (UNC or
 * IDNF, or sense key MEDIUM ERROR), a command the drive or its bridge
 * does not have (ABRT without them, ILLEGAL REQUEST), or no answer.
 */
#include <errno.h>
#include <stdio.h>

#include "ata.h"
#include "ata_commands.h"
#include "ata_disk.h"
#include "ata_verify.h"
#include "sense.h"

#define ATA_STATUS_ERR 0x01
#define ATA_ERROR_UNC 0x40
#define ATA_ERROR_IDNF 0x10
#define ATA_ERROR_ABRT 0x04

int ata_media_verify(struct device *dev, uint64_t lba, uint32_t sectors, struct disk_cause *c)
{
	struct ata_result res;
	int err;
	const uint16_t *id = identify_for(dev, &err, c);
	bool lba48, failed;

	if (!id)
		return err;
	lba48 = ata_id_lba48_enabled(id);
	c->what = lba48 ? "READ VERIFY SECTORS EXT" : "READ VERIFY SECTORS";
	err = ata_read_verify(dev, lba, sectors, lba48, &res);
	if (err != EIO)
		return ata_cause(c, c->what, &res, err);
	ata_cause(c, c->what, &res, err);
	failed = res.have_regs && (res.status & ATA_STATUS_ERR);
	if (res.sense_key == SENSE_MEDIUM_ERROR || (failed && (res.error & (ATA_ERROR_UNC | ATA_ERROR_IDNF))))
		return ENODATA;
	if (failed && (res.error & ATA_ERROR_ABRT)) {
		snprintf(c->why, sizeof(c->why), "has no %s command (the drive aborted it: %s)", c->what, res.cause);
		return EOPNOTSUPP;
	}
	/* No registers, and the SCSI layer in front refused the ATA PASS-THROUGH itself. */
	if (!res.have_regs && res.sense_key == SENSE_ILLEGAL_REQUEST) {
		snprintf(c->why, sizeof(c->why), "has no %s command (its bridge refused it: %s)", c->what, res.cause);
		return EOPNOTSUPP;
	}
	/* Any other failure: not the medium's, and not a missing command; the disk did not answer as it should. */
	return EREMOTEIO;
}
