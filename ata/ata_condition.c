/*
 * --condition on an ATA drive: every source the drive keeps, read and
 * decoded by ata/smart_logs.c.  A source the drive lacks, or whose command
 * it refuses, is left not read; one that came back but holds no value
 * (a packed count, a wrong signature, an index past the log) is noted
 * unreadable with why.  Nothing is said here.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ata_commands.h"
#include "ata_condition.h"
#include "ata_disk.h"
#include "identify.h"
#include "smart_logs.h"

/* General Purpose and SMART logs read here. */
#define LOG_SUMMARY_ERROR 0x01
#define LOG_EXT_ERROR 0x03
#define LOG_SELFTEST 0x06
#define LOG_EXT_SELFTEST 0x07
#define LOG_FARM 0xa6
#define EXT_SELFTEST_PAGES 4	/* 76 tests: the newest are read, not a drive's whole history */
/* IDENTIFY word 84 (valid where bits 15:14 are 01b): bit 0 SMART error logging, bit 1 SMART self-test. */
#define ID84_ERROR_LOG 0x0001
#define ID84_SELF_TEST 0x0002

static bool word84(const uint16_t *id, uint16_t bit)
{
	return ata_id_word_valid(id[ATA_ID_COMMAND_SET_EXT]) && (id[ATA_ID_COMMAND_SET_EXT] & bit);
}

/* The attributes the verdict counts, each by what it counts, and their sources as said. */
static const struct {
	uint8_t id;
	enum cond_count_id count;
	const char *source;
} counted[] = {
	{ 5, COND_REALLOCATED, "SMART attribute 5" },
	{ 196, COND_REALLOCATION_EVENTS, "SMART attribute 196" },
	{ 197, COND_PENDING, "SMART attribute 197" },
	{ 198, COND_OFFLINE_UNCORRECTABLE, "SMART attribute 198" },
	{ 187, COND_REPORTED_UNCORRECTABLE, "SMART attribute 187" },
	{ 199, COND_INTERFACE_CRC, "SMART attribute 199" },
};

/* SMART READ DATA: attribute 9's hours by the drive's format, the counts, and the table for JSON. */
static bool read_attributes(struct device *dev, const uint16_t *id, const char *model, struct disk_condition *d)
{
	static const char hours_source[] = "SMART attribute 9";
	uint8_t data[512] = { 0 };
	struct ata_result res;
	struct smart_attr a[COND_ATTRIBUTES];
	const char *format_source;
	enum smart_hours_format fmt = smart_hours_format(model, &format_source);
	uint64_t v, sectors = identify_capacity(id);
	int n;

	if (ata_smart_read_data(dev, data, &res))
		return false;
	switch (smart_attr_hours(data, sizeof(data), fmt, &v)) {
	case SMART_READ:
		condition_hours(d, hours_source, v);
		break;
	case SMART_UNREADABLE:
		condition_unreadable(d, hours_source, "its raw value is no count of hours (a vendor's packed value)");
		break;
	case SMART_ABSENT:
		break;
	}
	for (size_t i = 0; i < sizeof(counted) / sizeof(counted[0]); i++) {
		struct cond_value *c = &d->counts[counted[i].count];
		char why[120];

		switch (smart_attr_count(data, sizeof(data), counted[i].id, sectors, &v)) {
		case SMART_READ:
			condition_set(c, counted[i].source, v);
			break;
		case SMART_UNREADABLE:
			c->state = COND_UNREADABLE;
			c->source = counted[i].source;
			c->value = v;
			snprintf(why, sizeof(why), "raw value %llu is more sectors than the disk's %llu: a vendor's packed value,"
				 " not a count", (unsigned long long)v, (unsigned long long)sectors);
			condition_unreadable(d, counted[i].source, why);
			break;
		case SMART_ABSENT:
			break;
		}
	}
	n = smart_attr_list(data, sizeof(data), a, COND_ATTRIBUTES);
	/* The thresholds: a drive that refuses them has none to say (zeros). */
	if (ata_smart_read_table(dev, true, data, &res))
		memset(data, 0, sizeof(data));
	for (int i = 0; i < n; i++) {
		struct cond_attribute *t = &d->attributes[d->n_attributes++];

		t->id = a[i].id;
		t->flags = a[i].flags;
		t->value = a[i].value;
		t->worst = a[i].worst;
		t->thresh = smart_attr_threshold(data, sizeof(data), a[i].id, a[i].slot);
		t->raw = a[i].raw;
		t->name = smart_attr_name(a[i].id, fmt);
	}
	return true;
}

/* SMART RETURN STATUS: the drive's own verdict, in two registers. */
static bool read_status(struct device *dev, struct disk_condition *d)
{
	static const char source[] = "SMART RETURN STATUS";
	struct ata_result res;
	char why[120];

	if (ata_smart_return_status(dev, &res))
		return false;
	if (!res.have_regs) {
		condition_unreadable(d, source, "the registers it answers in did not come back (a bridge that drops them)");
		return true;
	}
	switch (smart_status_decode((uint8_t)(res.out.lba >> 8), (uint8_t)(res.out.lba >> 16))) {
	case SMART_STATUS_PASSED:
		condition_set(&d->health_failing, source, 0);
		break;
	case SMART_STATUS_FAILING:
		condition_set(&d->health_failing, source, 1);
		break;
	case SMART_STATUS_UNKNOWN:
		d->health_failing.state = COND_UNREADABLE;
		d->health_failing.source = source;
		snprintf(why, sizeof(why), "LBA mid and high say %02Xh %02Xh, neither passed (4Fh C2h) nor failing (F4h 2Ch)",
			 (unsigned int)(uint8_t)(res.out.lba >> 8), (unsigned int)(uint8_t)(res.out.lba >> 16));
		condition_unreadable(d, source, why);
		break;
	}
	return true;
}

static const char *test_kind(uint8_t subcommand)
{
	switch (subcommand & 0x7f) {
	case 1:
		return "short";
	case 2:
		return "extended";
	case 3:
		return "conveyance";
	case 4:
		return "selective";
	case 0:
		return "off-line";
	default:
		return "vendor";
	}
}

static enum cond_test_result test_result(uint8_t status)
{
	if (status == 0)
		return COND_TEST_PASSED;
	if (status == 1 || status == 2)
		return COND_TEST_ABORTED;
	if (smart_selftest_failed(status))
		return COND_TEST_FAILED;
	return status == 15 ? COND_TEST_RUNNING : COND_TEST_OTHER;
}

/* The Extended SMART self-test log (07h) where the directory lists it, else the SMART one (06h). */
static bool read_self_tests(struct device *dev, const uint16_t *id, struct disk_condition *d)
{
	uint8_t log[EXT_SELFTEST_PAGES * 512];
	struct smart_selftest t[SMART_SELFTEST_MAX];
	struct disk_cause c = { 0 };
	struct ata_result res;
	unsigned int pages = ata_log_pages(dev, LOG_EXT_SELFTEST, &c);
	const char *source = "Extended SMART self-test log (07h)";
	int n;

	memset(log, 0, sizeof(log));
	if (pages > EXT_SELFTEST_PAGES)
		pages = EXT_SELFTEST_PAGES;
	for (unsigned int p = 0; p < pages; p++)
		if (ata_read_log_page(dev, LOG_EXT_SELFTEST, (uint8_t)p, log + 512 * p, &c))
			pages = p;	/* what came is read */
	if (pages)
		n = smart_ext_selftest_log(log, 512 * pages, t, SMART_SELFTEST_MAX);
	else if (word84(id, ID84_SELF_TEST) && !ata_smart_log(dev, false, LOG_SELFTEST, log, &res)) {
		source = "SMART self-test log (06h)";
		n = smart_selftest_log(log, 512, t, SMART_SELFTEST_MAX);
	} else
		return false;
	if (n < 0) {
		d->self_test_log.state = COND_UNREADABLE;
		d->self_test_log.source = source;
		condition_unreadable(d, source, "its index names an entry past the log");
		return true;
	}
	condition_set(&d->self_test_log, source, (uint64_t)n);
	d->self_test_log_extended = pages != 0;
	for (int i = 0; i < n && i < COND_SELF_TESTS; i++) {
		struct cond_self_test *e = &d->tests[d->n_tests++];

		e->kind = test_kind(t[i].subcommand);
		e->code = t[i].status;
		e->result = test_result(t[i].status);
		e->hour = t[i].hour;
		/*
		 * The first failing LBA is kept for a failed test only; elsewhere the field is stale. All ones
		 * (the log's width: 28 bits in 06h's four bytes, 48 in 07h's six) is no LBA, as smartctl reads it.
		 */
		e->has_lba = e->result == COND_TEST_FAILED && t[i].failing_lba < (pages ? 0xffffffffffffULL : 0xffffffffULL);
		e->lba = t[i].failing_lba;
		e->type = t[i].subcommand;
		e->remaining = t[i].remaining;
	}
	return true;
}

/* The error log's count: the Extended Comprehensive SMART error log (03h), else the summary one (01h). */
static bool read_error_count(struct device *dev, const uint16_t *id, struct disk_condition *d)
{
	uint8_t log[512] = { 0 };
	struct disk_cause c = { 0 };
	struct ata_result res;
	uint32_t count;

	if (!ata_read_log_page(dev, LOG_EXT_ERROR, 0, log, &c)) {
		if (smart_error_count(log, sizeof(log), true, &count) == SMART_READ)
			condition_set(&d->counts[COND_ERROR_LOG], "Extended Comprehensive SMART error log (03h)", count);
		return true;
	}
	if (!word84(id, ID84_ERROR_LOG) || ata_smart_log(dev, false, LOG_SUMMARY_ERROR, log, &res))
		return false;
	if (smart_error_count(log, sizeof(log), false, &count) == SMART_READ)
		condition_set(&d->counts[COND_ERROR_LOG], "Summary SMART error log (01h)", count);
	return true;
}

/* Device Statistics (04h): the pages its page 0 lists, General Statistics and Solid State. */
static bool read_devstat(struct device *dev, const uint16_t *id, struct disk_condition *d)
{
	static const char source[] = "Device Statistics";
	uint8_t page0[512] = { 0 }, page[512];
	struct disk_cause c = { 0 };
	struct devstat_reading r = { 0 };

	if (ata_read_log_page(dev, ATA_LOG_DEVICE_STATISTICS, 0, page0, &c))
		return false;
	memset(page, 0, sizeof(page));
	if (devstat_lists(page0, sizeof(page0), 1) &&
	    !ata_read_log_page(dev, ATA_LOG_DEVICE_STATISTICS, 1, page, &c)) {
		devstat_general(page, sizeof(page), &r);
		if (r.hours == SMART_READ)
			condition_hours(d, source, r.power_on_hours);
		else if (r.hours == SMART_UNREADABLE)
			condition_unreadable(d, source, "General Statistics' Power-on Hours is not valid (bit 62 clear),"
					     " or the page is not the General Statistics page");
		if (r.written == SMART_READ) {
			condition_set(&d->data_written, "Device Statistics (Logical Sectors Written)", r.sectors_written);
			d->data_unit = identify_sector_bytes(id);
		}
	}
	memset(page, 0, sizeof(page));
	if (devstat_lists(page0, sizeof(page0), 7) &&
	    !ata_read_log_page(dev, ATA_LOG_DEVICE_STATISTICS, 7, page, &c)) {
		devstat_solid_state(page, sizeof(page), &r);
		if (r.used == SMART_READ)
			condition_set(&d->percentage_used, "Device Statistics (Percentage Used Endurance Indicator)",
				      r.percent_used);
		else if (r.used == SMART_UNREADABLE)
			condition_unreadable(d, source, "Solid State's Percentage Used Endurance Indicator is not valid");
	}
	return true;
}

/* Seagate's FARM (GP log A6h, a Seagate drive only): six pages of equal sectors; the first and second's first sectors. */
static bool read_farm(struct device *dev, const char *model, struct disk_condition *d)
{
	static const char source[] = "FARM";
	uint8_t header[512] = { 0 }, drive[512] = { 0 };
	struct disk_cause c = { 0 };
	unsigned int sectors;
	uint64_t hours;

	if (!farm_drive(model) || (sectors = ata_log_pages(dev, LOG_FARM, &c)) < FARM_PAGES)
		return false;
	if (sectors / FARM_PAGES > 0xff) {
		/* Its second page past the pages a log read here reaches (8 bits): said, not a wrong page read. */
		condition_unreadable(d, source, "the log directory gives it more sectors than its pages are read at");
		return true;
	}
	if (ata_read_log_page(dev, LOG_FARM, 0, header, &c) ||
	    ata_read_log_page(dev, LOG_FARM, (uint8_t)(sectors / FARM_PAGES), drive, &c))
		return false;
	if (farm_power_on_hours(header, sizeof(header), drive, sizeof(drive), &hours) == SMART_READ)
		condition_hours(d, source, hours);
	else
		condition_unreadable(d, source, "the log's signature is not FARM's, or its Drive Information page holds"
				     " no valid power-on hours");
	return true;
}

int ata_disk_condition(struct device *dev, struct disk_condition *d, struct disk_cause *c)
{
	char model[48];
	const char *m;
	bool any = false;
	int err;
	const uint16_t *id = identify_for(dev, &err, c);

	if (!id)
		return err;
	identify_string(&id[ATA_ID_MODEL], 20, model);
	m = model + strspn(model, " ");
	d->family = "ata";
	if (ata_id_smart_enabled(id)) {
		any |= read_attributes(dev, id, m, d);
		any |= read_status(dev, d);
		any |= read_self_tests(dev, id, d);
		any |= read_error_count(dev, id, d);
	}
	if (ata_id_has_gpl(id)) {
		any |= read_devstat(dev, id, d);
		any |= read_farm(dev, m, d);
	}
	if (!any) {
		c->about_option = true;
		/* SMART enabled yet nothing came: the drive (or a bridge) refused each command, which is the reason said. */
		snprintf(c->why, sizeof(c->why), "the drive keeps nothing of its condition that it would give: %s",
			 ata_id_smart_enabled(id) ? "it refused SMART READ DATA, SMART RETURN STATUS and every log read"
						  : "SMART is not enabled (IDENTIFY word 85 bit 0) and it has no Device Statistics log");
		return EOPNOTSUPP;
	}
	return 0;
}

/* SMART READ DATA byte 363, Self-test execution status: bits 7:4 the status (Fh: running), 3:0 tens of per cent left. */
#define SMART_DATA_SELFTEST_STATUS 363
#define SELFTEST_RUNNING 0x0f

static const uint16_t *smart_drive(struct device *dev, struct disk_cause *c, int *err)
{
	const uint16_t *id = identify_for(dev, err, c);

	if (id && !ata_id_smart_enabled(id)) {
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "SMART is not enabled (IDENTIFY word 85 bit 0), which runs the self-test");
		*err = EOPNOTSUPP;
		return NULL;
	}
	return id;
}

/* SMART EXECUTE OFF-LINE IMMEDIATE in off-line mode (the drive tests in the background): 01h, 02h, 7Fh abort. */
int ata_disk_self_test_start(struct device *dev, enum disk_self_test what, struct disk_cause *c)
{
	static const uint8_t subcommand[] = { [SELF_TEST_SHORT] = 0x01, [SELF_TEST_EXTENDED] = 0x02,
					      [SELF_TEST_ABORT] = 0x7f };
	struct ata_result res;
	int err;

	if (!smart_drive(dev, c, &err))
		return err;
	err = ata_smart_execute_offline(dev, subcommand[what], &res);
	return ata_cause(c, "SMART EXECUTE OFF-LINE IMMEDIATE", &res, err);
}

int ata_disk_self_test_progress(struct device *dev, bool *running, int *percent_done, struct disk_cause *c)
{
	uint8_t data[512] = { 0 };
	struct ata_result res;
	int err;

	if (!smart_drive(dev, c, &err))
		return err;
	if ((err = ata_smart_read_data(dev, data, &res)))
		return ata_cause(c, "SMART READ DATA", &res, err);
	*running = data[SMART_DATA_SELFTEST_STATUS] >> 4 == SELFTEST_RUNNING;
	*percent_done = *running ? 100 - 10 * (data[SMART_DATA_SELFTEST_STATUS] & 0x0f) : -1;
	if (*percent_done < 0 && *running)
		*percent_done = 0;	/* more than ten tens left: a drive's odd count, said as just begun */
	return 0;
}
