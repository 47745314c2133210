/*
 * The TCG data stream and its packets (Core Specification 2.01, 3.2.2
 * tokens, 3.2.3 ComPacket/Packet/SubPacket, 5.1.5 status codes).  Atoms:
 * tiny (one byte, 0-63), short (a header byte, 0-15 bytes), medium (two
 * header bytes, up to 2047), long (four, up to 2^24-1).
 */
#include <stdio.h>
#include <string.h>

#include "array.h"
#include "tcg_session.h"
#include "unaligned.h"

#define SHORT_ATOM 0x80	/* 10 B S LLLL */
#define MEDIUM_ATOM 0xc0	/* 110 B S LLL, then 8 more length bits */
#define LONG_ATOM 0xe0		/* 111000 B S, then 3 length bytes */
#define ATOM_BYTES 0x20		/* the B bit of a short atom (0x10 in a medium one's first byte, 0x02 in a long's) */
#define TRANSFER_BLOCK 512

static void put(struct tcg_writer *w, const uint8_t *data, size_t n)
{
	if (w->overflow || n > w->cap - w->len) {
		w->overflow = true;
		return;
	}
	memcpy(w->p + w->len, data, n);
	w->len += n;
}

void tcg_put_token(struct tcg_writer *w, enum tcg_token t)
{
	uint8_t b = (uint8_t)t;

	put(w, &b, 1);
}

void tcg_put_uint(struct tcg_writer *w, uint64_t v)
{
	uint8_t atom[9];
	unsigned int n = 1;

	if (v < 64) {
		atom[0] = (uint8_t)v;
		put(w, atom, 1);
		return;
	}
	while (n < 8 && v >> (8 * n))
		n++;
	atom[0] = (uint8_t)(SHORT_ATOM | n);
	for (unsigned int i = 0; i < n; i++)
		atom[1 + i] = (uint8_t)(v >> (8 * (n - 1 - i)));
	put(w, atom, 1 + n);
}

void tcg_put_bytes(struct tcg_writer *w, const uint8_t *data, size_t n)
{
	uint8_t head[2];

	/* An atom goes in whole or not at all. */
	if (n > w->cap - w->len || (n <= 15 ? 1 : 2) > w->cap - w->len - n)
		w->overflow = true;
	if (w->overflow)
		return;
	if (n <= 15) {
		head[0] = (uint8_t)(SHORT_ATOM | ATOM_BYTES | n);
		put(w, head, 1);
	} else if (n <= 2047) {
		head[0] = (uint8_t)(MEDIUM_ATOM | 0x10 | (n >> 8));
		head[1] = (uint8_t)n;
		put(w, head, 2);
	} else {
		w->overflow = true;	/* nothing this tool sends is that long */
		return;
	}
	put(w, data, n);
}

void tcg_put_uid(struct tcg_writer *w, const uint8_t uid[TCG_UID_BYTES])
{
	tcg_put_bytes(w, uid, TCG_UID_BYTES);
}

void tcg_call_begin(struct tcg_writer *w, const uint8_t invoking[TCG_UID_BYTES], const uint8_t method[TCG_UID_BYTES])
{
	tcg_put_token(w, TCG_CALL);
	tcg_put_uid(w, invoking);
	tcg_put_uid(w, method);
	tcg_put_token(w, TCG_START_LIST);
}

void tcg_call_end(struct tcg_writer *w)
{
	tcg_put_token(w, TCG_END_LIST);
	tcg_put_token(w, TCG_END_OF_DATA);
	tcg_put_token(w, TCG_START_LIST);
	for (int i = 0; i < 3; i++)
		tcg_put_uint(w, 0);
	tcg_put_token(w, TCG_END_LIST);
}

size_t tcg_packetize(uint8_t *out, size_t cap, uint16_t comid, uint32_t tsn, uint32_t hsn, const uint8_t *payload,
		     size_t n)
{
	size_t padded = (n + 3) & ~(size_t)3;	/* a SubPacket's data is padded to 4 bytes, the padding not counted */
	size_t packet = TCG_SUBPACKET_HEADER + padded, compacket = TCG_PACKET_HEADER + packet;
	size_t total = TCG_COMPACKET_HEADER + compacket;
	size_t blocks = (total + TRANSFER_BLOCK - 1) / TRANSFER_BLOCK * TRANSFER_BLOCK;
	uint8_t *p = out, *s;

	if (n > UINT32_MAX - TCG_HEADERS || blocks > cap)
		return 0;
	memset(out, 0, blocks);
	put_be16(p + 4, comid);
	put_be32(p + 16, (uint32_t)compacket);
	p += TCG_COMPACKET_HEADER;
	put_be32(p, tsn);
	put_be32(p + 4, hsn);
	put_be32(p + 20, (uint32_t)packet);
	s = p + TCG_PACKET_HEADER;
	put_be32(s + 8, (uint32_t)n);
	memcpy(s + TCG_SUBPACKET_HEADER, payload, n);
	return blocks;
}

bool tcg_unpacketize(const uint8_t *buf, size_t got, struct tcg_response *r, const char **why)
{
	size_t compacket, packet, sub;

	memset(r, 0, sizeof(*r));
	*why = "the response is shorter than its headers";
	if (got < TCG_HEADERS)
		return false;
	r->outstanding = get_be32(buf + 8);
	compacket = get_be32(buf + 16);
	r->tsn = get_be32(buf + TCG_COMPACKET_HEADER);
	r->hsn = get_be32(buf + TCG_COMPACKET_HEADER + 4);
	packet = get_be32(buf + TCG_COMPACKET_HEADER + 20);
	sub = get_be32(buf + TCG_COMPACKET_HEADER + TCG_PACKET_HEADER + 8);
	*why = "a header field has length 0: the drive has nothing to say yet";
	if (!compacket || !packet || !sub)
		return false;
	*why = "a length in the response runs past what came, or past the packet that holds it";
	if (compacket < TCG_PACKET_HEADER || packet < TCG_SUBPACKET_HEADER || compacket > got - TCG_COMPACKET_HEADER ||
	    packet > compacket - TCG_PACKET_HEADER || sub > packet - TCG_SUBPACKET_HEADER)
		return false;
	r->data = buf + TCG_HEADERS;
	r->len = sub;
	return true;
}

bool tcg_next(const uint8_t *data, size_t len, size_t *pos, struct tcg_item *it)
{
	size_t at = *pos, head, n;
	uint8_t b;

	memset(it, 0, sizeof(*it));
	if (at >= len)
		return false;
	b = data[at];
	if (b < 0x80) {	/* tiny atom: 6 bits, the sign in bit 6 */
		it->kind = TCG_ITEM_ATOM;
		it->value = b & 0x3f;
		*pos = at + 1;
		return true;
	}
	if (b >= 0xf0) {
		it->kind = TCG_ITEM_CONTROL;
		it->control = b;
		*pos = at + 1;
		return true;
	}
	if (b < MEDIUM_ATOM) {
		head = 1;
		n = b & 0x0f;
		it->bytes = b & ATOM_BYTES;
	} else if (b < LONG_ATOM) {
		if (at + 2 > len)
			return false;
		head = 2;
		n = (size_t)(b & 0x07) << 8 | data[at + 1];
		it->bytes = b & 0x10;
	} else if (b < 0xe4) {
		if (at + 4 > len)
			return false;
		head = 4;
		n = (size_t)data[at + 1] << 16 | (size_t)data[at + 2] << 8 | data[at + 3];
		it->bytes = b & 0x02;
	} else {
		return false;	/* E4h-EFh are reserved */
	}
	if (n > len - at - head)
		return false;
	it->kind = TCG_ITEM_ATOM;
	it->data = data + at + head;
	it->n = n;
	for (size_t i = 0; !it->bytes && i < n && i < 8; i++)
		it->value = it->value << 8 | it->data[i];
	*pos = at + head + n;
	return true;
}

int tcg_method_status(const uint8_t *data, size_t len)
{
	struct tcg_item it;
	size_t pos = 0;
	int status = -1;

	/* The status list follows the last END OF DATA: START LIST, the status, two reserved, END LIST. */
	while (tcg_next(data, len, &pos, &it)) {
		if (it.kind != TCG_ITEM_CONTROL || it.control != TCG_END_OF_DATA)
			continue;
		status = -1;
		if (tcg_next(data, len, &pos, &it) && it.kind == TCG_ITEM_CONTROL && it.control == TCG_START_LIST &&
		    tcg_next(data, len, &pos, &it) && it.kind == TCG_ITEM_ATOM && !it.bytes && it.value <= 0xff)
			status = (int)it.value;
	}
	return status;
}

const char *tcg_status_name(int status, char *buf, size_t size)
{
	static const char *const names[] = {
		[0x00] = "SUCCESS", [0x01] = "NOT_AUTHORIZED", [0x03] = "SP_BUSY", [0x04] = "SP_FAILED",
		[0x05] = "SP_DISABLED", [0x06] = "SP_FROZEN", [0x07] = "NO_SESSIONS_AVAILABLE",
		[0x08] = "UNIQUENESS_CONFLICT", [0x09] = "INSUFFICIENT_SPACE", [0x0a] = "INSUFFICIENT_ROWS",
		[0x0b] = "INVALID_FUNCTION", [0x0c] = "INVALID_PARAMETER", [0x0d] = "INVALID_REFERENCE",
		[0x0f] = "TPER_MALFUNCTION", [0x10] = "TRANSACTION_FAILURE", [0x11] = "RESPONSE_OVERFLOW",
		[0x12] = "AUTHORITY_LOCKED_OUT", [0x3f] = "FAIL",
	};

	if (status >= 0 && (size_t)status < ARRAY_SIZE(names) && names[status])
		return names[status];
	snprintf(buf, size, "status 0x%02x", (unsigned int)status & 0xff);
	return buf;
}
