/* Reads with several requests in flight: -t --iodepth N and --seeks. */
#ifndef HDPARM_IODEPTH_H
#define HDPARM_IODEPTH_H

#include "commands.h"

/* -t with --iodepth: sequential O_DIRECT reads, N in flight. */
int time_iodepth_reads(struct device *dev, const struct settings *s);

/* --seeks: random O_DIRECT reads over the device. */
step_fn time_random_seeks;

#endif
