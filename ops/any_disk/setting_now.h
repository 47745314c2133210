/* A setting as the disk or the kernel reports it now (setting_now.c), for --check-config and --apply-config. */
#ifndef HDPARM_SETTING_NOW_H
#define HDPARM_SETTING_NOW_H

#include <stdbool.h>
#include <stdint.h>

#include "device.h"
#include "values.h"

enum setting_kind {
	SETTING_READ,		/* num and num2 hold it */
	SETTING_UNREPORTED,	/* the disk keeps it but does not report it (-S, -P): sent every time */
	SETTING_UNSUPPORTED,	/* the disk has no such setting */
	SETTING_COMMAND,	/* a command (-y, --security-freeze): nothing to hold */
};

struct setting_now {
	enum setting_kind kind;
	uint64_t num, num2;	/* in the option's numbers: -W1 reads 1, --erc 70,50 reads 70 and 50;
				   --epc-timer: the current and the saved timer, in tenths (0: disabled) */
	char why[200];		/* not read: why */
};

/*
 * Option opt's setting now (want: the value asked, for the condition
 * --epc-timer names): 0 with now's numbers, EOPNOTSUPP with now->kind and
 * why, or the errno of a read that failed (why).
 */
int setting_now(struct device *dev, enum opt_id opt, const struct opt_value *want, struct setting_now *now);

/* The value asked (the option's, as the command line would hold it) is what the disk has now. */
bool setting_holds(enum opt_id opt, const struct opt_value *want, const struct setting_now *now);

#endif
