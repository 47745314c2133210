/* --tcg: a self-encrypting drive's TCG state (Level 0 Discovery), on any disk; read only. */
#ifndef HDPARM_TCG_STATUS_H
#define HDPARM_TCG_STATUS_H

#include "commands.h"

step_fn tcg_step;

#endif
