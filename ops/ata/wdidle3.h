/* -J: WD Green drives' idle3 timer, read and set. */
#ifndef HDPARM_WDIDLE3_H
#define HDPARM_WDIDLE3_H

#include "commands.h"

step_fn set_wdidle3, get_wdidle3;

#endif
