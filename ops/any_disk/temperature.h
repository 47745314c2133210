/* -H: the drive's temperature, on every kind of disk, without waking one that sleeps. */
#ifndef HDPARM_TEMPERATURE_H
#define HDPARM_TEMPERATURE_H

#include "commands.h"

step_fn temperature_step;

#endif
