/*
 * --scan-verify on a SCSI disk: VERIFY (16) with BYTCHK 0, the disk reads
 * its medium and nothing is sent.  The outcome sorted as disk_ops.h's
 * media_verify wants it: sense key MEDIUM ERROR, a command refused
 * (ILLEGAL REQUEST: invalid operation code or field), or no answer.
 */
#include <errno.h>
#include <stdio.h>

#include "scsi.h"
#include "scsi_pages.h"
#include "scsi_verify.h"

int scsi_media_verify(struct device *dev, uint64_t lba, uint32_t sectors, struct disk_cause *c)
{
	struct scsi_result res;
	int err = scsi_verify16(dev, lba, sectors, &res);

	c->what = "VERIFY (16)";
	if (!err)
		return 0;
	snprintf(c->why, sizeof(c->why), "%s", res.cause);
	if (err != EIO)
		return err;
	err = scsi_verify_outcome(&res.sense);
	if (err == EOPNOTSUPP)
		snprintf(c->why, sizeof(c->why), "has no VERIFY(16) command (%s refused it: %s)",
			 dev->usb_driver ? "its bridge" : "the disk", res.cause);
	return err;
}
