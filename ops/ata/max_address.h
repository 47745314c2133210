/* -N: an ATA drive's max address (HPA), read and set. */
#ifndef HDPARM_MAX_ADDRESS_H
#define HDPARM_MAX_ADDRESS_H

#include "commands.h"

step_fn get_max_sectors, set_max_sectors;

#endif
