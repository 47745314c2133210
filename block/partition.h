/* Where a partition starts on its disk, so that sector commands can refuse it. */
#ifndef HDPARM_PARTITION_H
#define HDPARM_PARTITION_H

#include <sys/types.h>

/*
 * The first sector of block device devnum on its disk (0 for a whole disk,
 * or when devnum is no block device at all), into *start.  sysfs says it;
 * where /sys is not mounted (a chroot, a rescue shell) HDIO_GETGEO on fd
 * says it (fd -1: a node for devnum is looked for in /dev).  Returns 0, or
 * an errno when neither can tell: a message is printed, and the caller
 * must not guess.
 */
int partition_start(dev_t devnum, int fd, const char *name, unsigned long long *start);

#endif
