/*
 * A drive's SMART data and logs read (pure): each reader is bounded by
 * the length that arrived, and says what it could not read as unreadable
 * rather than guess.
 */
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "smart_logs.h"
#include "unaligned.h"

/* SMART READ DATA (ATA/ATAPI-7 and the vendors' common layout): 30 entries of 12 bytes from byte 2. */
#define ATTR_FIRST 2
#define ATTR_COUNT 30
#define ATTR_BYTES 12
#define ATTR_RAW 5		/* the raw value: 6 bytes, little-endian */
#define ATTR_POWER_ON 9
#define HOURS_BOGUS 0xffffffULL	/* more hours than this (1900 years) is no count: smartctl's limit too */

/*
 * Drives whose attribute 9 is no count of hours, from smartmontools 7.5's
 * drivedb.h (its model patterns, POSIX extended expressions matched whole;
 * the line of each entry named): a few families of each format, the ones
 * still met used.  A drive not listed counts hours in bytes 0-3 (the
 * default: smartctl too ignores bytes 4-5, where some keep milliseconds).
 */
static const struct {
	const char *pattern;
	enum smart_hours_format fmt;
	const char *source;
} hours_formats[] = {
	{ "ST(2000DM00[589]|3000DM007|4000DM00[45]|6000DM003|8000DM004)-.*", HOURS_MSEC24_HOUR32,
	  "drivedb.h:4546 Seagate BarraCuda 3.5 (SMR), -v 9,msec24hour32" },
	{ "ST[12]000NM0008-.*", HOURS_MSEC24_HOUR32, "drivedb.h:4684 Seagate Enterprise Capacity 3.5 HDD, -v 9,msec24hour32" },
	{ "ST8000AS0003-.*", HOURS_MSEC24_HOUR32, "drivedb.h:4695 Seagate Exos 5E8, -v 9,msec24hour32" },
	{ "ST(1000VX005|2000VX008|3000VX0(09|10)|4000VX007|6000VX00(1|23)|8000VX00(4|22))-.*", HOURS_MSEC24_HOUR32,
	  "drivedb.h:4858 Seagate Skyhawk, -v 9,msec24hour32" },
	{ "INTEL SSDSC2BA(200G|400G|800G|012T)4.?", HOURS_MSEC24_HOUR32,
	  "drivedb.h:1744 Intel 3710 Series SSDs, -v 9,msec24hour32" },
	{ "INTEL SSDSC2[BC]W(060|120|180|240|480)A3[FL]?", HOURS_MSEC24_HOUR32,
	  "drivedb.h:1511 Intel 520 Series SSDs, -v 9,msec24hour32" },
	{ "Maxtor 6(B(30|25|20|16|12|10|08)0[MPRS]|L(080[MLP]|(100|120)[MP]|160[MP]|200[MPRS]|250[RS]|300[RS]))0",
	  HOURS_MINUTES, "drivedb.h:3395 Maxtor DiamondMax 10, -v 9,minutes" },
	{ "Maxtor 7L(25|30)0[SR]0", HOURS_MINUTES, "drivedb.h:3483 Maxtor MaXLine III, -v 9,minutes" },
	{ "TOSHIBA MK(16|25|32|50|64)61GSYN?", HOURS_MINUTES, "drivedb.h:3993 Toshiba 2.5\" HDD MK..61GSY[N], -v 9,minutes" },
	{ "SAMSUNG SP(04[05]1|08[0124]2|12[0145]3|16[0145]4)[CN]", HOURS_HALF_MINUTES,
	  "drivedb.h:2992 SAMSUNG SpinPoint P80, -v 9,halfminutes" },
	{ "SAMSUNG HM(0[468]0H|120I|1[026]0J)[CI]", HOURS_HALF_MINUTES,
	  "drivedb.h:3014 SAMSUNG SpinPoint M40/60/80, -v 9,halfminutes" },
	{ "FUJITSU MHV2...(AH|AS|AT|BH|BS|BT).*", HOURS_SECONDS, "drivedb.h:2783 Fujitsu MHV, -v 9,seconds" },
	{ "FUJITSU MHT2...(AC|AH|AS|AT|BH)U?.*", HOURS_SECONDS, "drivedb.h:2771 Fujitsu MHT, -v 9,seconds" },
};

enum smart_hours_format smart_hours_format(const char *model, const char **source)
{
	*source = NULL;
	for (size_t i = 0; i < sizeof(hours_formats) / sizeof(hours_formats[0]); i++) {
		char whole[256];
		regex_t re;
		int miss;

		snprintf(whole, sizeof(whole), "^(%s)$", hours_formats[i].pattern);
		if (regcomp(&re, whole, REG_EXTENDED | REG_NOSUB))
			continue;
		miss = regexec(&re, model, 0, NULL, 0);
		regfree(&re);
		if (!miss) {
			*source = hours_formats[i].source;
			return hours_formats[i].fmt;
		}
	}
	return HOURS_PLAIN;
}

/* Attribute id's entry, where the len bytes that came hold it whole. */
static const uint8_t *attr_find(const uint8_t *data, size_t len, uint8_t id)
{
	if (!id)
		return NULL;	/* an empty entry's id */
	for (unsigned int i = 0; i < ATTR_COUNT; i++) {
		size_t at = ATTR_FIRST + (size_t)i * ATTR_BYTES;

		if (at + ATTR_BYTES > len)
			break;
		if (data[at] == id)
			return data + at;
	}
	return NULL;
}

static uint64_t attr_raw(const uint8_t *a)
{
	return get_le32(a + ATTR_RAW) | (uint64_t)get_le16(a + ATTR_RAW + 4) << 32;
}

enum smart_reading smart_attr_hours(const uint8_t *data, size_t len, enum smart_hours_format fmt, uint64_t *hours)
{
	const uint8_t *a = attr_find(data, len, ATTR_POWER_ON);
	uint64_t raw;

	*hours = 0;
	if (!a)
		return SMART_ABSENT;
	raw = attr_raw(a);
	switch (fmt) {
	case HOURS_MINUTES:
		raw /= 60;
		break;
	case HOURS_HALF_MINUTES:
		raw /= 120;
		break;
	case HOURS_SECONDS:
		raw /= 3600;
		break;
	case HOURS_PLAIN:
	case HOURS_MSEC24_HOUR32:
		raw &= 0xffffffffULL;	/* bytes 4-5: milliseconds past the hour, where a drive keeps them */
		break;
	}
	if (raw > HOURS_BOGUS)
		return SMART_UNREADABLE;
	*hours = raw;
	return SMART_READ;
}

enum smart_reading smart_attr_count(const uint8_t *data, size_t len, uint8_t id, uint64_t sectors, uint64_t *count)
{
	const uint8_t *a = attr_find(data, len, id);
	bool of_sectors = id == 5 || id == 196 || id == 197 || id == 198;

	*count = 0;
	if (!a)
		return SMART_ABSENT;
	*count = attr_raw(a);
	if (of_sectors && sectors && *count > sectors)
		return SMART_UNREADABLE;
	return SMART_READ;
}

int smart_attr_list(const uint8_t *data, size_t len, struct smart_attr *out, int max)
{
	int n = 0;

	for (unsigned int i = 0; i < ATTR_COUNT && n < max; i++) {
		const uint8_t *a = data + ATTR_FIRST + (size_t)i * ATTR_BYTES;

		if (ATTR_FIRST + ((size_t)i + 1) * ATTR_BYTES > len)
			break;
		if (!a[0])
			continue;
		out[n].id = a[0];
		out[n].slot = (uint8_t)i;
		out[n].flags = get_le16(a + 1);
		out[n].value = a[3];
		out[n].worst = a[4];
		out[n++].raw = attr_raw(a);
	}
	return n;
}

uint8_t smart_attr_threshold(const uint8_t *page, size_t len, uint8_t id, unsigned int slot)
{
	size_t at = ATTR_FIRST + (size_t)slot * ATTR_BYTES;
	const uint8_t *t = slot < ATTR_COUNT && at + ATTR_BYTES <= len && id && page[at] == id ? page + at
											      : attr_find(page, len, id);

	return t ? t[1] : 0;
}

/* smartctl's default names (smartmontools 7.5's drivedb.h, its default entry), for the attributes drives commonly keep. */
const char *smart_attr_name(uint8_t id, enum smart_hours_format fmt)
{
	static const struct { uint8_t id; const char *name; } names[] = {
		{ 1, "Raw_Read_Error_Rate" }, { 2, "Throughput_Performance" }, { 3, "Spin_Up_Time" },
		{ 4, "Start_Stop_Count" }, { 5, "Reallocated_Sector_Ct" }, { 7, "Seek_Error_Rate" },
		{ 8, "Seek_Time_Performance" }, { 9, "Power_On_Hours" }, { 10, "Spin_Retry_Count" },
		{ 11, "Calibration_Retry_Count" }, { 12, "Power_Cycle_Count" }, { 184, "End-to-End_Error" },
		{ 187, "Reported_Uncorrect" }, { 188, "Command_Timeout" }, { 189, "High_Fly_Writes" },
		{ 190, "Airflow_Temperature_Cel" }, { 191, "G-Sense_Error_Rate" }, { 192, "Power-Off_Retract_Count" },
		{ 193, "Load_Cycle_Count" }, { 194, "Temperature_Celsius" }, { 195, "Hardware_ECC_Recovered" },
		{ 196, "Reallocated_Event_Count" }, { 197, "Current_Pending_Sector" }, { 198, "Offline_Uncorrectable" },
		{ 199, "UDMA_CRC_Error_Count" }, { 200, "Multi_Zone_Error_Rate" }, { 240, "Head_Flying_Hours" },
		{ 241, "Total_LBAs_Written" }, { 242, "Total_LBAs_Read" },
	};

	if (id == ATTR_POWER_ON && fmt == HOURS_MINUTES)
		return "Power_On_Minutes";
	if (id == ATTR_POWER_ON && fmt == HOURS_HALF_MINUTES)
		return "Power_On_Half_Minutes";
	if (id == ATTR_POWER_ON && fmt == HOURS_SECONDS)
		return "Power_On_Seconds";
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].id == id)
			return names[i].name;
	return NULL;
}

enum smart_status smart_status_decode(uint8_t lba_mid, uint8_t lba_high)
{
	if (lba_mid == 0x4f && lba_high == 0xc2)
		return SMART_STATUS_PASSED;
	if (lba_mid == 0xf4 && lba_high == 0x2c)
		return SMART_STATUS_FAILING;
	return SMART_STATUS_UNKNOWN;
}

/* ACS's self-test execution status: 3h fatal or unknown error, 4h unknown failure, 5h electrical, 6h servo/seek, 7h read, 8h handling damage. */
bool smart_selftest_failed(uint8_t status)
{
	return status >= 3 && status <= 8;
}

static bool all_zero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return false;
	return true;
}

/* SMART self-test log (06h): revision (0-1), 21 descriptors of 24 bytes from 2, index of the latest (1-based) at 508. */
#define SELFTEST_FIRST 2
#define SELFTEST_ENTRIES 21
#define SELFTEST_BYTES 24
#define SELFTEST_INDEX 508
/* Extended SMART self-test log (07h): index (2-3, 1-based), 19 descriptors of 26 bytes from 4 on each page. */
#define EXT_SELFTEST_INDEX 2
#define EXT_SELFTEST_FIRST 4
#define EXT_SELFTEST_PER_PAGE 19
#define EXT_SELFTEST_BYTES 26
#define LOG_PAGE 512

static void selftest_entry(const uint8_t *d, bool ext, struct smart_selftest *t)
{
	t->subcommand = d[0];
	t->status = d[1] >> 4;
	t->remaining = d[1] & 0x0f;
	t->hour = get_le16(d + 2);
	t->failing_lba = ext ? (get_le32(d + 5) | (uint64_t)get_le16(d + 9) << 32) : get_le32(d + 5);
}

int smart_selftest_log(const uint8_t *log, size_t len, struct smart_selftest *out, int max)
{
	int n = 0;
	unsigned int latest;

	if (len < LOG_PAGE)
		return -1;
	latest = log[SELFTEST_INDEX];
	if (latest > SELFTEST_ENTRIES)
		return -1;
	if (!latest)
		return 0;	/* no test recorded */
	for (unsigned int k = 0; k < SELFTEST_ENTRIES && n < max; k++) {
		unsigned int j = (latest - 1 + SELFTEST_ENTRIES - k) % SELFTEST_ENTRIES;
		const uint8_t *d = log + SELFTEST_FIRST + j * SELFTEST_BYTES;

		if (!all_zero(d, SELFTEST_BYTES))
			selftest_entry(d, false, &out[n++]);
	}
	return n;
}

int smart_ext_selftest_log(const uint8_t *log, size_t len, struct smart_selftest *out, int max)
{
	size_t entries = len / LOG_PAGE * EXT_SELFTEST_PER_PAGE;
	unsigned int latest;
	int n = 0;

	if (!entries)
		return -1;
	latest = get_le16(log + EXT_SELFTEST_INDEX);
	if (latest > entries)
		return -1;	/* past the pages that came: not read past them */
	if (!latest)
		return 0;
	for (size_t k = 0; k < entries && n < max; k++) {
		size_t j = (latest - 1 + entries - k) % entries;
		const uint8_t *d = log + j / EXT_SELFTEST_PER_PAGE * LOG_PAGE + EXT_SELFTEST_FIRST +
				   j % EXT_SELFTEST_PER_PAGE * EXT_SELFTEST_BYTES;

		if (!all_zero(d, EXT_SELFTEST_BYTES))
			selftest_entry(d, true, &out[n++]);
	}
	return n;
}

/* Summary error log (01h): the device's error count at 452-453; Extended Comprehensive SMART error log (03h): at 500-501. */
#define ERROR_COUNT 452
#define EXT_ERROR_COUNT 500

enum smart_reading smart_error_count(const uint8_t *log, size_t len, bool ext, uint32_t *count)
{
	*count = 0;
	if (len < LOG_PAGE)
		return SMART_UNREADABLE;
	*count = get_le16(log + (ext ? EXT_ERROR_COUNT : ERROR_COUNT));
	return SMART_READ;
}

/*
 * Device Statistics (GP log 04h, ACS-3 9.5): a page's header (revision 0-1,
 * page number at 2), then 64-bit statistics: bit 63 supported, 62 valid.
 */
#define DEVSTAT_PAGE_NUMBER 2
#define DEVSTAT_GENERAL 0x01
#define DEVSTAT_SOLID_STATE 0x07
#define DEVSTAT_POWER_ON_HOURS 16	/* General: 32-bit value */
#define DEVSTAT_SECTORS_WRITTEN 24	/* General: 48-bit value */
#define DEVSTAT_PERCENT_USED 8		/* Solid State: bits 7:0 */
#define DEVSTAT_SUPPORTED (1ULL << 63)
#define DEVSTAT_VALID (1ULL << 62)

/* The statistic at off: SMART_READ with its value where supported and valid, else absent (not kept) or unreadable. */
static enum smart_reading devstat_one(const uint8_t *page, size_t len, size_t off, uint64_t *v)
{
	uint64_t s;

	*v = 0;
	if (off + 8 > len)
		return SMART_UNREADABLE;
	s = get_le64(page + off);
	if (!(s & DEVSTAT_SUPPORTED))
		return SMART_ABSENT;
	if (!(s & DEVSTAT_VALID))
		return SMART_UNREADABLE;
	*v = s & 0x00ffffffffffffffULL;
	return SMART_READ;
}

#define DEVSTAT_LIST_COUNT 8
#define DEVSTAT_LIST 9

bool devstat_lists(const uint8_t *page0, size_t len, uint8_t page)
{
	if (len <= DEVSTAT_LIST_COUNT || page0[DEVSTAT_PAGE_NUMBER] != 0)
		return false;
	for (size_t i = 0; i < page0[DEVSTAT_LIST_COUNT] && DEVSTAT_LIST + i < len; i++)
		if (page0[DEVSTAT_LIST + i] == page)
			return true;
	return false;
}

void devstat_general(const uint8_t *page, size_t len, struct devstat_reading *r)
{
	uint64_t v;

	if (len <= DEVSTAT_PAGE_NUMBER || page[DEVSTAT_PAGE_NUMBER] != DEVSTAT_GENERAL) {
		r->hours = r->written = SMART_UNREADABLE;
		return;
	}
	r->hours = devstat_one(page, len, DEVSTAT_POWER_ON_HOURS, &v);
	r->power_on_hours = (uint32_t)v;
	r->written = devstat_one(page, len, DEVSTAT_SECTORS_WRITTEN, &v);
	r->sectors_written = v & 0xffffffffffffULL;
}

void devstat_solid_state(const uint8_t *page, size_t len, struct devstat_reading *r)
{
	uint64_t v;

	if (len <= DEVSTAT_PAGE_NUMBER || page[DEVSTAT_PAGE_NUMBER] != DEVSTAT_SOLID_STATE) {
		r->used = SMART_UNREADABLE;
		return;
	}
	r->used = devstat_one(page, len, DEVSTAT_PERCENT_USED, &v);
	r->percent_used = (uint8_t)v;
}

/* FARM (smartmontools 7.5's farmcmds.h): fields of 8 bytes, little-endian, top byte C0h where valid. */
#define FARM_FIELD_VALID 0xc0
#define FARM_SIGNATURE 0x00004641524d4552ULL	/* "FARMER" */
#define FARM_PAGE_NUMBER 0			/* each page's first field */
#define FARM_DRIVE_PAGE 1
#define FARM_DRIVE_POWER_ON_HOURS 152		/* Drive Information's 20th field */

/* smartmontools 7.5's farmcmds.cpp ataIsSeagate(), its model test (its drive database's family aside). */
bool farm_drive(const char *model)
{
	regex_t re;
	int miss;

	if (regcomp(&re, "^ST[0-9]{3,5}[A-Z]{2}[A-Z0-9]{3,5}(-.*)?$", REG_EXTENDED | REG_NOSUB))
		return false;
	miss = regexec(&re, model, 0, NULL, 0);
	regfree(&re);
	return !miss;
}

static bool farm_field(const uint8_t *p, size_t len, size_t off, uint64_t *v)
{
	uint64_t f;

	if (off + 8 > len)
		return false;
	f = get_le64(p + off);
	*v = f & 0x00ffffffffffffffULL;
	return f >> 56 == FARM_FIELD_VALID;
}

enum smart_reading farm_power_on_hours(const uint8_t *header, size_t header_len, const uint8_t *drive,
				       size_t drive_len, uint64_t *hours)
{
	uint64_t v;

	*hours = 0;
	if (!farm_field(header, header_len, 0, &v) || v != FARM_SIGNATURE)
		return SMART_UNREADABLE;
	if (!farm_field(drive, drive_len, FARM_PAGE_NUMBER, &v) || v != FARM_DRIVE_PAGE)
		return SMART_UNREADABLE;
	if (!farm_field(drive, drive_len, FARM_DRIVE_POWER_ON_HOURS, &v) || v > HOURS_BOGUS)
		return SMART_UNREADABLE;
	*hours = v;
	return SMART_READ;
}
