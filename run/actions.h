/* Running the options on one device, in hdparm 9.65's fixed order. */
#ifndef HDPARM_ACTIONS_H
#define HDPARM_ACTIONS_H

#include <stdbool.h>

#include "device.h"
#include "options.h"

/* A device of the command line, with the options given before it. */
struct job {
	const char *device;
	struct settings s;
};

/*
 * Many disks at once (together.h): each device's checks end at the gate.
 * wait() gets what they found (0: the device is ready to erase, else the
 * errno of its refusal, said) and returns 0 for the device to go on, or
 * the errno it stops with, having said why.
 */
struct erase_gate {
	int (*wait)(struct device *dev, int status, void *arg);
	void *arg;
	/*
	 * A signal stopped a long command: the device's JSON object is
	 * closed; this sends it on and ends the process (NULL: exit(), which
	 * writes the document).
	 */
	void (*interrupted)(int sig);
};

/*
 * Open the device, run every step its settings ask for; 0 or the errno of
 * the last failure.  *refused: a dangerous option lacked its confirmation
 * flag, and nothing was sent.  gate: NULL, or where the device waits,
 * checked, before anything is sent.
 */
int process_device(const char *path, const struct settings *s, const struct run_flags *run,
		   const struct erase_gate *gate, bool *refused);

/* --fibmap or --fallocate (opt): they work on a file, not a device; 0 or an errno. */
int run_file_option(enum opt_id opt, const struct settings *s);

/* The settings hold an option that can destroy data or make it unreachable. */
bool carries_dangerous_option(const struct settings *s);

/* Every step of opt is an ATA command and the disk is not ATA: the option is refused on it. */
bool option_refused_on(const struct device *dev, enum opt_id opt);

/*
 * Option opt's own steps (not its query) on the open device dev, checked
 * first as a run of one is; s gives opt and its modifiers.  0 or an errno.
 */
int run_setting(struct device *dev, const struct settings *s, enum opt_id opt);

#endif
