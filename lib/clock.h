/* Seconds on the monotonic clock: what timings, rates and status lines measure by. */
#ifndef HDPARM_CLOCK_H
#define HDPARM_CLOCK_H

#include <time.h>

static inline double monotonic_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

#endif
