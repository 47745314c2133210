/*
 * The USB bridge in front of a disk, said (ops/any_disk/bridge_say.c).
 */
#ifndef HDPARM_BRIDGE_SAY_H
#define HDPARM_BRIDGE_SAY_H

#include "device.h"

/* -I's first line (and, where its SAT layer gave nothing, a second): nothing where no bridge. */
void bridge_say_text(const struct device *dev);

/* The device object's "bridge" object: nothing where no bridge. */
void bridge_say_json(const struct device *dev);

#endif
