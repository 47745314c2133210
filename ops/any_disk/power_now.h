/* -y and -Y: into standby, or asleep, now, on every kind of disk. */
#ifndef HDPARM_POWER_NOW_H
#define HDPARM_POWER_NOW_H

#include "commands.h"

step_fn power_now_step;

#endif
