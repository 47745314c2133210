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

int ata_media_verify(struct device *dev, uint64_t lba, uint32_t sectors, struct disk_cause *c)
{
	struct ata_result res;
	int err;
	const uint16_t *id = identify_for(dev, &err, c);
	bool lba48, by_bridge;

	if (!id)
		return err;
	lba48 = ata_id_lba48_enabled(id);
	c->what = lba48 ? "READ VERIFY SECTORS EXT" : "READ VERIFY SECTORS";
	err = ata_read_verify(dev, lba, sectors, lba48, &res);
	if (err != EIO)
		return ata_cause(c, c->what, &res, err);
	ata_cause(c, c->what, &res, err);
	err = ata_verify_outcome(&res, &by_bridge);
	if (err == EOPNOTSUPP)
		snprintf(c->why, sizeof(c->why), "has no %s command (%s: %s)", c->what,
			 by_bridge ? "its bridge refused it" : "the drive aborted it", res.cause);
	return err;
}
