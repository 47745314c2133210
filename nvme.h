/*
 * NVMe drives: the kernel's admin and I/O pass-through ioctls (nvme.c),
 * and the decoding of their Identify pages (nvme_identify.c).
 */
#ifndef HDPARM_NVME_H
#define HDPARM_NVME_H

#include <stdint.h>

#include "commands.h"
#include "nvme_spec.h"

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

/* Identify Controller (and Namespace, may be NULL) as -I prints it. */
void nvme_print_identify(const struct nvme_id_ctrl *ctrl, const struct nvme_id_ns *ns, uint32_t nsid,
			 const struct nvme_state *state);

/* The same as the "identify" object of --json. */
void nvme_json_identify(const struct nvme_id_ctrl *ctrl, const struct nvme_id_ns *ns, uint32_t nsid,
			const struct nvme_state *state);

#endif
