/* Where a partition starts on its disk, so that sector commands can refuse it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/hdreg.h>

#include "array.h"
#include "partition.h"
#include "sysfs.h"
#include "report.h"

/* A block node for devnum in /dev or /dev/block, opened read-only; -1 when there is none. */
static int open_block_node(dev_t devnum)
{
	static const char *const dirs[] = { "/dev", "/dev/block" };

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;

		while (d && (e = readdir(d))) {
			char path[512];
			struct stat st;

			snprintf(path, sizeof(path), "%s/%s", dirs[i], e->d_name);
			if (stat(path, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == devnum) {
				closedir(d);
				return open(path, O_RDONLY | O_NONBLOCK);
			}
		}
		if (d)
			closedir(d);
	}
	return -1;
}

int partition_start(dev_t devnum, int fd, const char *name, unsigned long long *start)
{
	struct stat st;
	struct hd_geometry geo;
	int own_fd = -1, err = 0;

	*start = 0;
	if (!devnum)
		return 0;
	if (stat("/sys/dev/block", &st) == 0) {
		/* sysfs is there: only a partition has a "partition" attribute. */
		unsigned long long number;

		if (sysfs_read_u64(devnum, "partition", &number) == ENOENT)
			return 0;
		err = sysfs_read_u64(devnum, "start", start);
		if (err)
			complain("%s: cannot read where the partition starts from sysfs: %s\n", name, strerror(err));
		return err;
	}
	if (major(devnum) == 0)	/* an anonymous device (tmpfs, btrfs subvolume...): no disk under it */
		return 0;
	if (fd < 0)
		fd = own_fd = open_block_node(devnum);
	memset(&geo, 0, sizeof(geo));
	if (fd < 0 || ioctl(fd, HDIO_GETGEO, &geo) != 0) {
		err = fd < 0 ? ENOENT : errno;
		fprintf(stderr,
			"%s: cannot tell whether this is a partition: /sys is not mounted and HDIO_GETGEO failed (%s); "
			"mount sysfs and try again\n",
			name, strerror(err));
		err = EINVAL;
	} else {
		*start = geo.start;
	}
	if (own_fd >= 0)
		close(own_fd);
	return err;
}
