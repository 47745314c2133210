#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "path_text.h"

static bool is_control(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

/* c's escape inside $'...' (bash's ANSI-C quoting), into out (at least 5 bytes); its length. */
static size_t escape(unsigned char c, char *out)
{
	static const char plain[] = "\a\b\t\n\v\f\r\033\\'", named[] = "abtnvfrE\\'";
	const char *at = c ? strchr(plain, c) : NULL;

	if (at) {
		out[0] = '\\';
		out[1] = named[at - plain];
		return 2;
	}
	if (is_control(c))
		return (size_t)snprintf(out, 5, "\\x%02x", c);
	out[0] = (char)c;
	return 1;
}

const char *path_text(const char *path, char *buf, size_t size)
{
	bool quote = false;
	size_t n = 0;

	if (!size)
		return buf;
	for (const char *p = path; *p; p++)
		quote |= is_control((unsigned char)*p);
	if (!quote) {
		snprintf(buf, size, "%s", path);
		return buf;
	}
	/* "$'" + escapes + "'" + NUL: each byte takes at most 4. */
	if (size < 4) {
		buf[0] = '\0';
		return buf;
	}
	buf[n++] = '$';
	buf[n++] = '\'';
	for (const char *p = path; *p; p++) {
		char e[5];
		size_t len = escape((unsigned char)*p, e);

		if (n + len + 2 > size)
			break;
		memcpy(buf + n, e, len);
		n += len;
	}
	buf[n++] = '\'';
	buf[n] = '\0';
	return buf;
}
