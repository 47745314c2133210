/* -W and -A: the drive's write cache and read look-ahead, on every kind of disk. */
#ifndef HDPARM_CACHE_H
#define HDPARM_CACHE_H

#include "commands.h"

step_fn cache_get_step, cache_set_step;

#endif
