/* --sanitize-wait: until the sanitize ends, on every kind of disk, then the sample. */
#ifndef HDPARM_SANITIZE_WAIT_H
#define HDPARM_SANITIZE_WAIT_H

#include "commands.h"

step_fn sanitize_wait_step;

#endif
