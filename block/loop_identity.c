/*
 * A loop device's backing file by inode (LOOP_GET_STATUS64).  The ioctl
 * reaches the loop driver from a partition's node too, so a partition of
 * a loop device is told by the file beneath it as well.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sysmacros.h>
#include <sys/types.h>

#include <linux/loop.h>

#include "loop_identity.h"

bool loop_backing_inode(int fd, char *buf, size_t size)
{
	struct loop_info64 info;

	memset(&info, 0, sizeof(info));
	if (ioctl(fd, LOOP_GET_STATUS64, &info) != 0)
		return false;
	snprintf(buf, size, "%u:%u:%" PRIu64 "+%" PRIu64, major((dev_t)info.lo_device), minor((dev_t)info.lo_device),
		 (uint64_t)info.lo_inode, (uint64_t)info.lo_offset);
	return true;
}
