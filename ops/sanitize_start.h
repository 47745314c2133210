/* --sanitize-block-erase, -crypto-scramble, -overwrite, -exit-failure-mode on every kind of disk. */
#ifndef HDPARM_SANITIZE_START_H
#define HDPARM_SANITIZE_START_H

#include "commands.h"

step_fn sanitize_start_step;

#endif
