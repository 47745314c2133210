/*
 * --surface-scan's bookkeeping, apart from the I/O: the time class of a
 * block, the slow regions (adjacent slow blocks merged), the unreadable
 * LBAs, and the search for them sector by sector inside a block that
 * failed, through a read function the caller gives (tests/unit gives one
 * of its own).
 */
#ifndef HDPARM_SCAN_CLASSES_H
#define HDPARM_SCAN_CLASSES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 256 logical sectors a block: Victoria's and MHDD's unit, so that their classes mean the same. */
#define SCAN_BLOCK_SECTORS 256u
/* A block this slow or slower belongs to a slow region. */
#define SCAN_SLOW_MS 150.0

enum scan_class {
	SCAN_LT_5MS, SCAN_LT_20MS, SCAN_LT_50MS, SCAN_LT_150MS, SCAN_LT_500MS, SCAN_GE_500MS, SCAN_UNREADABLE,
	SCAN_CLASSES
};

/* The histogram's names (JSON) and the text table's ("< 5 ms"). */
extern const char *const scan_class_keys[SCAN_CLASSES];
extern const char *const scan_class_labels[SCAN_CLASSES];

struct scan_region {
	uint64_t first_lba, last_lba;
	double worst_ms;
};

/* Told of every block counted, read now or restored from a map (--scan-picture's cells). */
typedef void scan_counted_fn(void *ctx, uint64_t lba, uint32_t sectors, enum scan_class c);

struct scan_result {
	uint64_t first_lba, last_lba;	/* the range asked, inclusive */
	unsigned int sector_bytes;
	uint64_t blocks, blocks_read;
	uint64_t histogram[SCAN_CLASSES];
	uint64_t *bad;			/* unreadable LBAs, in the order found (ascending) */
	size_t nbad, bad_cap;
	struct scan_region *slow;
	size_t nslow, slow_cap;
	uint64_t next_lba;		/* the first LBA not read yet */
	uint64_t bytes_read;
	bool completed;
	scan_counted_fn *counted;	/* or NULL */
	void *counted_ctx;
};

/* list (holding n of *cap, of size bytes each) with room for one more: list itself or moved; NULL: no memory (list left as it was). */
void *scan_grow(void *list, size_t n, size_t *cap, size_t size);

/* The class of a block read in ms. */
enum scan_class scan_class_of(double ms);

/* Blocks of SCAN_BLOCK_SECTORS in first..last, the last one shorter. */
uint64_t scan_blocks_in(uint64_t first, uint64_t last);

/* r set up for first..last (inclusive) of sectors of sector_bytes. */
void scan_result_init(struct scan_result *r, uint64_t first, uint64_t last, unsigned int sector_bytes);
void scan_result_free(struct scan_result *r);

/*
 * A block of sectors at lba read in ms (unreadable: some sector of it was
 * not, found by scan_search): counted in its class, a slow one merged into
 * the slow region it follows.  ENOMEM where a list cannot grow.
 */
int scan_note_block(struct scan_result *r, uint64_t lba, uint32_t sectors, double ms, bool unreadable);

/*
 * The time in ms of a block read with others in flight (--scan-depth),
 * sent at sent and come back at back (seconds): from its own sending to
 * its own return, as at depth 1.  Blocks that the device serves side by
 * side (an SSD, an NVMe namespace, dm-delay) each have their own time so,
 * and a run of slow blocks is a run of slow blocks; the scan's depth is
 * never above what the device's hardware takes at once (surface_scan.c),
 * so that no block waits behind another in the kernel.
 */
double scan_own_ms(double sent, double back);

/* One read of sectors at lba: 0, or the errno of the failure. */
typedef int scan_read_fn(void *ctx, uint64_t lba, uint32_t sectors);

/* A failed read's errno means the medium could not be read there (EIO, ENODATA, EILSEQ, EBADMSG), not that the disk is gone. */
bool scan_unreadable_errno(int err);

/*
 * The block at lba that failed, read again one sector at a time: each
 * sector that fails with an unreadable errno is listed; the search stops
 * once errors_max (0: no limit) are listed.  Returns 0, or the errno that
 * ends the scan (the disk gone: *at is the LBA it was read at).
 */
int scan_search(struct scan_result *r, uint64_t lba, uint32_t sectors, scan_read_fn *read, void *ctx,
		uint64_t errors_max, uint64_t *at);

#endif
