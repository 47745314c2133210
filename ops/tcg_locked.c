/*
 * A read that failed on a drive TCG locks: its Level 0 Discovery asked
 * once, nothing said where the drive cannot say, and where the Locking
 * feature says Locked, the errno gets its reason and the ways out.
 */
#include <string.h>

#include "report.h"
#include "tcg.h"
#include "tcg_locked.h"

/* Level 0 Discovery into buf and l0, nothing said; false where the disk has no TCG or cannot be asked. */
static bool discovery(struct device *dev, uint8_t buf[TCG_DISCOVERY_BYTES], struct tcg_level0 *l0)
{
	struct disk_cause cause = { 0 };
	uint8_t protocols[64];
	size_t got;
	unsigned int n;

	if (dev->disk->security_recv(dev, TCG_PROTOCOL_LIST, 0, buf, 512, &got, &cause))
		return false;
	n = tcg_decode_protocols(buf, got, protocols, sizeof(protocols));
	if (!memchr(protocols, TCG_PROTOCOL_TCG, n))
		return false;
	return !dev->disk->security_recv(dev, TCG_PROTOCOL_TCG, TCG_COMID_LEVEL0, buf, TCG_DISCOVERY_BYTES, &got, &cause) &&
	       tcg_decode_level0(buf, got, l0);
}

void tcg_say_if_locked(struct device *dev)
{
	uint8_t buf[TCG_DISCOVERY_BYTES];
	struct tcg_level0 l0;
	struct tcg_locking lk;

	if (dev->tcg_lock_asked || dev->fd < 0 || !dev->disk || !dev->disk->security_recv)
		return;
	dev->tcg_lock_asked = true;
	if (!discovery(dev, buf, &l0))
		return;
	tcg_locking_of(buf, &l0, &lk);
	if (lk.locked)
		complain(" %s is locked by TCG (its Level 0 Discovery says Locked): locked ranges cannot be read or written"
			 " until the owner's password unlocks them, or a PSID revert (the PSID on the drive's label) erases"
			 " everything\n", dev->path);
}

