/*
 * Level 0 Discovery (security protocol 01h, ComID 0001h), after the list
 * of protocols (00h) says the disk has TCG's: a disk asked for a protocol
 * it lacks may answer anything.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tcg_ask.h"

int tcg_ask_level0(struct device *dev, struct tcg_asked *a, struct disk_cause *c)
{
	size_t got;
	int err;

	memset(a, 0, sizeof(*a));
	if (!dev->disk || !dev->disk->security_recv) {
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "this kind of disk has no security protocols");
		return EOPNOTSUPP;
	}
	if ((err = dev->disk->security_recv(dev, TCG_PROTOCOL_LIST, 0, a->buf, 512, &got, c)))
		return err;
	a->n_protocols = tcg_decode_protocols(a->buf, got, a->protocols, sizeof(a->protocols));
	if (!memchr(a->protocols, TCG_PROTOCOL_TCG, a->n_protocols)) {
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "the disk lists no TCG security protocol (01h)");
		return EOPNOTSUPP;
	}
	if ((err = dev->disk->security_recv(dev, TCG_PROTOCOL_TCG, TCG_COMID_LEVEL0, a->buf, sizeof(a->buf), &got, c)))
		return err;
	if (!tcg_decode_level0(a->buf, got, &a->l0)) {
		snprintf(c->why, sizeof(c->why), "its Level 0 Discovery came back shorter than its header");
		return EBADMSG;
	}
	return 0;
}
