/*
 * A loop device's backing file by inode (LOOP_GET_STATUS64).  The ioctl
 * reaches the loop driver from a partition's node too, so a partition of
 * a loop device is told by the file beneath it as well.
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <unistd.h>

#include <linux/fs.h>
#include <linux/loop.h>

#include "loop_identity.h"

/* The file at path, where it is the one behind the loop device (info): its inode's generation (FS_IOC_GETVERSION). */
static bool generation_of(const char *path, const struct loop_info64 *info, unsigned int *gen)
{
	struct stat st;
	bool got;
	int fd;

	/* Looked at first: only a regular file, the very one, is opened (never a FIFO or a device at that path now). */
	if (!path || !path[0] || stat(path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_dev != (dev_t)info->lo_device ||
	    (uint64_t)st.st_ino != (uint64_t)info->lo_inode)
		return false;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return false;
	/* The file systems that answer (ext4, XFS, btrfs) write an int, whatever the request's size says. */
	got = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == (dev_t)info->lo_device &&
	      (uint64_t)st.st_ino == (uint64_t)info->lo_inode && ioctl(fd, FS_IOC_GETVERSION, gen) == 0;
	close(fd);
	return got;
}

bool loop_backing_inode(int fd, const char *path, char *buf, size_t size)
{
	struct loop_info64 info;
	unsigned int gen = 0;

	memset(&info, 0, sizeof(info));
	if (ioctl(fd, LOOP_GET_STATUS64, &info) != 0)
		return false;
	/*
	 * A file system gives a deleted file's inode number to a new one (ext4
	 * at once): an image deleted and made again at its path would be the
	 * same inode.  Its generation is another; where none is known, the
	 * number alone.
	 */
	/*
	 * Not the file system's device number: a file system mounted again (the
	 * same FUSE server, an NFS share) is given another, and its disk's map
	 * would be refused for good.  The path is kept beside (scan_map.c).
	 */
	if (generation_of(path, &info, &gen))
		snprintf(buf, size, "%" PRIu64 "+%" PRIu64 "/%u", (uint64_t)info.lo_inode, (uint64_t)info.lo_offset, gen);
	else
		snprintf(buf, size, "%" PRIu64 "+%" PRIu64, (uint64_t)info.lo_inode, (uint64_t)info.lo_offset);
	return true;
}
