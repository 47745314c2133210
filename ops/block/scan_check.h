/*
 * --surface-scan's checks before anything is read: the device a block
 * device, the range inside it.  Many disks at once (run/together.c) run
 * them on every disk before any is read, so that one bad range refuses
 * the whole command.
 */
#ifndef HDPARM_SCAN_CHECK_H
#define HDPARM_SCAN_CHECK_H

#include <stdint.h>

#include "commands.h"

/* The range asked (--scan-range, else the whole device of sectors of bytes), checked: first..last, inclusive. */
int scan_bounds(const struct device *dev, const struct settings *s, uint64_t sectors, unsigned int bytes,
		uint64_t *first, uint64_t *last);

/* The step's check: 0, or the errno of a refusal said in the step's words; nothing read. */
step_fn surface_scan_check;

#endif
