/* -C: where the drive's power stands, on every kind of disk. */
#ifndef HDPARM_POWER_MODE_H
#define HDPARM_POWER_MODE_H

#include "commands.h"

step_fn power_mode_step;

#endif
