/*
 * --surface-scan checked before anything is read, as the scan itself
 * checks (ops/block/surface_scan.c, in the same words): a block device,
 * its size and sector size known, the range inside it.  Many disks at once
 * check every disk this way first: a range past the end of any of them
 * refuses the whole command, and no disk is read.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <linux/fs.h>

#include "report.h"
#include "scan_check.h"

int surface_scan_check(struct device *dev, const struct settings *s, enum opt_id opt)
{
	unsigned long long bytes;
	uint64_t first, last;
	struct stat st;
	int sector = 0;

	(void)opt;
	if (fstat(dev->fd, &st) || !S_ISBLK(st.st_mode)) {
		complain(" --surface-scan: not supported on %s: it needs a block device\n", dev->path);
		return ENOTBLK;
	}
	if (ioctl(dev->fd, BLKGETSIZE64, &bytes) || ioctl(dev->fd, BLKSSZGET, &sector) || sector <= 0) {
		int err = errno ? errno : EINVAL;

		complain(" --surface-scan: BLKGETSIZE64/BLKSSZGET failed on %s: %s\n", dev->path, strerror(err));
		return err;
	}
	return scan_bounds(dev, s, bytes / (unsigned int)sector, (unsigned int)sector, &first, &last);
}
