/*
 * The search's reads without the kernel's retries (scan_direct.h): one
 * command a sector.  The way is trusted only once it has read a sector: a
 * bridge or a kind that answers every read with an error (a command it
 * refuses) would otherwise name every sector unreadable; until then a
 * failure is asked again through the block layer, and one it reads there
 * ends the direct way for the scan.
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "disk_ops.h"
#include "scan_direct.h"
#include "sysfs.h"

/* A whole disk: no partition, and a device beneath it (dm, md, loop and zram have none). */
static bool whole_disk(int fd)
{
	dev_t devnum = block_device_of(fd);
	unsigned long long part;
	char path[96];

	if (!devnum || sysfs_read_u64(devnum, "partition", &part) != ENOENT)
		return false;
	sysfs_path(devnum, "device", path, sizeof(path));
	return access(path, F_OK) == 0;
}

void scan_direct_begin(struct scan_direct *d, struct device *dev, unsigned int sector_bytes)
{
	d->dev = dev;
	d->bytes = sector_bytes;
	d->proven = false;
	d->buf = NULL;
	d->usable = dev->disk && dev->disk->sector_read && whole_disk(dev->fd) &&
		    !posix_memalign(&d->buf, 4096, sector_bytes);
}

void scan_direct_end(struct scan_direct *d)
{
	free(d->buf);
	d->buf = NULL;
	d->usable = false;
}

int scan_direct_read(struct scan_direct *d, uint64_t lba, scan_read_fn *fallback, void *ctx)
{
	struct disk_cause cause = { 0 };
	int err, again;

	if (!d->usable)
		return fallback(ctx, lba, 1);
	err = d->dev->disk->sector_read(d->dev, lba, d->buf, d->bytes, &cause);
	if (!err) {
		d->proven = true;
		return 0;
	}
	if (d->proven && scan_unreadable_errno(err))
		return err;
	again = fallback(ctx, lba, 1);
	/* Refused (not the medium), or read by the block layer where the direct way failed: not to be trusted. */
	if (!scan_unreadable_errno(err) || !again)
		d->usable = d->proven;
	return again;
}
