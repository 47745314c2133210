/* -F: the drive's write cache out to the medium, on every kind of disk. */
#ifndef HDPARM_FLUSH_H
#define HDPARM_FLUSH_H

#include "commands.h"

step_fn flush_step;

#endif
