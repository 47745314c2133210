/* NVMe drives, through the kernel's admin and I/O pass-through ioctls. */
#ifndef HDPARM_NVME_H
#define HDPARM_NVME_H

#include <stdint.h>

#include "commands.h"

#define NVME_IDENTIFY_BYTES 4096

/*
 * Fill dev->nvme_nsid: the namespace of a /dev/nvmeXnY block device, or of
 * the first namespace behind a /dev/nvmeX controller; 0 for anything else.
 */
void nvme_detect(struct device *dev);

/* The NVMe commands of every disk (device.h). */
extern const struct disk_ops nvme_disk;

/* The current state of what Get Features reports; -1 where unknown. */
struct nvme_state {
	int write_cache;
	int apst;
	int power_state;
};

/* Decode Identify Controller (and Namespace, may be NULL) as -I does; exposed for tests. */
void nvme_print_identify(const uint8_t *ctrl, const uint8_t *ns, uint32_t nsid, const struct nvme_state *state);

#endif
