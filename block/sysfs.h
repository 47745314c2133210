/* Reading and writing a block device's sysfs attributes. */
#ifndef HDPARM_SYSFS_H
#define HDPARM_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * /sys/dev/block/MAJ:MIN/ATTR of the block device devnum, into *value.
 * Returns 0, ENOENT (no such attribute) or another errno.
 */
int sysfs_read_u64(dev_t devnum, const char *attr, unsigned long long *value);

/*
 * The I/Os a block device's "stat" line counts as done: reads, writes,
 * discards and flushes completed; false when the line is not one.
 */
bool sysfs_parse_stat(const char *line, unsigned long long *ios);

/*
 * A line of /proc/diskstats: the disk's major and minor numbers, then its
 * name and the same fields as its sysfs "stat" (the I/Os done, as above).
 */
bool diskstats_parse(const char *line, unsigned int *major_nr, unsigned int *minor_nr, unsigned long long *ios);

/* A decimal attribute's line ("123\n"): 0, or EINVAL for anything else. */
int sysfs_parse_u64(const char *line, unsigned long long *value);

/* The path of that attribute, for messages and writes. */
void sysfs_path(dev_t devnum, const char *attr, char *buf, size_t size);

/* The block device behind an open fd (0 when it is not one). */
dev_t block_device_of(int fd);

/* The sysfs folder of the whole disk behind fd (a partition's disk); false when fd is no block device. */
bool sysfs_disk_dir(int fd, char *buf, size_t size);

/*
 * The sysfs folder of the SCSI disk behind fd: the whole disk's for a
 * block node, the sg node's for a character node; either has "device",
 * the SCSI device.  false when there is none.
 */
bool sysfs_scsi_dir(int fd, char *buf, size_t size);

/* The first line of DIR/ATTR, without its newline; 0 or an errno. */
int sysfs_read_line(const char *dir, const char *attr, char *buf, size_t size);

/* Write text to DIR/ATTR; 0, or the errno the attribute's store gave. */
int sysfs_write_line(const char *dir, const char *attr, const char *text);

/* The last part of the path the link DIR/ATTR points to; 0 or an errno. */
int sysfs_link_name(const char *dir, const char *attr, char *name, size_t size);

/*
 * The USB bridge a disk is behind (usb-storage or uas bound above its SCSI
 * host): its idVendor:idProduct into id ("" where unreadable) and the
 * driver's name; false where it is behind none.
 */
bool sysfs_usb_bridge(int fd, char id[12], const char **driver);

/*
 * The whole disks /sys/block lists that hdparm speaks to, by kernel name:
 * sd*, hd* and NVMe namespaces (nvme0n1; not the per-path nvme0c0n1),
 * sorted.  At most max names of NAME_MAX_DISK bytes; the count, or -1 where
 * /sys/block cannot be read.
 */
#define NAME_MAX_DISK 32
int sysfs_whole_disks(char (*names)[NAME_MAX_DISK], int max);

#endif
