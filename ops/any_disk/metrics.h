/* --metrics: one disk's samples, for Prometheus (metrics.c). */
#ifndef HDPARM_METRICS_H
#define HDPARM_METRICS_H

#include "device.h"
#include "prom.h"

/*
 * The samples of the open disk dev, labelled device="name", read without
 * waking it (tcg: its TCG locking too).  0 where it answered; else the
 * errno of its first command, said on stderr, and its hdparm_disk_up
 * sample is 0.
 */
int metrics_collect(struct device *dev, const char *name, struct prom *p, bool tcg);

/* A disk that did not open: its hdparm_disk_up sample, 0. */
int metrics_down(const char *name, struct prom *p);

#endif
