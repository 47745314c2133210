/*
 * --condition: a disk's condition from every source it keeps (hours, wear,
 * defects and errors, self-tests), each a finding, and one verdict.
 */
#ifndef HDPARM_CONDITION_H
#define HDPARM_CONDITION_H

#include "commands.h"

/* The verdicts' exit statuses: above every errno and every status a signal gives a shell (128 + 64). */
#define CONDITION_EXIT_WORN 201
#define CONDITION_EXIT_SUSPECT 202
#define CONDITION_EXIT_FAILING 203

/* A verdict's status (the disk was read), not an error's. */
static inline bool condition_exit_verdict(int status)
{
	return status >= CONDITION_EXIT_WORN && status <= CONDITION_EXIT_FAILING;
}

/*
 * A disk's status so far with err after it: an error's the last (as for any
 * option), a verdict's only where nothing failed.
 */
static inline int condition_exit_after(int status, int err)
{
	if (!err || (status && !condition_exit_verdict(status) && condition_exit_verdict(err)))
		return status;
	if (condition_exit_verdict(status) && condition_exit_verdict(err) && status > err)
		return status;
	return err;
}

step_fn condition_step;

#endif
