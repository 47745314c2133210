/* TRIM sector ranges: read from text, and cut into the pieces a command carries. */
#ifndef HDPARM_RANGES_H
#define HDPARM_RANGES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "values.h"

#define RANGE_LBA_LIMIT (1ULL << 48)	/* LBAs are 48-bit on ATA; NVMe ranges are checked on the namespace */

/* Where a walk over a range list stands: the range, and how much of it is already taken. */
struct range_cursor {
	unsigned int index;
	uint64_t done;
};

/*
 * The next piece of at most max_count sectors, in the order the user gave
 * them; false when every range is used up.  A range longer than max_count
 * gives several pieces, each starting where the one before it ended.
 */
bool next_range_piece(const struct sector_range *r, unsigned int n, struct range_cursor *c, uint64_t max_count,
		      uint64_t *lba, uint64_t *count);

/* How many of the n ranges are wholly sent once the pieces taken so far are. */
unsigned int range_cursor_done(const struct range_cursor *c, const struct sector_range *r, unsigned int n);

/*
 * The next command's pieces: at most max_pieces of at most max_piece
 * sectors, max_total sectors in all (UINT64_MAX: no such limit), into
 * pieces.  Returns how many (0: every range is used up), their sectors in
 * *sectors.
 */
unsigned int next_range_batch(const struct sector_range *r, unsigned int n, struct range_cursor *c,
			      unsigned int max_pieces, uint64_t max_piece, uint64_t max_total,
			      struct sector_range *pieces, uint64_t *sectors);

/*
 * Every "LBA:COUNT" word of f, separated by white space.  0 with *out
 * (malloc'ed, *n entries), or EINVAL with a message on stderr naming the
 * pair that is malformed; anything but digits, ':' and white space is
 * malformed, a NUL byte included.
 */
int read_ranges(FILE *f, const char *source, struct sector_range **out, unsigned int *n);

#endif
