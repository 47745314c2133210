/*
 * ops/scan/scan_classes.c's time of a block read with others in flight
 * (scan_own_ms, --scan-depth), case by case, counted as the scan counts
 * them (in LBA order, scan_note_block): blocks that come back out of
 * order, and blocks queued behind a slow one on a device that reads in
 * order, still give the slow region of the slow block alone and the
 * classes of a read at depth 1.  The times are the cases' own, in
 * seconds, as the engine's clock would give them.
 */
#include <stdio.h>

#include "scan_classes.h"

static int failures;

static void result(const char *name, bool ok)
{
	printf("%s scan-depth: unit: %s\n", ok ? "ok" : "FAIL", name);
	failures += !ok;
}

/* Blocks 0..n-1 sent at sent[i], back at back[i], counted in LBA order into r. */
static bool count(struct scan_result *r, unsigned int n, const double *sent, const double *back)
{
	double prev_back = 0;

	for (unsigned int i = 0; i < n; i++) {
		if (scan_note_block(r, (uint64_t)i * SCAN_BLOCK_SECTORS, SCAN_BLOCK_SECTORS,
				    scan_own_ms(sent[i], back[i], prev_back), false))
			return false;
		prev_back = back[i];
	}
	return true;
}

/* One slow region, block 0's, worst worst_ms; the other blocks in the first class. */
static bool block_0_alone(const struct scan_result *r, unsigned int n, double worst_ms)
{
	return r->nslow == 1 && r->slow[0].first_lba == 0 && r->slow[0].last_lba == SCAN_BLOCK_SECTORS - 1 &&
	       r->slow[0].worst_ms > worst_ms - 0.001 && r->slow[0].worst_ms < worst_ms + 0.001 &&
	       r->histogram[SCAN_LT_5MS] == n - 1 && r->histogram[SCAN_LT_500MS] == 1 && r->blocks_read == n;
}

int main(void)
{
	/* Depth 8, all sent at 10.0: block 0 held 300 ms, blocks 1 to 7 back first, 1 ms apart. */
	static const double sent8[8] = { 10, 10, 10, 10, 10, 10, 10, 10 };
	static const double out_of_order[8] = { 10.3, 10.001, 10.002, 10.003, 10.004, 10.005, 10.006, 10.007 };
	/* The same on a device that reads in order: each back 1 ms after block 0. */
	static const double in_order[8] = { 10.3, 10.301, 10.302, 10.303, 10.304, 10.305, 10.306, 10.307 };
	/* Depth 2 in steady state: block i sent when block i - 2 came back, each 2 ms of the device's. */
	static const double sent2[6] = { 0, 0, 0.002, 0.004, 0.006, 0.008 };
	static const double back2[6] = { 0.002, 0.004, 0.006, 0.008, 0.010, 0.012 };
	struct scan_result r;
	bool ok;

	scan_result_init(&r, 0, 8 * SCAN_BLOCK_SECTORS - 1, 512);
	ok = count(&r, 8, sent8, out_of_order) && block_0_alone(&r, 8, 300);
	result("depth 8, blocks 1-7 back before block 0 (held 300 ms): the slow region is block 0's alone", ok);
	scan_result_free(&r);

	scan_result_init(&r, 0, 8 * SCAN_BLOCK_SECTORS - 1, 512);
	ok = count(&r, 8, sent8, in_order) && block_0_alone(&r, 8, 300);
	result("depth 8, blocks 1-7 queued behind block 0 (300 ms) on a device that reads in order: not slow", ok);
	scan_result_free(&r);

	ok = scan_own_ms(0, 0.002, 0) > 1.999 && scan_own_ms(0, 0.002, 0) < 2.001;
	for (unsigned int i = 1; i < 6; i++)
		ok = ok && scan_own_ms(sent2[i], back2[i], back2[i - 1]) > 1.999 &&
		     scan_own_ms(sent2[i], back2[i], back2[i - 1]) < 2.001;
	result("depth 2, steady: each block its own 2 ms, not the 4 ms from its sending", ok);

	/* The block before it came back before this one was sent: from its sending. */
	ok = scan_own_ms(5.0, 5.010, 4.0) > 9.999 && scan_own_ms(5.0, 5.010, 4.0) < 10.001;
	result("a block sent after the block before it came back: from its sending", ok);
	return failures ? 1 : 0;
}
