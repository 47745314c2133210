/*
 * --erase-verify full: after an erase, every block of a disk it reached is
 * read back (O_DIRECT, on the read queue of readq.c) and counted as zeros,
 * the pattern, or other data; the blocks that are not what the erase
 * leaves are listed by their first LBAs.
 */
#ifndef HDPARM_ERASE_VERIFY_H
#define HDPARM_ERASE_VERIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "device.h"
#include "erase_blocks.h"
#include "values.h"

/* --erase-verify full was given (its words: sample, full). */
static inline bool verify_full(const struct settings *s)
{
	return s->v[OPT_ERASE_VERIFY].given && s->v[OPT_ERASE_VERIFY].num == 1;
}

/* A read-back or a record was asked for: the erase is read around more closely (hidden areas too). */
static inline bool erase_proof_asked(const struct settings *s)
{
	return s->v[OPT_ERASE_VERIFY].given || s->v[OPT_ERASE_RECORD].given;
}

#define VERIFY_LISTED 8		/* first LBAs listed of each kind that was not expected */

struct verify_full {
	uint64_t blocks;		/* the disk's, in logical blocks */
	unsigned int block_bytes;
	uint64_t read;			/* blocks read back */
	uint64_t count[3];		/* by enum erase_block */
	uint64_t unchanged;		/* blocks of the sample before the erase that read as before */
	uint32_t pattern;		/* the pattern held against (learned: a fill the drive chose) */
	bool have_pattern;
	/* The first LBAs of each kind of block the erase should not have left, and of the unchanged. */
	uint64_t listed[3][VERIFY_LISTED];
	unsigned int n_listed[3];
	uint64_t listed_unchanged[VERIFY_LISTED];
	unsigned int n_listed_unchanged;
	double seconds;
	bool interrupted;		/* SIGINT or SIGTERM ended it: the counts are of the blocks read so far */
	uint64_t failed_at;		/* where a read failed (the error is the return value) */
};

/* Whether a block of kind b is what an erase of kind k leaves. */
bool erase_block_expected(enum erase_kind k, enum erase_block b);

/*
 * Read every block of the disk at path after an erase of kind (an
 * overwrite's pattern; before: the disk's sample before it, or NULL), with
 * a status line on a terminal when show is true.  0, or an errno with the
 * failure said (EINTR: SIGINT or SIGTERM stopped it, v->interrupted, and
 * *v holds what was read).  Nothing else is said: the caller words *v.
 */
int erase_verify_full(const char *path, enum erase_kind kind, uint32_t pattern, const struct erase_before *before,
		      bool show, struct verify_full *v);

/*
 * The verdict: a line for the counts and one for each kind of block the
 * erase should not have left (who: " /dev/sdb:" where several disks are
 * named, else ""); 0, or EIO where blocks are not what it leaves (zeros
 * after a cryptographic erase are: deallocated).
 */
int erase_verify_say(const struct verify_full *v, enum erase_kind kind, const char *who);
bool erase_verify_failed(const struct verify_full *v, enum erase_kind kind);

/* The sectors a hidden area kept from the read-back, a line each (nothing where none). */
void erase_verify_say_hidden(const struct disk_hidden *h, const char *who);

/* The "full" JSON object of a disk's erase_check. */
void erase_verify_json(const struct verify_full *v, enum erase_kind kind);

#endif
