/*
 * The TCG session layer (Storage Architecture Core Specification 2.01,
 * 3.2): the data stream's tokens (atoms, lists, names, calls), a method
 * call, the ComPacket/Packet/SubPacket that carries it, and, back from the
 * drive, the tokens of its response and the method status.  Pure
 * functions of bytes: nothing here sends anything, and every length a
 * response claims is bounded by the bytes that came.
 */
#ifndef HDPARM_TCG_SESSION_H
#define HDPARM_TCG_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Control tokens (Core 3.2.2.3.2). */
enum tcg_token {
	TCG_START_LIST = 0xf0,
	TCG_END_LIST = 0xf1,
	TCG_START_NAME = 0xf2,
	TCG_END_NAME = 0xf3,
	TCG_CALL = 0xf8,
	TCG_END_OF_DATA = 0xf9,
	TCG_END_OF_SESSION = 0xfa,
	TCG_EMPTY = 0xff,
};

#define TCG_UID_BYTES 8
#define TCG_COMPACKET_HEADER 20
#define TCG_PACKET_HEADER 24
#define TCG_SUBPACKET_HEADER 12
#define TCG_HEADERS (TCG_COMPACKET_HEADER + TCG_PACKET_HEADER + TCG_SUBPACKET_HEADER)

/* A token stream being written: overflow set (and nothing more written) where it would not fit. */
struct tcg_writer {
	uint8_t *p;
	size_t len, cap;
	bool overflow;
};

void tcg_put_token(struct tcg_writer *w, enum tcg_token t);
/* An unsigned integer: a tiny atom below 64, else a short atom of the fewest bytes. */
void tcg_put_uint(struct tcg_writer *w, uint64_t v);
/* A byte sequence: a short atom up to 15 bytes, a medium one up to 2047. */
void tcg_put_bytes(struct tcg_writer *w, const uint8_t *data, size_t n);
void tcg_put_uid(struct tcg_writer *w, const uint8_t uid[TCG_UID_BYTES]);
/* The head of a method call: CALL, the invoking UID, the method UID, and the parameter list opened. */
void tcg_call_begin(struct tcg_writer *w, const uint8_t invoking[TCG_UID_BYTES], const uint8_t method[TCG_UID_BYTES]);
/* Its tail: the parameter list closed, END OF DATA, and the status list the host sends (0, 0, 0). */
void tcg_call_end(struct tcg_writer *w);

/*
 * The ComPacket that carries payload (n bytes) to comid in session
 * tsn/hsn, into out (cap bytes), padded to a multiple of 512; its length,
 * 0 where it would not fit.
 */
size_t tcg_packetize(uint8_t *out, size_t cap, uint16_t comid, uint32_t tsn, uint32_t hsn, const uint8_t *payload,
		     size_t n);

/* A response's ComPacket opened: the session numbers and the SubPacket's data within the bytes that came. */
struct tcg_response {
	uint32_t outstanding;	/* the ComPacket's OUTSTANDING DATA: more to ask for */
	uint32_t tsn, hsn;
	const uint8_t *data;
	size_t len;
};
/* false, with *why, where a header is short, or a length runs past what came or past its container. */
bool tcg_unpacketize(const uint8_t *buf, size_t got, struct tcg_response *r, const char **why);

/* One token of a stream. */
struct tcg_item {
	enum { TCG_ITEM_ATOM, TCG_ITEM_CONTROL } kind;
	uint8_t control;	/* TCG_ITEM_CONTROL: the token */
	bool bytes;		/* an atom of bytes, else an integer */
	uint64_t value;		/* an integer atom of at most 8 bytes */
	const uint8_t *data;	/* the atom's bytes */
	size_t n;
};
/* The token at *pos of data (len bytes), *pos moved past it; false at the end or where it runs past len. */
bool tcg_next(const uint8_t *data, size_t len, size_t *pos, struct tcg_item *it);

/* The method status at the end of a response (Core 3.2.4.2): 0 success; -1 where the stream has none. */
int tcg_method_status(const uint8_t *data, size_t len);

/* "NOT_AUTHORIZED"; "status 0x2a" for one the table does not name (buf holds it). */
const char *tcg_status_name(int status, char *buf, size_t size);

#endif
