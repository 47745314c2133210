/* Identify Controller and Identify Namespace, decoded: pure functions of the pages. */
#ifndef HDPARM_NVME_IDENTIFY_H
#define HDPARM_NVME_IDENTIFY_H

#include <stddef.h>
#include <stdint.h>

#include "nvme_spec.h"

/* The current state of what Get Features reports; -1 where unknown. */
struct nvme_state {
	int write_cache;
	int apst;
	int power_state;
	const uint8_t *apst_table;	/* the APST data structure (NVME_APST_BYTES), or NULL */
	const struct nvme_fw_slot_log *fw_slots;	/* the Firmware Slot Information log, or NULL */
	const uint8_t *health;	/* the SMART / Health Information log (NVME_HEALTH_BYTES), or NULL: --json's wear */
};

/* A power state's maximum power as its descriptor gives it: "9.00 W", or with MXPS "3.5000 W". */
const char *nvme_power_text(const struct nvme_power_state *psd, char *buf, size_t size);
double nvme_power_watts(const struct nvme_power_state *psd);

/* Identify Controller (and Namespace, may be NULL) as -I prints it. */
void nvme_print_identify(const struct nvme_id_ctrl *ctrl, const struct nvme_id_ns *ns, uint32_t nsid,
			 const struct nvme_state *state);

/* The same as the "identify" object of --json. */
void nvme_json_identify(const struct nvme_id_ctrl *ctrl, const struct nvme_id_ns *ns, uint32_t nsid,
			const struct nvme_state *state);

#endif
