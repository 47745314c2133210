/* --read-sector: one sector by absolute LBA, dumped in hex, on every kind of disk. */
#ifndef HDPARM_READ_SECTOR_H
#define HDPARM_READ_SECTOR_H

#include "commands.h"

step_fn read_sector_step;

#endif
