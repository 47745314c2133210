/* --self-test and --self-test-wait on every kind of disk. */
#ifndef HDPARM_SELF_TEST_H
#define HDPARM_SELF_TEST_H

#include "commands.h"

step_fn self_test_check, self_test_step, self_test_wait_step;

#endif
