/* Asking a disk for its TCG Level 0 Discovery: what --tcg, a PSID revert and a failed read's explanation share. */
#ifndef HDPARM_TCG_ASK_H
#define HDPARM_TCG_ASK_H

#include "device.h"
#include "tcg.h"

struct tcg_asked {
	uint8_t protocols[64];	/* security protocol 00h's list */
	unsigned int n_protocols;
	uint8_t buf[TCG_DISCOVERY_BYTES];	/* Level 0 Discovery as it came */
	struct tcg_level0 l0;
};

/*
 * The protocols the disk lists, then Level 0 Discovery; nothing said.
 * 0; EOPNOTSUPP with c->why where the disk has no TCG (no such command,
 * no protocol 01h); EACCES where the kernel would not send it; EBADMSG
 * where the answer is shorter than its header; another errno with *c.
 */
int tcg_ask_level0(struct device *dev, struct tcg_asked *a, struct disk_cause *c);

#endif
