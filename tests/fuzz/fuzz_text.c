/*
 * Text hdparm reads from outside: TRIM ranges on standard input (read
 * as --trim-sector-ranges-stdin reads them), cut into NVMe Dataset
 * Management entries, and a sysfs number as the partition guard reads
 * one.  The entries must add up to the ranges, each within its limits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../ranges.h"
#include "../../sysfs.h"
#include "../../unaligned.h"

static void check_dsm(const struct sector_range *r, unsigned int n)
{
	static uint8_t buf[NVME_DSM_BYTES];
	struct range_cursor c = { 0 };
	uint64_t want = 0, got = 0, sectors;
	unsigned int entries;

	for (unsigned int i = 0; i < n; i++)
		want += r[i].count;
	while ((entries = nvme_dsm_ranges(r, n, &c, buf, &sectors))) {
		uint64_t sum = 0;

		if (entries > NVME_DSM_MAX_RANGES)
			__builtin_trap();
		for (unsigned int e = 0; e < entries; e++) {
			uint32_t count = get_le32(buf + 16 * e + 4);

			if (count == 0)
				__builtin_trap();
			sum += count;
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
		if (read_ranges(f, "stdin", &r, &n) == 0)
			check_dsm(r, n);
		fclose(f);
	}
	free(r);
	if (line) {
		memcpy(line, data, size);
		line[size] = '\0';
		if (sysfs_parse_u64(line, &value) == 0 && (line[0] < '0' || line[0] > '9'))
			__builtin_trap();
		free(line);
	}
	return 0;
}
