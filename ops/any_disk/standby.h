/*
 * -S's value as ATA encodes it (ACS: STANDBY, IDLE): 1-240 in units of
 * 5 s, 241-251 in units of 30 min, 252 21 min, 253 vendor-specific, 254
 * reserved, 255 21 min 15 s.  Every kind of disk is given this value.
 */
#ifndef HDPARM_STANDBY_H
#define HDPARM_STANDBY_H

/* " (21 minutes)" and the like, as 9.65 prints it after the value. */
void print_standby_interval(unsigned int v);

/* The time in seconds; -1 for the values that have none (253, 254). */
long standby_interval_seconds(unsigned int v);

#endif
