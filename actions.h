/* Running the options on one device, in hdparm 9.65's fixed order. */
#ifndef HDPARM_ACTIONS_H
#define HDPARM_ACTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "array.h"
#include "hdparm.h"
#include "options.h"

/*
 * Open the device, run every step its settings ask for; 0 or the errno of
 * the last failure.  *refused: a dangerous option lacked its confirmation
 * flag, and nothing was sent.
 */
int process_device(const char *path, const struct settings *s, bool *refused);

/* --fibmap or --fallocate (opt): they work on a file, not a device; 0 or an errno. */
int run_file_option(enum opt_id opt, const struct settings *s);

/* The settings hold an option that can destroy data or make it unreachable. */
bool carries_dangerous_option(const struct settings *s);

/* A step: one option's work in one phase. Returns 0 or an errno value. */
typedef int step_fn(struct device *dev, const struct settings *s, enum opt_id opt);

/* Refuse (EPERM, message on stderr) unless the confirmation flag was given. */
int confirm_dangerous(struct device *dev, const struct settings *s, const char *opt, const char *explanation);
int confirm_destructive(struct device *dev, const struct settings *s, const char *opt, const char *explanation);

/*
 * The row for opt of a table whose rows start with an enum opt_id
 * (NULL when there is none): the tables of settings, power commands,
 * security and sanitize operations, firmware modes.
 */
const void *table_row(const void *table, size_t count, size_t size, enum opt_id opt);
#define TABLE_ROW(table, opt)                                                               \
	((const __typeof__((table)[0]) *)table_row((table), ARRAY_SIZE(table), \
						      sizeof((table)[0]), (opt)))

/* How the option is spelled on the command line: "-S", "--read-sector". */
const char *option_name(enum opt_id opt);


#endif
