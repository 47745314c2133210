/*
 * tcg_session.c against another tool's packets: each "data:" line of a
 * double's log (a ComPacket sent with IF-SEND) is opened with
 * tcg_unpacketize, its tokens read with tcg_next and written again with
 * the tcg_put_* calls, and packed with tcg_packetize under the same ComID
 * and session numbers.  Prints one line a packet: "same N" when the bytes
 * equal the original's, else "differs N: ..." with the first difference.
 * Build: cc -Itcg -Ilib tests/tools/tcg-reencode.c tcg/tcg_session.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tcg_session.h"
#include "unaligned.h"

static size_t parse_hex(const char *s, uint8_t *out, size_t cap)
{
	size_t n = 0;
	unsigned int b;
	int used;

	while (n < cap && sscanf(s, " %2x%n", &b, &used) == 1) {
		out[n++] = (uint8_t)b;
		s += used;
	}
	return n;
}

/* The token it, written again. */
static void rewrite(struct tcg_writer *w, const struct tcg_item *it)
{
	if (it->kind == TCG_ITEM_CONTROL)
		tcg_put_token(w, (enum tcg_token)it->control);
	else if (it->bytes)
		tcg_put_bytes(w, it->data, it->n);
	else
		tcg_put_uint(w, it->value);
}

int main(void)
{
	static uint8_t in[65536], payload[65536], again[65536];
	char line[300000];
	int k = 0, bad = 0;

	while (fgets(line, sizeof(line), stdin)) {
		struct tcg_response r;
		struct tcg_writer w = { .p = payload, .cap = sizeof(payload) };
		struct tcg_item it;
		const char *why;
		size_t n, pos = 0, len;

		if (strncmp(line, "data:", 5) != 0)
			continue;
		k++;
		n = parse_hex(line + 5, in, sizeof(in));
		if (!tcg_unpacketize(in, n, &r, &why)) {
			printf("differs %d: not opened: %s\n", k, why);
			bad = 1;
			continue;
		}
		while (tcg_next(r.data, r.len, &pos, &it))
			rewrite(&w, &it);
		len = tcg_packetize(again, sizeof(again), get_be16(in + 4), r.tsn, r.hsn, payload, w.len);
		if (pos != r.len || w.overflow || len != n || memcmp(again, in, n) != 0) {
			size_t at = 0;

			while (at < n && at < len && again[at] == in[at])
				at++;
			printf("differs %d: tokens read to %zu of %zu, %zu bytes written of %zu, first difference at byte %zu\n",
			       k, pos, r.len, len, n, at);
			bad = 1;
			continue;
		}
		printf("same %d (%zu bytes)\n", k, n);
	}
	return bad || !k;
}
