/*
 * The --Istdin path: the input as ASCII hex through identify_read_hex(),
 * and the first 512 bytes as a raw page, each decoded by identify_print().
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "identify.h"

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
	uint16_t id[IDENTIFY_WORDS];
	FILE *in = fmemopen((void *)data, size, "r");

	if (in) {
		memset(id, 0, sizeof(id));
		if (identify_read_hex(in, id) == IDENTIFY_WORDS)
			identify_print(id, NULL);
		fclose(in);
	}
	if (size >= 2 * IDENTIFY_WORDS) {
		for (int i = 0; i < IDENTIFY_WORDS; i++)
			id[i] = (uint16_t)(data[2 * i] | data[2 * i + 1] << 8);
		identify_print(id, NULL);
		identify_print_short(id);
		(void)identify_capacity(id);
		(void)identify_sector_bytes(id);
	}
	return 0;
}
