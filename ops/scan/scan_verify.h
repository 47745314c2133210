/*
 * --scan-verify: the surface scan's reads done by the disk itself, with
 * the kind's verify command (disk_ops.h's media_verify), no data sent.
 */
#ifndef HDPARM_SCAN_VERIFY_H
#define HDPARM_SCAN_VERIFY_H

#include <stdint.h>

#include "device.h"
#include "scan_classes.h"

struct scan_verify {
	struct device *dev;
	bool said;	/* a failure that is not the medium's was said once */
};

/*
 * The disk asked whether it has the command, then one sector at first
 * verified: 0 (a medium error there too: the command is there), or an
 * errno with the reason said (the disk, its bridge or the device has no
 * such command, or it did not answer): nothing more is sent.
 */
int scan_verify_begin(struct scan_verify *v, struct device *dev, uint64_t first);

/* One "read" of the scan (ctx: a struct scan_verify): 0, ENODATA for a medium error, or an errno that ends the scan. */
scan_read_fn scan_verify_read;

#endif
