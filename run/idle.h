/* --idle-spindown: standby for disks after a time without I/O, by hdparm itself. */
#ifndef HDPARM_IDLE_H
#define HDPARM_IDLE_H

#include "device.h"

/*
 * Watch the n disks, each for its seconds, until SIGTERM or SIGINT (then
 * 0) or until none is left (ENODEV); one line on stdout per transition.
 */
int idle_spindown(const unsigned int seconds[], const char *const paths[], int n, const struct run_flags *run);

#endif
