/*
 * --set-sector-size on disks that format to another block size (NVMe:
 * Format NVM; SCSI: FORMAT UNIT, followed by --format-wait).
 */
#ifndef HDPARM_SECTOR_FORMAT_H
#define HDPARM_SECTOR_FORMAT_H

#include "commands.h"

step_fn sector_format_step;
/* The disk's refusal, said, before anything is sent (many disks check all first). */
step_fn sector_format_check;
/* --format-wait: a format running in the disk followed to its end, then old -> new. */
step_fn sector_format_wait_step;

/* Before the confirmation is asked for: the formats on offer and the one BYTES would choose (nothing sent). */
void sector_format_preview(struct device *dev, const struct settings *s, enum opt_id opt);


#endif
