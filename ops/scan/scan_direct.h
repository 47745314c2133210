/*
 * The sector-by-sector search's reads sent as the disk's own read command
 * (ATA READ SECTORS through ATA PASS-THROUGH, NVMe Read through the NVMe
 * pass-through, SCSI READ (16) through SG_IO): the kernel sends such a
 * command once.  A read through the block layer that fails is sent again:
 * NVMe retries any error without DNR 5 times, and sd (over libata too)
 * retries what it takes for a passing fault, 5 times, each after libata's
 * error handling; a bad sector then costs six reads and more (the
 * figures: tests/vm/scan-checks.sh, README).
 */
#ifndef HDPARM_SCAN_DIRECT_H
#define HDPARM_SCAN_DIRECT_H

#include <stdbool.h>
#include <stdint.h>

#include "device.h"
#include "scan_classes.h"

struct scan_direct {
	struct device *dev;
	void *buf;
	unsigned int bytes;	/* one logical sector */
	bool usable;		/* a whole disk whose kind reads one sector (disk_ops' sector_read) */
	bool proven;		/* a sector was read this way: its failures are the medium's */
};

/*
 * d set up for dev's sectors of sector_bytes: usable only on a whole disk
 * (not a partition, a volume or a loop device, whose LBAs are not the
 * disk's) of a kind with sector_read.
 */
void scan_direct_begin(struct scan_direct *d, struct device *dev, unsigned int sector_bytes);
void scan_direct_end(struct scan_direct *d);

/*
 * One sector at lba read the direct way; where that way is not usable, or
 * not proven yet and it fails, or it fails for another reason than the
 * medium, fallback (the block layer's read) decides.  0 or the errno.
 */
int scan_direct_read(struct scan_direct *d, uint64_t lba, scan_read_fn *fallback, void *ctx);

#endif
