/*
 * ops/scan/scan_classes.c's time of a block read with others in flight
 * (scan_own_ms, --scan-depth), case by case, counted as the scan counts
 * them (in LBA order, scan_note_block): blocks that come back out of
 * order still give the slow region of the slow block alone and the
 * classes of a read at depth 1, and slow blocks served side by side (the
 * VM suite's dm-delay) one region of them all.  The times are the cases'
 * own, in seconds, as the engine's clock would give them.
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
	for (unsigned int i = 0; i < n; i++)
		if (scan_note_block(r, (uint64_t)i * SCAN_BLOCK_SECTORS, SCAN_BLOCK_SECTORS, scan_own_ms(sent[i], back[i]),
				    false))
			return false;
	return true;
}

/* One slow region, blocks 0 to last, worst worst_ms; the other blocks in the first class. */
static bool slow_run(const struct scan_result *r, unsigned int n, unsigned int last, double worst_ms)
{
	return r->nslow == 1 && r->slow[0].first_lba == 0 && r->slow[0].last_lba == (last + 1) * SCAN_BLOCK_SECTORS - 1 &&
	       r->slow[0].worst_ms > worst_ms - 0.001 && r->slow[0].worst_ms < worst_ms + 0.001 &&
	       r->histogram[SCAN_LT_5MS] == n - 1 - last && r->histogram[SCAN_LT_500MS] == last + 1 && r->blocks_read == n;
}

int main(void)
{
	/* Depth 8, all sent at 10.0: block 0 held 300 ms, blocks 1 to 7 back first, 0.1 ms apart. */
	static const double sent8[8] = { 10, 10, 10, 10, 10, 10, 10, 10 };
	static const double out_of_order[8] = { 10.3, 10.0001, 10.0002, 10.0003, 10.0004, 10.0005, 10.0006, 10.0007 };
	/* A device that serves them side by side (dm-delay): blocks 0 to 3 each 300 ms, back together, then 4 to 7. */
	static const double side_by_side[8] = { 10.3, 10.3001, 10.3002, 10.3003, 10.0004, 10.0005, 10.0006, 10.0007 };
	struct scan_result r;
	bool ok;

	scan_result_init(&r, 0, 8 * SCAN_BLOCK_SECTORS - 1, 512);
	ok = count(&r, 8, sent8, out_of_order) && slow_run(&r, 8, 0, 300);
	result("depth 8, blocks 1-7 back before block 0 (held 300 ms): the slow region is block 0's alone", ok);
	scan_result_free(&r);

	scan_result_init(&r, 0, 8 * SCAN_BLOCK_SECTORS - 1, 512);
	ok = count(&r, 8, sent8, side_by_side) && slow_run(&r, 8, 3, 300.3);
	result("depth 8, blocks 0-3 slow side by side (300 ms each, back together): one region of the four", ok);
	scan_result_free(&r);

	ok = scan_own_ms(5.0, 5.010) > 9.999 && scan_own_ms(5.0, 5.010) < 10.001;
	result("a block's time: from its sending to its return", ok);
	return failures ? 1 : 0;
}
