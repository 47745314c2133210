/* --sanitize-block-erase, -crypto-scramble, -overwrite, -exit-failure-mode on every kind of disk. */
#ifndef HDPARM_SANITIZE_START_H
#define HDPARM_SANITIZE_START_H

#include "commands.h"

step_fn sanitize_start_step;

/* The disk's refusal of the sanitize, said, and nothing sent (many disks at once check them all first). */
step_fn sanitize_start_check;

#endif
