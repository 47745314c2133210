/*
 * The PSID's hold on the process: not dumpable from its reading to its
 * wiping (prctl PR_SET_DUMPABLE, as ssh-agent and gpg-agent do), and
 * explicit_bzero, which the compiler may not drop as a dead store.
 */
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>

#include "secret.h"

/* PR_GET_DUMPABLE before the first hold; -1: nothing held. */
static int dumpable_before = -1;

void secret_held(void)
{
	if (dumpable_before < 0)
		dumpable_before = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

void secret_forget(const char *s)
{
	/* The caller's copy: a word of argv or a buffer of the program's, never a literal. */
	if (s)
		explicit_bzero((char *)(uintptr_t)s, strlen(s));
	if (dumpable_before > 0)
		prctl(PR_SET_DUMPABLE, dumpable_before, 0, 0, 0);
	dumpable_before = -1;
}
