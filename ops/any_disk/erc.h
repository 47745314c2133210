/* --erc: the drive's error recovery time limits, read and set, on ATA, NVMe and SCSI disks. */
#ifndef HDPARM_ERC_H
#define HDPARM_ERC_H

#include "commands.h"

step_fn erc_get_step, erc_set_step;

#endif
