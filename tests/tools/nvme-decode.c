/*
 * nvme-decode CTRL.hex [NS.hex] [VWC APST PS]: print Identify Controller (and
 * Namespace) data the way "hdparm -I" does for an NVMe drive.  The pages
 * are bytes in hex, as "od -An -tx1" writes them.  For the tests only.
 */
#include <stdio.h>
#include <stdlib.h>

#include "nvme_identify.h"

static int load(const char *path, uint8_t *buf)
{
	FILE *f = fopen(path, "r");
	unsigned int v;
	int n = 0;

	if (!f)
		return -1;
	while (n < NVME_IDENTIFY_BYTES && fscanf(f, "%2x", &v) == 1)
		buf[n++] = (uint8_t)v;
	fclose(f);
	return n == NVME_IDENTIFY_BYTES ? 0 : -1;
}

int main(int argc, char **argv)
{
	static uint8_t ctrl[NVME_IDENTIFY_BYTES], ns[NVME_IDENTIFY_BYTES];

	if (argc < 2 || load(argv[1], ctrl) || (argc > 2 && load(argv[2], ns))) {
		fprintf(stderr, "usage: nvme-decode CTRL.hex [NS.hex] [VWC APST PS]\n");
		return 2;
	}
	struct nvme_state state = {
		.write_cache = argc > 3 ? atoi(argv[3]) : -1,
		.apst = argc > 4 ? atoi(argv[4]) : -1,
		.power_state = argc > 5 ? atoi(argv[5]) : -1,
	};

	nvme_print_identify((const void *)ctrl, argc > 2 ? (const void *)ns : NULL, 1, &state);
	return 0;
}
