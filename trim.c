/*
 * --trim-sector-ranges and --trim-sector-ranges-stdin: the ranges are read
 * and checked here, and handed to the disk's own command (DATA SET
 * MANAGEMENT on ATA, Dataset Management on NVMe, UNMAP on SCSI).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "progress.h"
#include "ranges.h"
#include "sgio.h"
#include "trim.h"
#include "report.h"

#define TRIM_RANGES_PER_BLOCK 64
#define TRIM_MAX_COUNT 0xffffULL

/* DSM/TRIM range entries: bits 47:0 the LBA, 63:48 the count; longer ranges split. */
static size_t pack_ranges(const struct sector_range *r, unsigned int n, struct range_cursor *c, uint8_t *buf,
			  size_t max_entries, uint64_t *sectors)
{
	size_t entries = 0;
	uint64_t lba, count;

	*sectors = 0;
	while (entries < max_entries && next_range_piece(r, n, c, TRIM_MAX_COUNT, &lba, &count)) {
		uint64_t e = count << 48 | lba;

		for (int b = 0; b < 8; b++)
			buf[entries * 8 + (size_t)b] = (uint8_t)(e >> (8 * b));
		entries++;
		*sectors += count;
	}
	return entries;
}

int ata_trim(struct device *dev, const struct sector_range *ranges, unsigned int n)
{
	const uint16_t *id;
	struct range_cursor cursor = { 0 };
	unsigned int limit;
	uint64_t sectors;
	uint8_t *buf;
	int err;

	if (!(id = identify_or_report(dev, &err)))
		return err;
	if (!ata_id_has_trim(id)) {
		complain(" --trim-sector-ranges: the drive does not support TRIM (DATA SET MANAGEMENT)\n");
		return EOPNOTSUPP;
	}
	for (unsigned int i = 0; i < n; i++)
		if ((err = check_lba("--trim-sector-ranges", identify_capacity(id), ranges[i].lba, ranges[i].count)))
			return err;
	/* Word 105: how many 512-byte blocks of ranges one command may carry. */
	limit = ata_id_word_reported(id[ATA_ID_DSM_BLOCKS]) ? id[ATA_ID_DSM_BLOCKS] : 1;
	if (limit > 8)
		limit = 8;
	buf = malloc((size_t)limit * 512);
	if (!buf)
		return ENOMEM;
	struct status_line line;

	status_begin(&line, !dev->run.json);
	drop_cached_sectors(dev);
	for (;;) {
		struct ata_result res;
		size_t entries;
		unsigned int blocks;

		memset(buf, 0, (size_t)limit * 512);
		entries = pack_ranges(ranges, n, &cursor, buf, (size_t)limit * TRIM_RANGES_PER_BLOCK, &sectors);
		if (!entries)
			break;
		blocks = (unsigned int)((entries + TRIM_RANGES_PER_BLOCK - 1) / TRIM_RANGES_PER_BLOCK);
		status_clear(&line);
		out("trimming %llu sectors from %zu ranges\n", (unsigned long long)sectors, entries);
		fflush(stdout);
		err = say_outcome(ata_dsm_trim(dev, buf, blocks, &res));
		if (err) {
			status_end(&line);
			ata_report("DATA SET MANAGEMENT (TRIM)", &res, err);
			break;
		}
		draw_trim_status(&line, range_cursor_done(&cursor, ranges, n), n);
	}
	status_end(&line);
	free(buf);
	drop_cached_sectors(dev);
	return err;
}

/* Sector ranges are absolute LBAs: the whole disk, and a disk that has a TRIM of its own. */
static int trim_ranges(struct device *dev, const struct sector_range *ranges, unsigned int n, const char *option)
{
	int err = need_whole_disk(dev, 0);

	if (err)
		return err;
	return dev->disk->trim ? dev->disk->trim(dev, ranges, n) : refuse_on_this_disk(dev, option);
}

int trim_from_args(struct device *dev, const struct settings *s, enum opt_id opt)
{
	return trim_ranges(dev, s->ranges, s->nranges, s->v[opt].name);
}

int trim_from_stdin(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct sector_range *r;
	unsigned int n;
	int err;

	err = read_ranges(stdin, "stdin", &r, &n);
	if (!err && n)
		err = trim_ranges(dev, r, n, s->v[opt].name);
	free(r);
	return err;
}
