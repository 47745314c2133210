/*
 * --scan-verify on NVMe: the NVM command set's Verify (0Ch), where
 * Identify Controller's ONCS bit 7 says the controller has it; the
 * controller reads its medium and sends nothing.  The outcome sorted as
 * disk_ops.h's media_verify wants it by the completion's status: Media
 * and Data Integrity Errors (status code type 2), Invalid Command Opcode,
 * or no answer.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "nvme.h"
#include "nvme_spec.h"
#include "nvme_verify.h"

#define NVME_ONCS_VERIFY 0x80		/* ONCS bit 7: the Verify command */
#define NVME_SCT_MEDIA 2		/* status code type 2: Media and Data Integrity Errors */
#define NVME_SC_INVALID_OPCODE 0x001	/* generic status 01h: Invalid Command Opcode */

int nvme_media_verify_check(struct device *dev, struct disk_cause *c)
{
	int err;
	struct nvme_id_ctrl *ctrl = nvme_identify_controller(dev, &err, c);
	uint16_t oncs;
	bool has;

	if (!ctrl)
		return err;
	/* Little-endian on the wire, as every field of the page. */
	oncs = le16toh(ctrl->oncs);
	has = oncs & NVME_ONCS_VERIFY;
	if (!has)
		snprintf(c->why, sizeof(c->why), "has no Verify command (Identify Controller's ONCS is %04xh: bit 7 clear)",
			 oncs);
	free(ctrl);
	return has ? 0 : EOPNOTSUPP;
}

int nvme_media_verify(struct device *dev, uint64_t lba, uint32_t sectors, struct disk_cause *c)
{
	int err = nvme_io_verify(dev, lba, sectors, c);

	if (err != EIO || !c->status)
		return err;
	if ((c->status >> 8 & 7) == NVME_SCT_MEDIA)
		return ENODATA;
	if (c->status == NVME_SC_INVALID_OPCODE) {
		snprintf(c->why, sizeof(c->why), "has no Verify command (the controller refused it: Invalid Command Opcode)");
		return EOPNOTSUPP;
	}
	return EREMOTEIO;
}
