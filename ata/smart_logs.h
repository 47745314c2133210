/*
 * What an ATA drive keeps of its own condition, read from the bytes it
 * sent (pure functions, each bounded by the length given): SMART READ
 * DATA's attributes (hours by the drive's format, counts checked against
 * the disk's size), SMART RETURN STATUS's registers, the SMART self-test
 * logs (06h, 07h), the error logs' counts (01h, 03h), the Device
 * Statistics log (04h) and Seagate's FARM log (A6h).
 */
#ifndef HDPARM_SMART_LOGS_H
#define HDPARM_SMART_LOGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* How a reading came out: absent (the drive has no such thing), read, or there but not a value (said unreadable). */
enum smart_reading { SMART_ABSENT, SMART_READ, SMART_UNREADABLE };

/*
 * How attribute 9's raw value counts time (smartmontools' drivedb.h "-v 9,..."): hours (the
 * default), minutes, half minutes, seconds, or hours in bytes 0-3 and milliseconds above.
 */
enum smart_hours_format { HOURS_PLAIN, HOURS_MINUTES, HOURS_HALF_MINUTES, HOURS_SECONDS, HOURS_MSEC24_HOUR32 };

/* The format attribute 9 has on a drive of this model (IDENTIFY's, spaces trimmed); *source names the table's line. */
enum smart_hours_format smart_hours_format(const char *model, const char **source);

/* Attribute 9 of SMART READ DATA (len bytes) in hours, read by fmt; above 24 bits a packed value, unreadable. */
enum smart_reading smart_attr_hours(const uint8_t *data, size_t len, enum smart_hours_format fmt, uint64_t *hours);

/*
 * Attribute id's raw count (48 bits).  A count of sectors (5, 196, 197,
 * 198) above the disk's sectors cannot be one: a vendor's packed value,
 * unreadable.  sectors 0: not known, not checked.
 */
enum smart_reading smart_attr_count(const uint8_t *data, size_t len, uint8_t id, uint64_t sectors, uint64_t *count);

/* One entry of the attribute table as it came. */
struct smart_attr {
	uint8_t id, value, worst;
	uint8_t slot;	/* its entry's place in the table (0-29): the thresholds' is the same, where the ids agree */
	uint16_t flags;
	uint64_t raw;	/* 48 bits */
};

/* The table's entries in order (empty ones left out), at most max. */
int smart_attr_list(const uint8_t *data, size_t len, struct smart_attr *out, int max);

/*
 * Attribute id's threshold in SMART READ ATTRIBUTE THRESHOLDS' page (entries as the data's: id, threshold): the
 * entry at the attribute's own slot where its id is the attribute's, else the first with that id (as smartctl's
 * ata_get_attr_state(): a table with an id twice keeps each entry's own); 0: none.
 */
uint8_t smart_attr_threshold(const uint8_t *page, size_t len, uint8_t id, unsigned int slot);

/* smartctl's default name of attribute id (attribute 9's by fmt), NULL where it has none of its own here. */
const char *smart_attr_name(uint8_t id, enum smart_hours_format fmt);

/* SMART RETURN STATUS: LBA 15:8 and 23:16 after it, 4Fh C2h passed, F4h 2Ch a threshold exceeded. */
enum smart_status { SMART_STATUS_UNKNOWN, SMART_STATUS_PASSED, SMART_STATUS_FAILING };
enum smart_status smart_status_decode(uint8_t lba_mid, uint8_t lba_high);

/* One self-test of the log, as the drive recorded it. */
struct smart_selftest {
	uint8_t subcommand;	/* what ran: 1 short, 2 extended, 3 conveyance, 81h-83h captive; 4 selective */
	uint8_t status;		/* execution status, bits 7:4 of its byte: 0 passed, 1-2 stopped, 3-8 failed, 15 running */
	uint8_t remaining;	/* percent left, bits 3:0 of its byte, in tens */
	uint16_t hour;		/* the power-on hour it ended in */
	uint64_t failing_lba;	/* the first failing LBA (28 or 48 bits as the log holds it) */
};
#define SMART_SELFTEST_MAX 8	/* the most recent kept */

/* Status that says the test failed (ACS-3 table of self-test execution status 3h-8h). */
bool smart_selftest_failed(uint8_t status);

/* The SMART self-test log (06h, 512 bytes): most recent first, at most max; -1 where it is not a log. */
int smart_selftest_log(const uint8_t *log, size_t len, struct smart_selftest *out, int max);

/* The Extended SMART self-test log (07h, pages of 512 bytes): likewise. */
int smart_ext_selftest_log(const uint8_t *log, size_t len, struct smart_selftest *out, int max);

/* The drive's error count of the summary error log (01h) or extended comprehensive one (03h, ext). */
enum smart_reading smart_error_count(const uint8_t *log, size_t len, bool ext, uint32_t *count);

/* What the Device Statistics log (04h) says: each statistic read where supported and valid. */
struct devstat_reading {
	enum smart_reading hours;	/* General Statistics (page 1): Power-on Hours */
	uint32_t power_on_hours;
	enum smart_reading written;	/* General Statistics: Logical Sectors Written */
	uint64_t sectors_written;
	enum smart_reading used;	/* Solid State Device Statistics (page 7): Percentage Used Endurance Indicator */
	uint8_t percent_used;
};

/* Device Statistics page 0 (the list of supported pages: count at byte 8, numbers from 9) lists page. */
bool devstat_lists(const uint8_t *page0, size_t len, uint8_t page);

/* The General Statistics page (len bytes) into r (hours, written); a page of another number is unreadable. */
void devstat_general(const uint8_t *page, size_t len, struct devstat_reading *r);

/* The Solid State Device Statistics page into r (used). */
void devstat_solid_state(const uint8_t *page, size_t len, struct devstat_reading *r);

/*
 * Seagate's FARM log (GP log A6h): six pages of 8-byte fields, each
 * valid where its top byte is C0h; the header page (page 0) opens with
 * the signature "FARMER", the Drive Information page (page 1) holds the
 * power-on hours.  The pages' first sectors are given.
 */
#define FARM_PAGES 6

/* A Seagate drive by its model (smartctl's test): the only ones whose log A6h is FARM. */
bool farm_drive(const char *model);

enum smart_reading farm_power_on_hours(const uint8_t *header, size_t header_len, const uint8_t *drive,
				       size_t drive_len, uint64_t *hours);

#endif
