/* NVMe namespaces: their commands of every disk. */
#ifndef HDPARM_NVME_DISK_H
#define HDPARM_NVME_DISK_H

#include "device.h"

/* The NVMe commands of every disk (disk_ops.h). */
extern const struct disk_ops nvme_disk;

#endif
