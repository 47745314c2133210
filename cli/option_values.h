/* An option's value, read from the command line (option_values.c). */
#ifndef HDPARM_OPTION_VALUES_H
#define HDPARM_OPTION_VALUES_H

#include <stdbool.h>

#include "options.h"

/* Where the parser stands: the rest of the current word, and the words after it. */
struct cursor {
	const char *p;
	char **next;
	int left;		/* words after the current one */
	bool own_word;		/* the value being read started a word of its own */
};

/*
 * Read option o's value (if its kind takes one) from *c into s.  Returns 0,
 * or EINVAL with the refusal's one line on stderr.
 */
int parse_value(const struct option_desc *o, struct cursor *c, struct settings *s);

/* Every refusal of the command line: one line on stderr (fmt with arg), and EINVAL to return. */
int bad_command_line(const char *fmt, const char *arg);

#endif
