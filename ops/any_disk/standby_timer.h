/* -S: the standby timer, on every kind of disk that has one. */
#ifndef HDPARM_STANDBY_TIMER_H
#define HDPARM_STANDBY_TIMER_H

#include "commands.h"

step_fn standby_timer_step;

#endif
