/*
 * --surface-scan's checks before anything is read: the device a block
 * device, the range inside it.  Many disks at once (run/together.c) run
 * them on every disk before any is read, so that one bad range refuses
 * the whole command.
 */
#ifndef HDPARM_SCAN_CHECK_H
#define HDPARM_SCAN_CHECK_H

#include <stdint.h>
#include <sys/types.h>

#include "commands.h"

/* What a scan needs to know of its device before it reads: found once, by the check and the step alike. */
struct scan_facts {
	dev_t rdev;		/* the block device */
	uint64_t sectors;	/* its size in logical sectors */
	unsigned int sector;	/* the logical sector's bytes */
	uint64_t first, last;	/* the range asked, inclusive */
};

/* dev's facts and the range asked into f: 0, or the errno of a refusal said (one line); nothing read. */
int scan_facts_of(struct device *dev, const struct settings *s, struct scan_facts *f);

/* The step's check (scan_facts_of): 0, or the errno of a refusal said in the step's words; nothing read. */
step_fn surface_scan_check;

#endif
