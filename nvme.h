/* NVMe drives, through the kernel's admin and I/O pass-through ioctls. */
#ifndef HDPARM_NVME_H
#define HDPARM_NVME_H

#include <stdint.h>

#include "commands.h"

/*
 * Fill dev->nvme_nsid: the namespace of a /dev/nvmeXnY block device, or of
 * the first namespace behind a /dev/nvmeX controller; 0 for anything else.
 */
void nvme_detect(struct device *dev);

/* The NVMe commands of every disk (device.h). */
extern const struct disk_ops nvme_disk;

#endif
