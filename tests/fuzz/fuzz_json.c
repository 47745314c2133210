/*
 * The JSON emitter: the input as a string value (any bytes: control
 * characters, broken UTF-8) and as an IDENTIFY page through identify_json(),
 * into one document that is then checked to be balanced and printable.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../hdparm.h"
#include "../../identify.h"
#include "../../json.h"

struct run_flags run;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static FILE *null;

	(void)argc;
	(void)argv;
	null = fopen("/dev/null", "w");
	if (!null || !freopen("/dev/null", "w", stdout))
		return 1;
	json_start(null, "fuzz");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint16_t id[IDENTIFY_WORDS] = { 0 };

	json_discard_devices();
	json_object_begin(NULL);
	json_stringn("name", (const char *)data, size);
	json_string(NULL, NULL);
	if (size >= 2 * IDENTIFY_WORDS) {
		for (int i = 0; i < IDENTIFY_WORDS; i++)
			id[i] = (uint16_t)(data[2 * i] | data[2 * i + 1] << 8);
		identify_json(id);
	}
	json_object_end();
	return 0;
}
