/*
 * --trim-sector-ranges and --trim-sector-ranges-stdin on every disk: the
 * ranges are read and checked here, cut into commands within the disk's
 * limits, announced and worded here; each kind of disk only sends one
 * command's ranges by its own command (DATA SET MANAGEMENT on ATA, Dataset
 * Management on NVMe, UNMAP on SCSI).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "progress.h"
#include "ranges.h"
#include "trim.h"
#include "report.h"

/* Each batch announced, sent, and its outcome said, as 9.65 does for ATA; a status line counts the ranges. */
static int send_batches(struct device *dev, const struct sector_range *ranges, unsigned int n,
			const struct trim_limits *l, struct sector_range *pieces)
{
	struct range_cursor cursor = { 0 };
	struct status_line line;
	unsigned int k;
	uint64_t sectors;
	int err = 0;

	status_begin(&line, !dev->run.json);
	/* What the page cache holds of the trimmed sectors must not be read back as if still there. */
	drop_cached_sectors(dev);
	while ((k = next_range_batch(ranges, n, &cursor, l->max_ranges, l->max_range_sectors, l->max_command_sectors,
				     pieces, &sectors))) {
		struct disk_cause cause = { 0 };

		status_clear(&line);
		out("trimming %llu sectors from %u ranges\n", (unsigned long long)sectors, k);
		fflush(stdout);
		err = say_outcome(dev->disk->trim_send(dev, pieces, k, &cause));
		if (err) {
			status_end(&line);
			say_cause(&cause, err);
			break;
		}
		draw_trim_status(&line, range_cursor_done(&cursor, ranges, n), n);
	}
	status_end(&line);
	drop_cached_sectors(dev);
	return err;
}

/* The disk's limits, every range checked against its capacity, then the batches. */
static int trim_on_disk(struct device *dev, const struct sector_range *ranges, unsigned int n)
{
	struct trim_limits l = { .max_command_sectors = UINT64_MAX };
	struct disk_cause cause = { 0 };
	struct sector_range *pieces;
	int err = dev->disk->trim_limits(dev, &l, &cause);

	if (err == EOPNOTSUPP && l.none[0]) {
		complain(" --trim-sector-ranges: %s\n", l.none);
		return err;
	}
	if (err)
		return say_cause(&cause, err);
	for (unsigned int i = 0; i < n; i++)
		if ((err = check_range("--trim-sector-ranges", l.space, l.capacity, ranges[i].lba, ranges[i].count)))
			return err;
	pieces = calloc(l.max_ranges ? l.max_ranges : 1, sizeof(*pieces));
	if (!pieces)
		return ENOMEM;
	err = send_batches(dev, ranges, n, &l, pieces);
	free(pieces);
	return err;
}

/* Sector ranges are absolute LBAs: the whole disk, and a disk that has a TRIM of its own. */
static int trim_ranges(struct device *dev, const struct sector_range *ranges, unsigned int n, const char *option)
{
	int err = need_whole_disk(dev, 0);

	if (err)
		return err;
	return dev->disk->trim_limits ? trim_on_disk(dev, ranges, n) : refuse_on_this_disk(dev, option);
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
