/* A run of sectors by absolute LBA: a TRIM range, or a piece of one a command carries. */
#ifndef HDPARM_SECTOR_RANGE_H
#define HDPARM_SECTOR_RANGE_H

#include <stdint.h>

struct sector_range {
	uint64_t lba;
	uint64_t count;
};

#endif
