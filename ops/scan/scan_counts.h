/*
 * --scan-repair: the drive's own counts of unreadable and replaced
 * sectors, before the repair and after, through the disk's kind (ATA SMART
 * attributes, NVMe SMART / Health log, SCSI log page 03h and grown defect
 * list); "not available" with the reason where the device is no drive (a
 * loop or dm device) or the drive gives none.  The repair goes on either way.
 */
#ifndef HDPARM_SCAN_COUNTS_H
#define HDPARM_SCAN_COUNTS_H

#include "commands.h"
#include "disk_ops.h"

struct scan_counts {
	bool available;
	struct disk_error_counts c;
	char why[600];		/* not available: why */
};

void scan_counts_read(struct device *dev, struct scan_counts *sc);
/* " drive's counts WHEN (SOURCE): LABEL N, ..." or " drive's counts WHEN: not available: WHY". */
void scan_counts_text(const char *when, const struct scan_counts *sc);
/* key: an object of the counts, or of available false and the reason. */
void scan_counts_json(const char *key, const struct scan_counts *sc);

#endif
