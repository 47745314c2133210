/* --surface-scan: every block of a block device read and timed, read-only. */
#ifndef HDPARM_SURFACE_SCAN_H
#define HDPARM_SURFACE_SCAN_H

#include "commands.h"

step_fn surface_scan_step;

#endif
