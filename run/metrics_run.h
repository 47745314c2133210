/* --metrics [DEV...]: every disk's samples, in Prometheus's text format on stdout (metrics_run.c). */
#ifndef HDPARM_RUN_METRICS_H
#define HDPARM_RUN_METRICS_H

#include "device.h"

/*
 * The disks named (none: every whole disk /sys/block lists), on stdout or,
 * with file, written whole into it (node_exporter's textfile collector reads
 * only whole files).  0 where the text was written.
 */
int run_metrics(const char *const *paths, int n, const struct run_flags *run, const char *file);

#endif
