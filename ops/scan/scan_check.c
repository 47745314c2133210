/*
 * --surface-scan checked before anything is read, by the one function
 * the scan itself starts with (ops/scan/surface_scan.c): a block device,
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

/* The range asked (--scan-range, else the whole device of sectors of bytes), checked: first..last, inclusive. */
static int scan_bounds(const struct device *dev, const struct settings *s, uint64_t sectors, unsigned int bytes,
		       uint64_t *first, uint64_t *last)
{
	const struct opt_value *v = &s->v[OPT_SCAN_RANGE];

	if (!sectors) {
		complain(" --surface-scan: %s holds no sector\n", dev->path);
		return EINVAL;
	}
	*first = v->given ? v->num : 0;
	*last = v->given ? v->num2 : sectors - 1;
	if (*last >= sectors) {
		complain(" --scan-range %llu-%llu: past the end of %s (%llu sectors of %u bytes: the last LBA is %llu)\n",
			 (unsigned long long)*first, (unsigned long long)*last, dev->path, (unsigned long long)sectors, bytes,
			 (unsigned long long)(sectors - 1));
		return EINVAL;
	}
	return 0;
}

int scan_facts_of(struct device *dev, const struct settings *s, struct scan_facts *f)
{
	unsigned long long bytes;
	struct stat st;
	int sector = 0;

	if (fstat(dev->fd, &st) || !S_ISBLK(st.st_mode)) {
		complain(" --surface-scan: not supported on %s: it needs a block device\n", dev->path);
		return ENOTBLK;
	}
	if (ioctl(dev->fd, BLKGETSIZE64, &bytes) || ioctl(dev->fd, BLKSSZGET, &sector) || sector <= 0) {
		int err = errno ? errno : EINVAL;

		complain(" --surface-scan: BLKGETSIZE64/BLKSSZGET failed on %s: %s\n", dev->path, strerror(err));
		return err;
	}
	/*
	 * --scan-repair on a device the kernel keeps read-only (losetup -r, a
	 * write-protected card): refused before the scan, which would else end
	 * in writes the kernel refuses, one by one.
	 */
	if (s->v[OPT_SCAN_REPAIR].given) {
		int ro = 0;

		if (ioctl(dev->fd, BLKROGET, &ro) == 0 && ro) {
			complain(" --scan-repair: %s is read-only: refused, nothing was read\n", dev->path);
			return EROFS;
		}
	}
	f->rdev = st.st_rdev;
	f->sector = (unsigned int)sector;
	f->sectors = bytes / f->sector;
	return scan_bounds(dev, s, f->sectors, f->sector, &f->first, &f->last);
}

int surface_scan_check(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct scan_facts f;

	(void)opt;
	return scan_facts_of(dev, s, &f);
}
