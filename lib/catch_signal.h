/*
 * A handler for a signal that stops hdparm (SIGINT, SIGTERM, SIGHUP),
 * unless whoever started hdparm chose to ignore it: nohup ignores SIGHUP,
 * and `cmd &` in a script starts cmd with SIGINT and SIGQUIT ignored, so
 * that a ^C meant for the script does not reach it (POSIX, 2.11 Signals
 * and Error Handling).  A handler put over such a signal would turn that
 * ^C into an interrupted erase.
 */
#ifndef HDPARM_CATCH_SIGNAL_H
#define HDPARM_CATCH_SIGNAL_H

#include <signal.h>
#include <stdbool.h>

/* sa for sig, unless sig is ignored; *was (may be NULL): its handling before.  True when sa was put in. */
static inline bool catch_signal(int sig, const struct sigaction *sa, struct sigaction *was)
{
	struct sigaction before;

	if (!was)
		was = &before;
	if (sigaction(sig, NULL, was) != 0 || was->sa_handler == SIG_IGN)
		return false;
	return sigaction(sig, sa, NULL) == 0;
}

#endif
