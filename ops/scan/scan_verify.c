/*
 * --scan-verify: the scan's read of (lba, sectors) becomes the kind's
 * verify command (READ VERIFY SECTORS (EXT), VERIFY (16), NVMe Verify),
 * chosen through dev->disk as every operation chooses.  The command is
 * tried once before the scan, so that a disk, bridge or device without it
 * is refused with the reason before anything is counted.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "disk_ops.h"
#include "report.h"
#include "scan_verify.h"
#include "sysfs.h"

/* The device itself answers no disk command: a loop or dm device, a RAID, a partition's file system image. */
static bool no_commands(int err)
{
	return err == ENOTTY || err == EINVAL || err == ENOSYS || err == ENOTBLK;
}

static int refuse(const struct device *dev, int err, const struct disk_cause *c)
{
	if (err == EOPNOTSUPP)
		complain(" --scan-verify: %s %s\n", dev->path, c->why);
	else if (no_commands(err))
		complain(" --scan-verify: %s takes no disk commands (a loop, dm or other virtual device has no verify"
			 " command); --surface-scan without --scan-verify reads it\n", dev->path);
	else
		complain(" --scan-verify: %s did not answer %s: %s\n", dev->path, c->what ? c->what : "its verify command",
			 c->why[0] ? c->why : strerror(err));
	return err == EOPNOTSUPP || no_commands(err) ? EOPNOTSUPP : err;
}

/*
 * The scan's LBAs must be the disk's: a command to a partition's node, or
 * to a dm or md device over one disk, reaches the disk under it (the
 * kernel passes SG_IO on for root) at the disk's own LBAs, not the
 * device's.  A partition, or a device stacked on others (its "slaves"
 * folder not empty), is refused before anything is sent.
 */
static int not_the_disk(const struct device *dev)
{
	dev_t num = block_device_of(dev->fd);
	unsigned long long n;
	char path[256];
	struct dirent *e;
	DIR *d;
	bool stacked = false;

	if (!num)
		return 0;
	if (sysfs_read_u64(num, "partition", &n) == 0) {
		complain(" --scan-verify: %s is a partition: its disk would verify its own LBAs, not the partition's;"
			 " scan the whole disk (with --scan-range)\n", dev->path);
		return EINVAL;
	}
	sysfs_path(num, "slaves", path, sizeof(path));
	if ((d = opendir(path))) {
		while (!stacked && (e = readdir(d)))
			stacked = e->d_name[0] != '.';
		closedir(d);
	}
	if (stacked) {
		complain(" --scan-verify: %s is built on other devices (dm, md): they have the verify commands, at LBAs"
			 " of their own; --surface-scan without --scan-verify reads it\n", dev->path);
		return EOPNOTSUPP;
	}
	return 0;
}

int scan_verify_begin(struct scan_verify *v, struct device *dev, uint64_t first)
{
	struct disk_cause c = { 0 };
	int err;

	v->dev = dev;
	v->said = false;
	if ((err = not_the_disk(dev)))
		return err;
	if (!dev->disk || !dev->disk->media_verify) {
		snprintf(c.why, sizeof(c.why), "has no verify command (%s disk)", dev->disk ? dev->disk->kind : "no");
		return refuse(dev, EOPNOTSUPP, &c);
	}
	if (dev->disk->media_verify_check && (err = dev->disk->media_verify_check(dev, &c)))
		return refuse(dev, err, &c);
	err = dev->disk->media_verify(dev, first, 1, &c);
	/* A medium error at the first sector: the command is there; the scan finds that sector again. */
	return err && err != ENODATA ? refuse(dev, err, &c) : 0;
}

int scan_verify_read(void *ctx, uint64_t lba, uint32_t sectors)
{
	struct scan_verify *v = ctx;
	struct disk_cause c = { 0 };
	int err = v->dev->disk->media_verify(v->dev, lba, sectors, &c);

	if (!err || err == ENODATA)
		return err;
	/* Anything else ends the scan: said here once, with the disk's own words, before the scan says where it stopped. */
	if (!v->said)
		complain(" --scan-verify: %s, LBA %llu+%u: %s%s%s\n", v->dev->path, (unsigned long long)lba, sectors,
			 c.what ? c.what : "", c.what ? ": " : "", c.why[0] ? c.why : strerror(err));
	v->said = true;
	/* Not a medium error: never counted as one, whatever errno the transport chose. */
	return scan_unreadable_errno(err) ? EREMOTEIO : err;
}
