/*
 * Transfer mode values of SET FEATURES subcommand 03h: the class sits in
 * bits 7:3 and the mode number in bits 2:0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "modes.h"

static const struct mode_class {
	const char *prefix;	/* as typed on the command line */
	unsigned int base;	/* the value of mode 0 */
	const char *description;
} mode_classes[] = {
	{ "pio", 8, "PIO flow control mode" },
	{ "sdma", 16, "singleword DMA mode" },
	{ "mdma", 32, "multiword DMA mode" },
	{ "udma", 64, "UltraDMA mode" },
};

#define NCLASSES (ARRAY_SIZE(mode_classes))

bool xfermode_parse(const char *text, unsigned int *mode)
{
	char *end;
	unsigned long n;

	for (size_t i = 0; i < NCLASSES; i++) {
		size_t len = strlen(mode_classes[i].prefix);

		if (strncmp(text, mode_classes[i].prefix, len) == 0 && text[len] >= '0' &&
		    text[len] <= '7' && text[len + 1] == '\0') {
			*mode = mode_classes[i].base + (unsigned int)(text[len] - '0');
			return true;
		}
	}
	if (text[0] < '0' || text[0] > '9')
		return false;
	n = strtoul(text, &end, 10);
	if (*end != '\0' || n > 255)
		return false;
	*mode = (unsigned int)n;
	return true;
}

const char *xfermode_describe(unsigned int mode, char *buf, unsigned int size)
{
	if (mode == 0)
		return "default PIO mode";
	if (mode == 1)
		return "default PIO mode, disable IORDY";
	for (size_t i = 0; i < NCLASSES; i++) {
		if (mode >= mode_classes[i].base && mode < mode_classes[i].base + 8) {
			snprintf(buf, size, "%s%u", mode_classes[i].description, mode - mode_classes[i].base);
			return buf;
		}
	}
	return "unknown, probably not valid";
}
