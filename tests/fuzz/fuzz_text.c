/*
 * Text hdparm reads from outside: TRIM ranges on standard input (read
 * as --trim-sector-ranges-stdin reads them), cut into commands as the
 * TRIM operation cuts them, a sysfs number as the partition guard reads
 * one, a line of /proc/diskstats and one of the kernel's block trace.  The pieces must add up to the ranges, each within its limits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ranges.h"
#include "sysfs.h"
#include "wake_trace.h"

/* Cut into commands within the limits (NVMe's, and a SCSI disk's with a sector limit a command). */
static void check_batches(const struct sector_range *r, unsigned int n, unsigned int max_pieces, uint64_t max_piece,
			  uint64_t max_total)
{
	static struct sector_range pieces[4096];
	struct range_cursor c = { 0 };
	uint64_t want = 0, got = 0, sectors;
	unsigned int k;

	for (unsigned int i = 0; i < n; i++)
		want += r[i].count;
	while ((k = next_range_batch(r, n, &c, max_pieces, max_piece, max_total, pieces, &sectors))) {
		uint64_t sum = 0;

		if (k > max_pieces || sectors > max_total)
			__builtin_trap();
		for (unsigned int e = 0; e < k; e++) {
			if (pieces[e].count == 0 || pieces[e].count > max_piece)
				__builtin_trap();
			sum += pieces[e].count;
		}
		if (sum != sectors)
			__builtin_trap();
		got += sectors;
	}
	if (got != want)
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sector_range *r = NULL;
	unsigned int n = 0;
	unsigned long long value;
	char *line = malloc(size + 1);
	FILE *f = fmemopen((void *)data, size, "r");

	if (f) {
		if (read_ranges(f, "stdin", &r, &n) == 0) {
			check_batches(r, n, 256, UINT32_MAX, UINT64_MAX);
			check_batches(r, n, 4095, UINT32_MAX, 1u << 20);
		}
		fclose(f);
	}
	free(r);
	if (line) {
		memcpy(line, data, size);
		line[size] = '\0';
		if (sysfs_parse_u64(line, &value) == 0 && (line[0] < '0' || line[0] > '9'))
			__builtin_trap();
		/* A line of /proc/diskstats: accepted only with two numbers and a name before the fields. */
		unsigned int maj, min;
		unsigned long long ios;

		if (diskstats_parse(line, &maj, &min, &ios) && !strchr(line, ' ') && !strchr(line, '\t'))
			__builtin_trap();
		/* A line of the block_rq_issue or _insert trace: a name within bounds, and the tracepoint named. */
		struct wake_io io;

		if (wake_trace_parse(line, &maj, &min, &io) &&
		    (strlen(io.comm) >= sizeof(io.comm) ||
		     (!strstr(line, "block_rq_issue: ") && !strstr(line, "block_rq_insert: ")) || !io.op))
			__builtin_trap();
		free(line);
	}
	return 0;
}
