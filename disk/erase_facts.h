/*
 * The facts of the erases and formats (sanitize, format with a secure
 * erase, --set-sector-size): what the operations ask of a kind of disk,
 * and where it stands.  Plain structs, as disk_facts.h's.
 */
#ifndef HDPARM_ERASE_FACTS_H
#define HDPARM_ERASE_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "disk_facts.h"

/* How an erase option erases: the command it sends. */
enum erase_method { ERASE_BY_SANITIZE, ERASE_BY_FORMAT };

/* How the erase was done: what the sample is held against. */
enum erase_kind {
	ERASE_TO_ZEROS,		/* block erase, format with user-data erase */
	ERASE_TO_PATTERN,	/* overwrite with the pattern given */
	ERASE_TO_SOME_PATTERN,	/* not known here (a sanitize this run did not start): zeros or one repeated pattern */
	ERASE_CRYPTO,		/* cryptographic erase: anything but the old data */
};

/* A sanitize the command line asks for: the action and its switches. */
struct sanitize_request {
	enum sanitize_action {
		SANITIZE_BLOCK_ERASE, SANITIZE_CRYPTO_ERASE, SANITIZE_OVERWRITE, SANITIZE_EXIT_FAILURE,
		SANITIZE_STATUS		/* only asked: --sanitize-status */
	} action;
	bool ause;		/* --sanitize-ause: a failure may be left by exit failure mode */
	bool no_deallocate;	/* --sanitize-no-deallocate (NVMe) */
	unsigned int passes;	/* an overwrite's passes as given, 0-15 (0: 16) */
	uint32_t pattern;	/* an overwrite's pattern */
	char command[64];	/* filled by the disk's check: the command, as "Issuing ..." names it ("": not said) */
	enum erase_kind leaves;	/* filled by the disk's check: what the erase leaves */
};

/* --format-erase: a format with a secure erase, as the disk plans it. */
struct format_request {
	bool crypto;		/* a cryptographic erase, else a user-data erase */
	bool all_namespaces;	/* filled by the check: the format erases every namespace of the subsystem */
	uint32_t cdw10;		/* filled by the check: the command, keeping the namespace's format */
	uint32_t nsid;		/* filled by the check: the namespace formatted */
};

/* --sanitize-wait: where a sanitize stands, read once a second; facts, worded by sanitize_wait.c. */
struct sanitize_poll {
	enum sanitize_phase {
		SANITIZE_RUNNING, SANITIZE_COMPLETED, SANITIZE_COMPLETED_NO_DEALLOC, SANITIZE_FAILED, SANITIZE_NONE
	} phase;
	const char *status;	/* the disk's word for it, for the JSON ("completed", "in progress", ...) */
	bool has_progress;
	unsigned int progress;	/* of 65536 */
	uint32_t estimate_s;	/* the disk's estimate for the action running; 0: none */
	enum erase_kind left;	/* what the last erase leaves, where this run did not start it */
	bool no_record;		/* SANITIZE_NONE says nothing of one that ended (SCSI): ended, if it ran */
	char detail[256];	/* SANITIZE_FAILED, SANITIZE_NONE: the disk's words for why */
	bool has_log;		/* NVMe's Sanitize Status log, below, for the JSON */
	unsigned int passes;
	bool global_erased;
	uint32_t estimates[3];	/* overwrite, block erase, crypto erase; UINT32_MAX: none */
	/* --sanitize-status's lines besides: */
	const char *state_text;	/* the "State:" line */
	unsigned int percent;	/* the progress, as the disk's standard rounds it */
	bool last_ok;		/* ATA: the last sanitize completed without error */
	bool antifreeze;	/* ATA: the antifreeze lock is set */
	bool failed_advice;	/* how the failure state is left, said with it */
	struct disk_cause cause;
};

/*
 * --set-sector-size: the block formats a disk can be formatted to, and the
 * one in use (f[current]; a disk that lists none has only that one, and
 * any other length is the disk's to refuse).
 */
struct disk_block_formats {
	struct disk_block_format {
		uint32_t data_bytes;
		uint16_t metadata_bytes;
		unsigned int performance;	/* relative performance: 0 best ... 3 degraded */
		unsigned int pi_types;		/* the protection types it takes: bit t type t, bit 0 none */
	} f[64];
	unsigned int n, current;
	const char *command;		/* what formats it ("FORMAT UNIT"), for the record */
	bool rated;			/* performance is the disk's rating (NVMe) */
	bool unlisted;			/* the disk lists no lengths: any is tried (SCSI without VPD B4h) */
	uint64_t blocks;		/* in the format in use */
	unsigned int pi_type;		/* protection information in use: 1-3, 0 none */
	unsigned int pi_types;		/* those it can take: bit 0 type 1, bit 1 type 2, bit 2 type 3 */
	struct disk_cause cause;
};

/* A format to ask for: f[index] of disk_block_formats, or where the disk lists none, bytes. */
struct disk_format_request {
	unsigned int index;
	uint32_t bytes;
	unsigned int pi_type;		/* 0: none */
};

/* Where a format started in the background stands (FORMAT UNIT with IMMED). */
struct disk_format_poll {
	bool running;
	bool failed;			/* detail says how */
	bool has_progress;
	unsigned int progress;		/* of 65536 */
	char detail[160];
	struct disk_cause cause;
};

#endif
