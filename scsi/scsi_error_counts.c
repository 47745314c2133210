/*
 * --scan-repair on a SCSI disk: the Read Error Counter log page's (03h)
 * Total Uncorrected Errors, and the length of the grown defect list (READ
 * DEFECT DATA (10), the header alone, as smartctl asks it: bytes from
 * index format), each where the disk has it.  The table of the disk's
 * commands is scsi_disk.c's.
 */
#include <errno.h>
#include <stdio.h>

#include "scsi.h"
#include "scsi_error_counts.h"
#include "scsi_pages.h"

#define SCSI_READ_DEFECT_DATA_10 0x37
/* Byte 2: REQ_GLIST (bit 3), the format 100b (bytes from index). */
#define DEFECT_REQ_GLIST_BFI 0x0c

static void count(struct disk_error_counts *c, const char *key, const char *label, uint64_t value)
{
	c->c[c->n].key = key;
	c->c[c->n].label = label;
	c->c[c->n++].value = value;
}

int scsi_disk_error_counts(struct device *dev, struct disk_error_counts *c)
{
	uint8_t buf[252], hdr[4] = { 0 };
	uint8_t cdb[10] = { SCSI_READ_DEFECT_DATA_10, 0, DEFECT_REQ_GLIST_BFI, 0, 0, 0, 0, 0, sizeof(hdr), 0 };
	struct scsi_result res = { 0 };
	uint64_t value;
	int err = scsi_log_sense(dev, LOG_PAGE_READ_ERRORS, buf, sizeof(buf), &res);

	if (!err && scsi_decode_uncorrected_errors(buf, res.got, &value))
		count(c, "read_total_uncorrected_errors", "read errors uncorrected (log page 03h)", value);
	else if (err && !scsi_refused(err, &res) && err != EOPNOTSUPP)
		return scsi_cause(&c->cause, "LOG SENSE (read error counters)", &res, err);
	res = (struct scsi_result){ 0 };
	err = scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_IN, hdr, sizeof(hdr), 0, &res);
	if (!err && scsi_decode_grown_defects(hdr, res.got, &value))
		count(c, "grown_defect_list", "grown defects (READ DEFECT DATA)", value);
	else if (err && !scsi_refused(err, &res) && err != EOPNOTSUPP)
		return scsi_cause(&c->cause, "READ DEFECT DATA (10)", &res, err);
	if (!c->n) {
		snprintf(c->cause.why, sizeof(c->cause.why), "the disk has no Read Error Counter log page (03h) and no grown"
			 " defect list");
		return EOPNOTSUPP;
	}
	c->source = "Read Error Counter log page, grown defect list";
	return 0;
}
