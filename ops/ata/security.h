/* The ATA Security feature set. */
#ifndef HDPARM_SECURITY_H
#define HDPARM_SECURITY_H

#include "commands.h"

step_fn security_step, security_freeze;

/* A security erase the drive would refuse, said, and nothing sent (many disks at once check them all first). */
step_fn security_erase_check;

#endif
