/*
 * --condition: what a kind of disk reads of its condition (disk_ops.h's
 * condition_read), facts only; ops/any_disk/condition.c words them, makes
 * the findings and decides the verdict.  Every value says whether it was
 * read: a log the disk lacks stays COND_NOT_READ (said as absent), a log
 * that came back short, of the wrong size or signature, or a count that
 * cannot be one (more sectors pending than the disk has) is
 * COND_UNREADABLE, said with why and left out of the verdict.
 *
 * Sources are named in the standard's words ("SMART attribute 9",
 * "Device Statistics", "FARM", "NVMe SMART/Health log", "SCSI log page
 * 15h"): static strings, said as they are in text and JSON.
 */
#ifndef HDPARM_CONDITION_FACTS_H
#define HDPARM_CONDITION_FACTS_H

#include <stdbool.h>
#include <stdint.h>

/* What --self-test asks: the option's words in order (short, extended, abort). */
enum disk_self_test { SELF_TEST_SHORT, SELF_TEST_EXTENDED, SELF_TEST_ABORT };

/* Whether a value was read.  Zeroed: not read. */
enum cond_state { COND_NOT_READ = 0, COND_READ, COND_UNREADABLE };

/* One value the disk keeps, and where. */
struct cond_value {
	enum cond_state state;
	uint64_t value;
	const char *source;
};

/* One source of the power-on hours (each the disk keeps, in its own count, converted to whole hours). */
#define COND_HOURS_SOURCES 6
struct cond_hours {
	const char *source;
	uint64_t hours;
};

/*
 * The counts of defects and errors, by what they count (the verdict's rules
 * are by this index, not by the kind): counts[COND_PENDING] and so on.
 */
enum cond_count_id {
	COND_REALLOCATED,		/* ATA attribute 5: sectors replaced by spares */
	COND_REALLOCATION_EVENTS,	/* ATA attribute 196 */
	COND_PENDING,			/* ATA attribute 197: unreadable, waiting to be replaced */
	COND_OFFLINE_UNCORRECTABLE,	/* ATA attribute 198 */
	COND_REPORTED_UNCORRECTABLE,	/* ATA attribute 187 */
	COND_INTERFACE_CRC,		/* ATA attribute 199: the cable or bridge, not the medium */
	COND_ERROR_LOG,			/* the error log's count (ATA SMART error log, NVMe error information entries) */
	COND_MEDIA_ERRORS,		/* NVMe Media and Data Integrity Errors */
	COND_GROWN_DEFECTS,		/* SCSI grown defect list length (READ DEFECT DATA) */
	COND_READ_UNCORRECTED,		/* SCSI log page 03h: total uncorrected errors */
	COND_WRITE_UNCORRECTED,		/* SCSI log page 02h: total uncorrected errors */
	COND_COUNTS
};

/* A self-test's outcome, as the log records it. */
enum cond_test_result {
	COND_TEST_PASSED,	/* completed without error */
	COND_TEST_FAILED,	/* completed with a failure (a segment, a read, electrical...) */
	COND_TEST_ABORTED,	/* stopped by the host or a reset: says nothing of the disk */
	COND_TEST_RUNNING,	/* in progress now */
	COND_TEST_OTHER,	/* a code the standard reserves or the vendor keeps */
};

/* One entry of the self-test log, newest first. */
#define COND_SELF_TESTS 8
struct cond_self_test {
	const char *kind;	/* "short", "extended", "conveyance", "selective", "vendor" */
	enum cond_test_result result;
	unsigned int code;	/* the log's own status code (ATA: byte 1's high nibble; NVMe: DSTS bits 3:0; SCSI: SELF-TEST RESULTS) */
	uint64_t hour;		/* the power-on hour it ran at */
	bool has_lba;		/* lba: the first failing LBA the entry names */
	uint64_t lba;
	uint8_t type;		/* the log's own byte for what ran (ATA: the subcommand; NVMe: Self-test Code), for smartctl's keys */
	uint8_t remaining;	/* ATA: the tens of per cent left (status byte bits 3:0) */
	uint8_t segment;	/* NVMe: the Segment Number that failed (result 7h) */
};

/* One ATA SMART attribute as smartctl's ata_smart_attributes.table[] gives it. */
#define COND_ATTRIBUTES 30
struct cond_attribute {
	uint8_t id, value, worst, thresh;
	uint16_t flags;
	const char *name;	/* smartctl's usual name ("Power_On_Hours"); NULL: unknown */
	uint64_t raw;		/* the 48-bit raw value as the drive sent it */
};

/* What condition_read leaves: one reason a source was unreadable, said as a finding. */
#define COND_UNREADABLES 8
struct cond_unreadable {
	const char *source;
	char why[120];
};

struct disk_condition {
	/* smartctl's JSON prefix for this disk's logs: "ata" (ata_smart_attributes, ata_smart_self_test_log), "nvme" (nvme_smart_health_information_log, nvme_self_test_log), "scsi"; set by the kind. */
	const char *family;

	/* Hours, from every source the disk keeps; hours[0] the one smartctl calls power_on_time. */
	struct cond_hours hours[COND_HOURS_SOURCES];
	unsigned int n_hours;

	/* Wear. */
	struct cond_value percentage_used;	/* 0..255 (NVMe may pass 100) */
	struct cond_value available_spare, spare_threshold;	/* percent */
	struct cond_value critical_warning;	/* NVMe's bits (0 spare, 1 temperature, 2 reliability, 3 read-only, 4 volatile backup) */
	struct cond_value data_written;		/* in data_unit bytes (NVMe: data units of 512,000 bytes) */
	uint32_t data_unit;			/* bytes a unit of data_written (0 read as 512) */

	/* Defects and errors, by what they count. */
	struct cond_value counts[COND_COUNTS];

	/* The drive's own health verdict (ATA SMART RETURN STATUS, SCSI's informational exceptions): value 1 = failing. */
	struct cond_value health_failing;

	/* The self-test log: state and source of the log itself, and its newest entries. */
	struct cond_value self_test_log;	/* value: entries it holds */
	bool self_test_log_extended;		/* ATA: the Extended log (07h), smartctl's "extended"; else "standard" */
	struct cond_self_test tests[COND_SELF_TESTS];
	unsigned int n_tests;

	/* ATA's SMART attribute table, for JSON (ata_smart_attributes.table[]). */
	struct cond_attribute attributes[COND_ATTRIBUTES];
	unsigned int n_attributes;

	/* Sources the disk sent but which could not be read, each with why. */
	struct cond_unreadable unreadable[COND_UNREADABLES];
	unsigned int n_unreadable;
};

/* Record that source could not be read and why (the first COND_UNREADABLES kept); inline: facts carry no code file. */
static inline void condition_unreadable(struct disk_condition *d, const char *source, const char *why)
{
	unsigned int i;

	if (d->n_unreadable >= COND_UNREADABLES)
		return;
	d->unreadable[d->n_unreadable].source = source;
	for (i = 0; why[i] && i + 1 < sizeof d->unreadable[0].why; i++)
		d->unreadable[d->n_unreadable].why[i] = why[i];
	d->unreadable[d->n_unreadable].why[i] = '\0';
	d->n_unreadable++;
}

/* More power-on hours than this (1900 years) is no count: smartctl's limit for attribute 9, here every source's. */
#define COND_HOURS_BOGUS 0xffffffULL

/* Add one hours source (the first COND_HOURS_SOURCES kept); an impossible count is said unreadable instead. */
static inline void condition_hours(struct disk_condition *d, const char *source, uint64_t hours)
{
	if (hours > COND_HOURS_BOGUS) {
		condition_unreadable(d, source, "its power-on hours are more than 16777215 (1900 years): no count");
		return;
	}
	if (d->n_hours >= COND_HOURS_SOURCES)
		return;
	d->hours[d->n_hours].source = source;
	d->hours[d->n_hours].hours = hours;
	d->n_hours++;
}

/* Set one value as read from source. */
static inline void condition_set(struct cond_value *v, const char *source, uint64_t value)
{
	v->state = COND_READ;
	v->source = source;
	v->value = value;
}

#endif
