/*
 * A SCSI disk's background medium scan (SBC-3 4.22): while one runs the
 * disk is busy, and its idle and standby timers never run out.  The
 * Background Control mode page (1Ch subpage 01h) says whether scans are
 * enabled (EN_BMS), with pre-scan (EN_PS), how often and after how much
 * idle time; EN_BMS is switched by MODE SELECT.
 */
#include <errno.h>
#include <stdio.h>

#include "scsi.h"
#include "scsi_background.h"
#include "unaligned.h"

static int control_page(struct device *dev, enum scsi_page_control pc, uint8_t mode[MODE_SENSE_BUF], uint8_t **page,
			size_t *len, struct disk_cause *c)
{
	struct scsi_result res;
	int err;

	*len = 0;
	/* Behind a USB bridge only what the sd driver asks is asked: no subpages. */
	if (scsi_cautious(dev)) {
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "not asked of a disk behind a USB bridge");
		return EOPNOTSUPP;
	}
	err = scsi_mode_sense(dev, MODE_PAGE_INFORMATIONAL_EXCEPTIONS, BACKGROUND_CONTROL_SUBPAGE, pc, mode,
			      MODE_SENSE_BUF, page, len, &res);
	if (err == EOPNOTSUPP || scsi_refused(err, &res) || (!err && *len < BACKGROUND_CONTROL_LEN)) {
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "this disk has no background medium scan (no Background Control mode page)");
		return EOPNOTSUPP;
	}
	return scsi_cause(c, "MODE SENSE (background control page)", &res, err);
}

int scsi_background_scan_get(struct device *dev, struct disk_background_scan *b)
{
	uint8_t mode[MODE_SENSE_BUF], mask[MODE_SENSE_BUF], *page, *changeable;
	struct disk_cause ignored = { 0 };
	size_t len;
	int err;

	if ((err = control_page(dev, MODE_CURRENT, mode, &page, &len, &b->cause)))
		return err;
	b->enabled = page[4] & BC_EN_BMS;
	b->prescan = page[5] & BC_EN_PS;
	b->interval_hours = get_be16(page + BC_SCAN_INTERVAL);
	b->min_idle_ms = get_be16(page + BC_MIN_IDLE);
	b->saveable = page[0] & 0x80;
	b->changeable = !control_page(dev, MODE_CHANGEABLE, mask, &changeable, &len, &ignored) &&
			(changeable[4] & BC_EN_BMS);
	return 0;
}

int scsi_background_scan_set(struct device *dev, bool on, bool save, struct disk_cause *c)
{
	uint8_t mode[MODE_SENSE_BUF], *page;
	struct scsi_result res;
	size_t len;
	int err;

	if ((err = control_page(dev, MODE_CURRENT, mode, &page, &len, c)))
		return err;
	page[4] = (uint8_t)(on ? page[4] | BC_EN_BMS : page[4] & ~BC_EN_BMS);
	err = scsi_mode_select(dev, mode, page, len, save, &res);
	return scsi_cause(c, "MODE SELECT (background control page)", &res, err);
}
