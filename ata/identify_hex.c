/* --Istdin: an IDENTIFY page read as hex words (--Istdout writes them: ops/any_disk/describe.c). */
#include <ctype.h>
#include <stdio.h>

#include "identify.h"

static int hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Words are runs of four hex digits; anything else separates them.
 * Before the first word, a line that does not start with one is skipped
 * whole, so a header such as "/dev/sda:" may precede the page.
 */
int identify_read_hex(FILE *in, uint16_t id[IDENTIFY_WORDS])
{
	int count = 0;

	while (count < IDENTIFY_WORDS) {
		unsigned int word = 0;
		int c = 0, digits;

		for (digits = 0; digits < 4; digits++) {
			int v;

			c = getc(in);
			v = hex_value(c);
			if (v < 0)
				break;
			word = word << 4 | (unsigned int)v;
		}
		if (digits == 4) {
			id[count++] = (uint16_t)word;
			continue;
		}
		if (c == EOF)
			break;
		if (count == 0) {
			while (c != '\n' && c != EOF)
				c = getc(in);
			if (c == EOF)
				break;
		}
	}
	return count;
}
