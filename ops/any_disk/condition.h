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

step_fn condition_step;

#endif
