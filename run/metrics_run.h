/* --metrics [DEV...]: every disk's samples, in Prometheus's text format on stdout (metrics_run.c). */
#ifndef HDPARM_RUN_METRICS_H
#define HDPARM_RUN_METRICS_H

#include <stddef.h>

#include "config.h"
#include "device.h"

/*
 * The disks named (none: every whole disk /sys/block lists), on stdout or,
 * with file, written whole into it (node_exporter's textfile collector reads
 * only whole files).  0 where the text was written.
 */
int run_metrics(const char *const *paths, int n, const struct run_flags *run, const char *file);

/* --metrics --check-config: each job's disk, and the drift of each of its settings (config.h). */
int run_metrics_config(const struct config_job *jobs, size_t n, const struct run_flags *run, const char *file);

#endif
