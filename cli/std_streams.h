/* The standard streams, before anything else runs and at exit (std_streams.c). */
#ifndef HDPARM_STD_STREAMS_H
#define HDPARM_STD_STREAMS_H

#include <stdbool.h>

/*
 * Fds 0, 1 and 2 open (a closed one on /dev/null), so that no disk opened
 * later takes one of their numbers; false, said on stderr where it can be,
 * where one stays closed.
 */
bool std_streams_open(void);

/* SIGINT, SIGTERM and SIGHUP blocked: what is written at exit goes out whole first. */
void std_streams_hold_stops(void);

#endif
