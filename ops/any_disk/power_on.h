/* --power-on-hours: how long the drive has been powered on in its life, on every kind of disk. */
#ifndef HDPARM_POWER_ON_H
#define HDPARM_POWER_ON_H

#include "commands.h"

step_fn power_on_step;

#endif
