/*
 * A read that failed on a drive TCG locks: its Level 0 Discovery asked
 * once, nothing said where the drive cannot say, and where the Locking
 * feature says Locked, the errno gets its reason and the ways out.
 */
#include "report.h"
#include "tcg_ask.h"
#include "tcg_locked.h"

void tcg_say_if_locked(struct device *dev)
{
	struct disk_cause cause = { 0 };
	struct tcg_asked a;
	struct tcg_locking lk;

	if (dev->tcg_lock_asked || dev->fd < 0)
		return;
	dev->tcg_lock_asked = true;
	if (tcg_ask_level0(dev, &a, &cause))
		return;
	tcg_locking_of(a.buf, &a.l0, &lk);
	if (lk.locked)
		complain(" %s is locked by TCG (its Level 0 Discovery says Locked): locked ranges cannot be read or written"
			 " until the owner's password unlocks them, or a PSID revert (the PSID on the drive's label) erases"
			 " everything\n", dev->path);
}

