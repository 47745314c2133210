/* -T and -t: cached and device read timings. */
#ifndef HDPARM_BENCHMARK_H
#define HDPARM_BENCHMARK_H

#include "commands.h"

step_fn time_cached_reads, time_device_reads;

#endif
