/* Sector access by absolute LBA, and the commands that change the drive's sectors. */
#ifndef HDPARM_SECTORS_H
#define HDPARM_SECTORS_H

#include <stdint.h>

#include "commands.h"

step_fn read_sector, write_sector, make_bad_sector, set_sector_size, drq_hsm_error;

/* The ATA drive's --read-sector (READ SECTORS (EXT), PIO): the sector dumped in hex. */
int ata_read_sector(struct device *dev, uint64_t lba);

#endif
