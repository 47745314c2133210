/* --idle-spindown: standby for disks after a time without I/O, by hdparm itself. */
#ifndef HDPARM_IDLE_H
#define HDPARM_IDLE_H

#include "device.h"

/*
 * Watch the n disks, each for its seconds, until SIGTERM, SIGINT or
 * SIGHUP (then 0) or until none is left (ENODEV); one line on stderr per
 * transition.  await (the configuration's watcher): a path whose disk is
 * not there, or has gone, is looked for again at each look and watched
 * from when it appears; it runs until a signal.
 */
int idle_spindown(const unsigned int seconds[], const char *const paths[], int n, const struct run_flags *run,
		  bool await);

#endif
