/* The steps that get and set an ATA drive's features by command (the kernel's are in blockdev.h). */
#ifndef HDPARM_ATA_FEATURES_H
#define HDPARM_ATA_FEATURES_H

#include "commands.h"

/* -m's query: the driver's multcount, or IDENTIFY word 59 where the driver has none. */
step_fn get_multcount;

/* Drive settings and commands, by ATA command. */
step_fn set_drive_feature, get_drive_feature, power_command;
step_fn set_powerup_standby, set_multcount;

#endif
