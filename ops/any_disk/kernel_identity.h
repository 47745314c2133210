/* A disk's identity and size as the kernel keeps them, asked of no disk (kernel_identity.c). */
#ifndef HDPARM_KERNEL_IDENTITY_H
#define HDPARM_KERNEL_IDENTITY_H

#include <stdbool.h>

#include "device.h"

/* sysfs' strings of the whole disk behind dev->fd into id, and its size; false where it has none. */
bool kernel_identity(struct device *dev, struct disk_identity *id);

#endif
