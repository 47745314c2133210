/*
 * --surface-scan's bookkeeping: pure functions of what the reads said
 * (tests/unit checks them on tables).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scan_classes.h"

const char *const scan_class_keys[SCAN_CLASSES] = {
	"lt_5ms", "lt_20ms", "lt_50ms", "lt_150ms", "lt_500ms", "ge_500ms", "unreadable",
};
const char *const scan_class_labels[SCAN_CLASSES] = {
	"< 5 ms", "< 20 ms", "< 50 ms", "< 150 ms", "< 500 ms", ">= 500 ms", "unreadable",
};

/* The upper bounds of the timed classes, in ms. */
static const double class_below[] = { 5, 20, 50, 150, 500 };

enum scan_class scan_class_of(double ms)
{
	for (unsigned int c = 0; c < sizeof(class_below) / sizeof(class_below[0]); c++)
		if (ms < class_below[c])
			return (enum scan_class)c;
	return SCAN_GE_500MS;
}

uint64_t scan_blocks_in(uint64_t first, uint64_t last)
{
	uint64_t sectors = last - first + 1;	/* wraps to 0 only for the whole of 2^64 */

	return sectors / SCAN_BLOCK_SECTORS + (sectors % SCAN_BLOCK_SECTORS != 0);
}

void scan_result_init(struct scan_result *r, uint64_t first, uint64_t last, unsigned int sector_bytes)
{
	memset(r, 0, sizeof(*r));
	r->first_lba = first;
	r->last_lba = last;
	r->next_lba = first;
	r->sector_bytes = sector_bytes;
	r->blocks = scan_blocks_in(first, last);
}

void scan_result_free(struct scan_result *r)
{
	free(r->bad);
	free(r->slow);
	r->bad = NULL;
	r->slow = NULL;
	r->nbad = r->nslow = 0;
}

void *scan_grow(void *list, size_t n, size_t *cap, size_t size)
{
	void *bigger;

	if (list && n < *cap)
		return list;
	bigger = realloc(list, (*cap ? *cap * 2 : 64) * size);
	if (bigger)
		*cap = *cap ? *cap * 2 : 64;
	return bigger;
}

int scan_note_block(struct scan_result *r, uint64_t lba, uint32_t sectors, double ms, bool unreadable)
{
	enum scan_class c = unreadable ? SCAN_UNREADABLE : scan_class_of(ms);
	struct scan_region *last = r->nslow ? &r->slow[r->nslow - 1] : NULL, *slow;

	r->histogram[c]++;
	r->blocks_read++;
	r->next_lba = lba + sectors;
	if (!unreadable)
		r->bytes_read += (uint64_t)sectors * r->sector_bytes;
	if (r->counted)
		r->counted(r->counted_ctx, lba, sectors, c);
	if (unreadable || ms < SCAN_SLOW_MS)
		return 0;
	/* Adjacent to the region before it: one region, its worst time the worse of the two. */
	if (last && last->last_lba + 1 == lba) {
		last->last_lba = lba + sectors - 1;
		if (ms > last->worst_ms)
			last->worst_ms = ms;
		return 0;
	}
	slow = scan_grow(r->slow, r->nslow, &r->slow_cap, sizeof(*r->slow));
	if (!slow)
		return ENOMEM;
	r->slow = slow;
	slow[r->nslow++] = (struct scan_region){ .first_lba = lba, .last_lba = lba + sectors - 1, .worst_ms = ms };
	return 0;
}

double scan_own_ms(double sent, double back)
{
	return (back - sent) * 1e3;
}

bool scan_unreadable_errno(int err)
{
	return err == EIO || err == ENODATA || err == EILSEQ || err == EBADMSG;
}

int scan_search(struct scan_result *r, uint64_t lba, uint32_t sectors, scan_read_fn *read, void *ctx,
		uint64_t errors_max, uint64_t *at)
{
	for (uint64_t s = lba; s < lba + sectors; s++) {
		uint64_t *bad;
		int err;

		if (errors_max && r->nbad >= errors_max)
			return 0;
		err = read(ctx, s, 1);
		if (!err)
			continue;
		if (!scan_unreadable_errno(err)) {
			*at = s;
			return err;
		}
		bad = scan_grow(r->bad, r->nbad, &r->bad_cap, sizeof(*r->bad));
		if (!bad)
			return ENOMEM;
		r->bad = bad;
		bad[r->nbad++] = s;
	}
	return 0;
}
