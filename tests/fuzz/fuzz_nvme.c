/* Identify Controller and Namespace pages (4096 bytes each) through the -I decoder. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../nvme_identify.h"

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
	static uint8_t ctrl[NVME_IDENTIFY_BYTES], ns[NVME_IDENTIFY_BYTES];
	struct nvme_state state = { -1, -1, -1 };
	size_t n = size < sizeof(ctrl) ? size : sizeof(ctrl);

	memset(ctrl, 0, sizeof(ctrl));
	memset(ns, 0, sizeof(ns));
	memcpy(ctrl, data, n);
	if (size > sizeof(ctrl))
		memcpy(ns, data + sizeof(ctrl), size - sizeof(ctrl) < sizeof(ns) ? size - sizeof(ctrl) : sizeof(ns));
	if (size > 0)
		state.power_state = data[0] & 0x1f;
	nvme_print_identify((const void *)ctrl, size > sizeof(ctrl) ? (const void *)ns : NULL, 1, &state);
	return 0;
}
