/* Reading numbers from a block device's sysfs folder. */
#ifndef HDPARM_SYSFS_H
#define HDPARM_SYSFS_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * /sys/dev/block/MAJ:MIN/ATTR of the block device devnum, into *value.
 * Returns 0, ENOENT (no such attribute) or another errno.
 */
int sysfs_read_u64(dev_t devnum, const char *attr, unsigned long long *value);

/* The path of that attribute, for messages and writes. */
void sysfs_path(dev_t devnum, const char *attr, char *buf, size_t size);

/* The block device behind an open fd (0 when it is not one). */
dev_t block_device_of(int fd);

#endif
