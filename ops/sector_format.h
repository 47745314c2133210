/* --set-sector-size on disks that format to another block size (NVMe: Format NVM). */
#ifndef HDPARM_SECTOR_FORMAT_H
#define HDPARM_SECTOR_FORMAT_H

#include "commands.h"

step_fn sector_format_step;

/* Before the confirmation is asked for: the formats on offer and the one BYTES would choose (nothing sent). */
void sector_format_preview(struct device *dev, const struct settings *s, enum opt_id opt);

#endif
