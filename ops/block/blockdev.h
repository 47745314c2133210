/* Settings the kernel keeps for any block device (and the legacy IDE driver), by ioctl. */
#ifndef HDPARM_BLOCKDEV_H
#define HDPARM_BLOCKDEV_H

#include "commands.h"

step_fn set_kernel_setting, get_kernel_setting, get_geometry;
step_fn set_queue_depth, get_queue_depth, reread_partitions, flush_buffers;
step_fn device_reset, set_pio_mode, set_cdrom_speed;

/* A kernel setting (-a, -r, -c, -d, -u, -k, -b, -E's none) now: 0, EOPNOTSUPP (no such setting) or the ioctl's errno; nothing said. */
int kernel_setting_read(struct device *dev, enum opt_id opt, long *value);

#endif
