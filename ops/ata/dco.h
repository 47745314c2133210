/* Device Configuration Overlay. */
#ifndef HDPARM_DCO_H
#define HDPARM_DCO_H

#include "commands.h"

step_fn dco_step;

#endif
