/* An ATA drive's sector access by absolute LBA, and the commands that change its sectors. */
#ifndef HDPARM_SECTORS_H
#define HDPARM_SECTORS_H

#include <stdint.h>

#include "commands.h"

step_fn write_sector, make_bad_sector, set_sector_size, set_sector_size_check, drq_hsm_error;

#endif
