/*
 * --condition on a SCSI disk, from what SPC and SBC keep: the Write and
 * Read Error Counter log pages (02h, 03h: Total Uncorrected Errors), the
 * Self-Test Results page (10h), the Solid State Media page (11h:
 * Percentage Used Endurance Indicator), the Background Scan Results page
 * (15h: the power-on time, as --power-on-hours reads it), Seagate's FARM
 * page (3Dh subpage 03h: the hours a reset of the others leaves), the
 * Informational Exceptions page (2Fh: the drive's own failure
 * prediction), and the grown defect list's length (READ DEFECT DATA, as
 * --scan-repair reads it).  A page the disk refuses is not read; a page
 * that came but does not decode is said unreadable.  The table of the
 * disk's commands is scsi_disk.c's.
 */
#include <errno.h>

#include "scsi.h"
#include "scsi_condition.h"
#include "scsi_pages.h"

#define SCSI_READ_DEFECT_DATA_10 0x37
/* Byte 2: REQ_GLIST (bit 3), the format 100b (bytes from index). */
#define DEFECT_REQ_GLIST_BFI 0x0c

/*
 * The first LOG SENSE that failed otherwise than by the disk's refusal (a
 * disk gone, a timeout): nothing more is asked of that disk (a hung one
 * would take a timeout a command), and it is said where nothing was read.
 */
static struct {
	int err;
	struct scsi_result res;
} failed;

/* One log page (and subpage) read into buf: 1 where it came (res->got bytes), 0 where refused or failing (not read). */
static int read_subpage(struct device *dev, uint8_t page, uint8_t sub, uint8_t *buf, size_t len, struct scsi_result *res)
{
	int err;

	*res = (struct scsi_result){ 0 };
	if (failed.err)
		return 0;
	if (!(err = scsi_log_sense_sub(dev, page, sub, buf, len, res)))
		return 1;
	if (!scsi_refused(err, res) && err != EOPNOTSUPP) {
		failed.err = err;
		failed.res = *res;
	}
	return 0;
}

static int read_page(struct device *dev, uint8_t page, uint8_t *buf, size_t len, struct scsi_result *res)
{
	return read_subpage(dev, page, 0, buf, len, res);
}

static void counters(struct device *dev, struct disk_condition *d, uint8_t *buf, size_t len)
{
	static const struct {
		uint8_t page;
		enum cond_count_id id;
		const char *source;
	} pages[] = {
		{ LOG_PAGE_WRITE_ERRORS, COND_WRITE_UNCORRECTED, "SCSI Write Error Counter log page (02h)" },
		{ LOG_PAGE_READ_ERRORS, COND_READ_UNCORRECTED, "SCSI Read Error Counter log page (03h)" },
	};
	struct scsi_result res;
	uint64_t v;

	for (size_t i = 0; i < sizeof(pages) / sizeof(pages[0]); i++) {
		if (!read_page(dev, pages[i].page, buf, len, &res))
			continue;
		if (scsi_decode_log_counter(buf, res.got, pages[i].page, LOG_TOTAL_UNCORRECTED, &v))
			condition_set(&d->counts[pages[i].id], pages[i].source, v);
		else
			condition_unreadable(d, pages[i].source, "no whole Total Uncorrected Errors parameter (0006h)");
	}
}

#define SELF_TEST_SOURCE "SCSI Self-Test Results log page (10h)"

static void self_tests(struct device *dev, struct disk_condition *d, uint8_t *buf, size_t len)
{
	static const char *const kinds[8] = { "default", "short", "extended", "other", "abort", "short (foreground)",
					      "extended (foreground)", "other" };
	struct scsi_self_test t[COND_SELF_TESTS];
	struct scsi_result res;
	int n;

	if (!read_page(dev, LOG_PAGE_SELF_TEST, buf, len, &res))
		return;
	if ((n = scsi_decode_self_tests(buf, res.got, t, COND_SELF_TESTS)) < 0) {
		condition_unreadable(d, SELF_TEST_SOURCE, n == -1 ? "the page that came is another"
								   : "the page came shorter than its length says");
		return;
	}
	for (int i = 0; i < n; i++) {
		struct cond_self_test *e = &d->tests[d->n_tests++];

		e->kind = kinds[t[i].code & 7];
		e->code = t[i].result;
		/* SPC-4: 0 completed; 1, 2 aborted; 3 an error that stopped it; 4-7 a segment failed; Fh in progress. */
		e->result = t[i].result == 0 ? COND_TEST_PASSED : t[i].result <= 2 ? COND_TEST_ABORTED
			  : t[i].result <= 7 ? COND_TEST_FAILED : t[i].result == 0xf ? COND_TEST_RUNNING : COND_TEST_OTHER;
		e->hour = t[i].hours;
		e->has_lba = e->result == COND_TEST_FAILED && t[i].first_failure != UINT64_MAX;
		e->lba = e->has_lba ? t[i].first_failure : 0;
	}
	condition_set(&d->self_test_log, SELF_TEST_SOURCE, (uint64_t)n);
}

static void wear_and_hours(struct device *dev, struct disk_condition *d, uint8_t *buf, size_t len)
{
	struct scsi_result res;
	unsigned int percent, asc;
	uint32_t minutes;

	if (read_page(dev, LOG_PAGE_SOLID_STATE, buf, len, &res)) {
		if (scsi_decode_percentage_used(buf, res.got, &percent))
			condition_set(&d->percentage_used, "SCSI Solid State Media log page (11h)", percent);
		else
			condition_unreadable(d, "SCSI Solid State Media log page (11h)",
					     "no whole Percentage Used Endurance Indicator (0001h)");
	}
	if (read_page(dev, LOG_PAGE_BACKGROUND_SCAN, buf, len, &res)) {
		if (scsi_decode_power_on_minutes(buf, res.got, &minutes))
			condition_hours(d, "SCSI Background Scan Results log page (15h)", minutes / 60);
		else
			condition_unreadable(d, "SCSI Background Scan Results log page (15h)",
					     "no whole accumulated power on minutes");
	}
	if (read_page(dev, LOG_PAGE_INFORMATIONAL, buf, len, &res)) {
		/* SPC's two exceptions a drive reports: 0Bh, a warning (a temperature limit); 5Dh, a failure predicted. */
		if (scsi_decode_ie_asc(buf, res.got, &asc))
			condition_set(&d->health_failing, "SCSI Informational Exceptions log page (2Fh)",
				      asc == 0x0b || asc == 0x5d);
		else
			condition_unreadable(d, "SCSI Informational Exceptions log page (2Fh)", "no whole parameter 0000h");
	}
}

#define FARM_SOURCE "Seagate FARM log page (3Dh/03h)"

/* Seagate's FARM hours, which a reset of the standard counts leaves (smartctl 7.4+ -l farm). */
static void farm_hours(struct device *dev, struct disk_condition *d, uint8_t *buf, size_t len)
{
	static const char *const why[] = {
		[FARM_NOT_FARM] = "not a FARM log: its signature is not FARMER",
		[FARM_CUT] = "its parameters did not come whole",
		[FARM_NO_HOURS] = "its power-on hours field is not valid",
	};
	struct scsi_result res = { 0 };
	enum farm_reading r;
	uint64_t hours;

	if (!read_subpage(dev, LOG_PAGE_FARM, LOG_SUBPAGE_FARM, buf, len, &res))
		return;
	if ((r = scsi_decode_farm_hours(buf, res.got, &hours)) == FARM_READ)
		condition_hours(d, FARM_SOURCE, hours);
	/* Another vendor's page 3Dh (no subpage 03h there): not FARM, and nothing to say. */
	else if (res.got >= 2 && (buf[0] & 0x3f) == LOG_PAGE_FARM && buf[1] == LOG_SUBPAGE_FARM)
		condition_unreadable(d, FARM_SOURCE, why[r]);
}

int scsi_disk_condition(struct device *dev, struct disk_condition *d, struct disk_cause *c)
{
	static uint8_t buf[1024];
	uint8_t hdr[4] = { 0 };
	uint8_t cdb[10] = { SCSI_READ_DEFECT_DATA_10, 0, DEFECT_REQ_GLIST_BFI, 0, 0, 0, 0, 0, sizeof(hdr), 0 };
	struct scsi_result res = { 0 };
	uint64_t value;
	int err;

	failed.err = 0;
	d->family = "scsi";
	counters(dev, d, buf, sizeof(buf));
	self_tests(dev, d, buf, sizeof(buf));
	wear_and_hours(dev, d, buf, sizeof(buf));
	farm_hours(dev, d, buf, sizeof(buf));
	err = failed.err ? failed.err : scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_IN, hdr, sizeof(hdr), 0, &res);
	if (!err && scsi_decode_grown_defects(hdr, res.got, &value))
		condition_set(&d->counts[COND_GROWN_DEFECTS], "SCSI READ DEFECT DATA (grown list)", value);
	/* Nothing came, and not for want of pages: the disk did not answer (gone, timed out), which is said as such. */
	if (failed.err && !d->n_hours && !d->n_unreadable && d->self_test_log.state == COND_NOT_READ &&
	    d->percentage_used.state == COND_NOT_READ && d->health_failing.state == COND_NOT_READ &&
	    d->counts[COND_READ_UNCORRECTED].state == COND_NOT_READ && d->counts[COND_WRITE_UNCORRECTED].state == COND_NOT_READ &&
	    d->counts[COND_GROWN_DEFECTS].state == COND_NOT_READ)
		return scsi_cause(c, "LOG SENSE", &failed.res, failed.err);
	return 0;
}
