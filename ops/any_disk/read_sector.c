/*
 * --read-sector on every disk: the LBA is absolute (a partition is
 * refused, naming the right one) and within the disk; 9.65's "reading
 * sector N: succeeded" and the hex dump, or FAILED and why.  Each kind
 * only gives its geometry and reads (READ SECTORS on ATA, Read on NVMe,
 * READ (16) on SCSI).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "read_sector.h"
#include "report.h"
#include "tcg_locked.h"

int read_sector_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const char *option = s->v[opt].name;
	uint64_t lba = s->v[opt].num;
	struct disk_geometry g = { 0 };
	struct disk_cause cause = { 0 };
	uint8_t *buf;
	int err = need_whole_disk(dev, lba);

	if (err)
		return err;
	if (!dev->disk->sector_read)
		return refuse_on_this_disk(dev, option);
	if ((err = dev->disk->geometry(dev, &g, &cause)))
		return say_cause(&cause, err);
	if ((err = check_range(option, g.space, g.sectors, lba, 1)))
		return err;
	buf = calloc(1, g.sector_bytes);
	if (!buf)
		return ENOMEM;
	out("reading sector %llu: ", (unsigned long long)lba);
	fflush(stdout);
	err = say_outcome(dev->disk->sector_read(dev, lba, buf, g.sector_bytes, &cause));
	if (err) {
		complain("%s %llu: %s\n", option, (unsigned long long)lba, cause.why[0] ? cause.why : strerror(err));
		tcg_say_if_locked(dev);
	}
	else
		dump_sector(buf, g.sector_bytes);
	free(buf);
	return err;
}
