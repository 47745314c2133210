/*
 * Many disks at once: "hdparm <erase options> DEV1 DEV2 ..." checks every
 * disk before it sends anything to any, then erases them all at the same
 * time, each in a process of its own.
 */
#ifndef HDPARM_TOGETHER_H
#define HDPARM_TOGETHER_H

#include <stdbool.h>

#include "actions.h"

/* The jobs ask for erases on more than one disk: they run together. */
bool jobs_erase_together(const struct job *jobs, int njobs);

/*
 * Run the jobs together: each opened and checked, every one waiting until
 * all are (one refused: none goes on, unless --continue-on-refusal); then
 * all at once, with one status line per disk on a terminal; then each
 * one's output, in the order given, as if they had run one after another.
 * 0, or the errno of the last device that failed.
 */
int run_jobs_together(const struct job *jobs, int njobs, const struct run_flags *run);

#endif
