/* --tcg-psid-revert PSID: a TCG drive back to its factory state, everything on it erased. */
#ifndef HDPARM_TCG_REVERT_H
#define HDPARM_TCG_REVERT_H

#include "commands.h"

step_fn tcg_psid_revert_step;

/* The drive's refusal (no TCG, no SSC with an Admin SP, Enterprise), said; nothing sent. */
step_fn tcg_psid_revert_check;

#endif
