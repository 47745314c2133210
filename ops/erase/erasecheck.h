/*
 * Around an erase: what the disks it reaches read.  A sample of blocks
 * spread over each whole disk (the first, the last and evenly between) is
 * read through its block device with O_DIRECT before the erase is sent,
 * and again when it has ended; one line a disk says whether the blocks
 * read as zeros, as the overwrite pattern, as something new, or as they
 * did before (the erase did not reach them: a failure).
 */
#ifndef HDPARM_ERASECHECK_H
#define HDPARM_ERASECHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "device.h"
#include "erase_blocks.h"

/* What one disk's sample read as after the erase. */
struct erase_sample {
	unsigned int counts[3];	/* by enum erase_block */
	unsigned int unchanged;	/* of the blocks neither zeros nor the pattern, those that read as before */
	uint64_t first_other, first_unchanged;
	bool any_other;
	bool compared;		/* a sample before the erase was there to compare with */
};

struct verify_full;

/* One disk the erase reached, as read back after it: for the JSON and the erase record. */
struct erase_checked {
	char device[64];
	const char *verdict;	/* the sample's ("zeros", "pattern", ..., "not_read") */
	unsigned int blocks;	/* blocks sampled: 0 where none could be read */
	struct erase_sample sm;
	struct verify_full *full;	/* --erase-verify full, where the disk was read whole */
};

/*
 * This run's erase (dev->erase): what it is, when it went out, each
 * reached disk's blocks before it, and what they read afterwards.
 */
struct erase_run {
	enum erase_kind kind;
	uint32_t pattern;
	bool sent;		/* the sample before was taken: the erase went out right after */
	char command[96];	/* the command, as "Issuing ..." names it */
	time_t began, ended;	/* the erase sent; read back */
	unsigned int n;
	struct erase_before disk[REACH_MAX];
	bool have_hidden;	/* hidden: what the disk hid from the host before the erase */
	struct disk_hidden hidden;
	char drive_status[160];	/* the drive's word for how it ended ("completed", a failure's reason) */
	bool checked;		/* read back after it ended */
	bool format;		/* a format (--set-sector-size): not read back */
	bool have_before, have_after;	/* a format's disk before and after it */
	struct disk_format_summary format_before, format_after;
	unsigned int n_checked;
	struct erase_checked checked_disk[REACH_MAX];
};

/* A disk's object of the "erase_check" array (of the run's document, or of an erase record). */
void erase_json_checked(const struct erase_checked *c, enum erase_kind kind);

/* The JSON object key of a disk's format (block_bytes, metadata_bytes, blocks, protection_type); null for NULL. */
void sector_format_json(const char *key, const struct disk_format_summary *f);

/* Just after erase_sample_before(): what the disk hides from the host (HPA, DCO, locks), for the record. */
void erase_run_hidden(struct device *dev);

/* The drive's word for how the erase ended, for the record. */
void erase_run_status(struct device *dev, const char *status);

/* dev->erase and what it holds, freed. */
void erase_run_free(struct device *dev);

/*
 * The "sanitize" JSON object of a sanitize sent (any kind of disk): its
 * action, spelled once for all ("block_erase", "crypto_erase",
 * "overwrite", "exit_failure_mode"), and its outcome ("started", "done",
 * "failed").  Nothing for an option that is no sanitize action.
 */
void erase_json_sanitize(enum sanitize_action action, int err);
/* The sanitize object of one whose command a signal stopped: it may have started in the drive. */
void erase_json_sanitize_interrupted(enum sanitize_action action, int sig);

/* The "sanitize_status" object: the state a disk gave, its progress, and NVMe's log. */
void erase_json_sanitize_status(const struct sanitize_poll *p);

/*
 * Just before an erase is sent: the sample of every disk it reaches
 * (dev->reach, else the disk named), kept in dev->erase with what the
 * erase is (kind, the overwrite's pattern, the command as "Issuing" names
 * it) and when it went out.  Nothing is said: a disk
 * that cannot be read is compared with nothing afterwards.
 */
void erase_sample_before(struct device *dev, enum erase_kind kind, uint32_t pattern, const char *command);

/*
 * The same without the sample (no read-back, no record asked for): what
 * went out and when, so that the JSON's erase_outcome says it was sent.
 */
void erase_run_sent(struct device *dev, enum erase_kind kind, const char *command);

/* The erase marked sent (erase_sample_before) did not go out after all: a command before it was refused. */
void erase_run_not_sent(struct device *dev);

/*
 * A format sent (--set-sector-size): what and when, for the record; its
 * blocks are not sampled nor read back (a format is not an erase).  Then
 * its end, and the disk before and after it (NULL: not known).
 */
void erase_run_format_sent(struct device *dev, const char *command, const struct disk_format_summary *before);
void erase_run_format_ended(struct device *dev, const char *status, const struct disk_format_summary *before,
			    const struct disk_format_summary *after);

/*
 * After an erase ended: each disk's sample, a line each (and the
 * "erase_check" array with --json).  kind and pattern are used where this
 * run did not start the erase; full (--erase-verify full): every block is
 * read back too (erase_verify.h).  Returns 0, EIO where blocks read as before
 * the erase (said), or the errno of a sample that could not be read.
 */
int erase_check(struct device *dev, enum erase_kind kind, uint32_t pattern, bool full);

#endif
