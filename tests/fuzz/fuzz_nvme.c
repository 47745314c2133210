/*
 * Identify Controller and Namespace pages (4096 bytes each) through the -I
 * decoder; the bytes after them, where there are any, as the APST table,
 * and after it the Firmware Slot Information log.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nvme_identify.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!freopen("/dev/null", "w", stdout))
		return 1;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t ctrl[NVME_IDENTIFY_BYTES], ns[NVME_IDENTIFY_BYTES], apst[NVME_APST_BYTES];
	static struct nvme_fw_slot_log slots;
	struct nvme_state state = { -1, -1, -1, NULL };
	size_t n = size < sizeof(ctrl) ? size : sizeof(ctrl);

	memset(ctrl, 0, sizeof(ctrl));
	memset(ns, 0, sizeof(ns));
	memcpy(ctrl, data, n);
	if (size > sizeof(ctrl))
		memcpy(ns, data + sizeof(ctrl), size - sizeof(ctrl) < sizeof(ns) ? size - sizeof(ctrl) : sizeof(ns));
	if (size > 0)
		state.power_state = data[0] & 0x1f;
	if (size > 2 * sizeof(ctrl)) {
		size_t left = size - 2 * sizeof(ctrl);

		memset(apst, 0, sizeof(apst));
		memcpy(apst, data + 2 * sizeof(ctrl), left < sizeof(apst) ? left : sizeof(apst));
		state.apst = 1;
		state.apst_table = apst;
	}
	if (size > 2 * sizeof(ctrl) + sizeof(apst)) {
		size_t left = size - 2 * sizeof(ctrl) - sizeof(apst);

		memset(&slots, 0, sizeof(slots));
		memcpy(&slots, data + 2 * sizeof(ctrl) + sizeof(apst), left < sizeof(slots) ? left : sizeof(slots));
		state.fw_slots = &slots;
	}
	nvme_print_identify((const void *)ctrl, size > sizeof(ctrl) ? (const void *)ns : NULL, 1, &state);
	return 0;
}
