/* A failed read on a TCG-locked drive, explained. */
#ifndef HDPARM_TCG_LOCKED_H
#define HDPARM_TCG_LOCKED_H

#include "device.h"

/*
 * After a read that failed: where the drive's Level 0 Discovery says it is
 * locked by TCG, say so and name the ways out (once a run; nothing where
 * the drive cannot say).
 */
void tcg_say_if_locked(struct device *dev);

#endif
