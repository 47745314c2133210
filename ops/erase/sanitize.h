/* The ATA SANITIZE feature set. */
#ifndef HDPARM_SANITIZE_H
#define HDPARM_SANITIZE_H

#include "commands.h"

step_fn sanitize_step;

#endif
