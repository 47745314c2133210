/* -I, -i, --Istdout, --Iraw: what a disk says of itself, on every kind of disk. */
#ifndef HDPARM_DESCRIBE_H
#define HDPARM_DESCRIBE_H

#include "commands.h"

step_fn describe_step;

#endif
