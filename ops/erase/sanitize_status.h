/* --sanitize-status: where a sanitize stands, on every kind of disk. */
#ifndef HDPARM_SANITIZE_STATUS_H
#define HDPARM_SANITIZE_STATUS_H

#include "commands.h"

step_fn sanitize_status_step;

#endif
