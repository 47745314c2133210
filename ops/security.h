/* The ATA Security feature set. */
#ifndef HDPARM_SECURITY_H
#define HDPARM_SECURITY_H

#include "commands.h"

step_fn security_step, security_freeze;

#endif
