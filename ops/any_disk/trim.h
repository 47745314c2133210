/* TRIM: ranges from the command line or stdin, sent by the disk's own command. */
#ifndef HDPARM_TRIM_H
#define HDPARM_TRIM_H

#include "commands.h"

step_fn trim_from_args, trim_from_stdin;

#endif
