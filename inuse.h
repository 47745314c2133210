/* Whether the kernel holds a disk for somebody, before a command that erases it. */
#ifndef HDPARM_INUSE_H
#define HDPARM_INUSE_H

#include "device.h"

/*
 * 0 when option may erase the whole disk behind dev: it is the whole disk
 * (need_whole_disk) and nobody holds it or a partition of it.  Else EBUSY
 * (or EINVAL for a partition), with one line on stderr that names the
 * holders: "/dev/sda1 mounted on /home", "/dev/sda2 is swap", "/dev/sda3
 * held by dm-0 (vg-root)".  A refusal marks the device refused: no step runs.
 */
int need_disk_unused(struct device *dev, const char *option);

/*
 * The same for another whole disk that the erase of dev reaches too (the
 * other namespaces of an NVMe controller): 0, or EBUSY with the line.
 */
int need_other_disk_unused(struct device *dev, const char *path, const char *option);

#endif
