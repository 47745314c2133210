/* --set-sector-size on disks that format to another block size (NVMe: Format NVM). */
#ifndef HDPARM_SECTOR_FORMAT_H
#define HDPARM_SECTOR_FORMAT_H

#include "commands.h"

step_fn sector_format_step;

#endif
