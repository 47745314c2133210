/* Running the options on one device, in hdparm 9.65's fixed order. */
#ifndef HDPARM_ACTIONS_H
#define HDPARM_ACTIONS_H

#include <stdbool.h>

#include "device.h"
#include "options.h"

/*
 * Open the device, run every step its settings ask for; 0 or the errno of
 * the last failure.  *refused: a dangerous option lacked its confirmation
 * flag, and nothing was sent.
 */
int process_device(const char *path, const struct settings *s, const struct run_flags *run, bool *refused);

/* --fibmap or --fallocate (opt): they work on a file, not a device; 0 or an errno. */
int run_file_option(enum opt_id opt, const struct settings *s);

/* The settings hold an option that can destroy data or make it unreachable. */
bool carries_dangerous_option(const struct settings *s);

#endif
