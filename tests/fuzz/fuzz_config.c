/*
 * A configuration file: the input is /etc/hdparm.conf's text, parsed
 * (config_parse) and every key's value read for both power sources
 * (config_check_keys), as --apply-config does before anything is sent.
 * An error must come with its line and column, inside the buffer given.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_file.h"
#include "config_keys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct config_file cf;
	char err[200];

	err[0] = '\0';
	if (config_parse("fuzz.conf", (const char *)data, size, &cf, err, sizeof(err)) == 0) {
		err[0] = '\0';
		if (config_check_keys(&cf, err, sizeof(err)) && strncmp(err, "fuzz.conf:", 10) != 0)
			abort();
		config_free(&cf);
	} else if (strncmp(err, "fuzz.conf:", 10) != 0) {
		abort();
	}
	return 0;
}
