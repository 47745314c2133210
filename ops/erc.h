/* --erc: the drive's error recovery time limits, read and set, on ATA and NVMe disks. */
#ifndef HDPARM_ERC_H
#define HDPARM_ERC_H

#include "commands.h"

step_fn erc_get_step, erc_set_step;

#endif
