/*
 * Logical block provisioning as a SCSI target reports it: READ CAPACITY
 * (16)'s LBPME, VPD B2h's commands and VPD B0h's unmap limits, read as the
 * sd driver reads them to choose how it discards (sd_discard_mode()).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "scsi.h"
#include "scsi_provisioning.h"

/* The INQUIRY just sent timed out (the transport marks the device; was: marked before it). */
static bool vpd_hung(const struct device *dev, bool was, struct scsi_provisioning *p, const char *what)
{
	if (was || !dev->timed_out)
		return false;
	p->timed_out = true;
	p->hung = what;
	return true;
}

void scsi_provisioning_read(struct device *dev, struct scsi_provisioning *p)
{
	bool was = dev->timed_out;
	uint8_t list[256], page[256];
	struct scsi_capacity cap;
	struct scsi_result res;
	size_t list_len, len;
	int err;

	memset(p, 0, sizeof(*p));
	/* A device that let a command time out before (the probe, run/disk.c) is asked nothing (transport/sg.c). */
	if (dev->stop_at_timeout && dev->timed_out) {
		p->timed_out = true;
		p->hung = "an earlier command";
		snprintf(p->capacity16_failed, sizeof(p->capacity16_failed), "not asked: an earlier command timed out");
		return;
	}
	err = scsi_read_capacity16(dev, &cap, &res);
	if (err == 0) {
		p->capacity16 = true;
		p->lbpme = cap.lbpme;
	} else {
		memcpy(p->capacity16_failed, res.cause, sizeof(p->capacity16_failed));
		/* A bridge that hangs on one command may hang on the next: each would take the whole timeout. */
		if ((p->timed_out = err == ETIMEDOUT)) {
			p->hung = "READ CAPACITY (16)";
			return;
		}
	}
	/* ... so does one that lets an INQUIRY time out: no page is taken for one it does not list. */
	list_len = scsi_vpd_list(dev, list);
	if (vpd_hung(dev, was, p, "INQUIRY of VPD page 00h"))
		return;
	len = scsi_listed_vpd(dev, list, list_len, VPD_LOGICAL_BLOCK_PROVISIONING, page, sizeof(page));
	if (vpd_hung(dev, was, p, "INQUIRY of VPD page B2h"))
		return;
	if (len)
		p->lbp_page = scsi_decode_provisioning(page, len, &p->lbp);
	len = scsi_listed_vpd(dev, list, list_len, VPD_BLOCK_LIMITS, page, sizeof(page));
	if (vpd_hung(dev, was, p, "INQUIRY of VPD page B0h"))
		return;
	if (len) {
		p->limits_page = true;
		scsi_decode_block_limits(page, len, &p->limits);
	}
}
