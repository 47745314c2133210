/*
 * A drive's Level 0 Discovery and security protocol list, through every
 * decoder of tcg_discovery.c: exactly size bytes, so that a read beyond
 * what came is a heap overflow the sanitizer sees, whatever lengths the
 * bytes claim (the header's, each descriptor's); and as a session's
 * response: its packets opened, every token read, the method status and
 * SyncSession's session numbers; the SSC and its ComID.
 */
#include <stdint.h>
#include <string.h>

#include "tcg.h"
#include "tcg_methods.h"
#include "tcg_session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tcg_level0 l0;
	struct tcg_locking lk;
	uint8_t list[16];
	uint64_t v;

	struct tcg_response r;
	const char *why;

	if (tcg_decode_protocols(data, size, list, sizeof(list)) > sizeof(list))
		__builtin_trap();
	if (tcg_unpacketize(data, size, &r, &why)) {
		struct tcg_item it;
		size_t pos = 0, last = 0;

		if (r.data < data || r.data + r.len > data + size)
			__builtin_trap();
		while (tcg_next(r.data, r.len, &pos, &it)) {
			if (pos <= last || pos > r.len || (it.kind == TCG_ITEM_ATOM && it.data && it.data + it.n > r.data + r.len))
				__builtin_trap();
			last = pos;
		}
		tcg_method_status(r.data, r.len);
		{
			uint32_t hsn, tsn;

			tcg_read_sync_session(r.data, r.len, &hsn, &tsn);
		}
	}
	if (!tcg_decode_level0(data, size, &l0))
		return 0;
	if (l0.used > size || l0.n > TCG_MAX_DESCRIPTORS)
		__builtin_trap();
	for (unsigned int i = 0; i < l0.n; i++) {
		const struct tcg_descriptor *d = &l0.d[i];
		const struct tcg_feature_desc *fd = tcg_feature_desc(d->code);

		if (d->offset + 4 > l0.used || (!d->truncated && d->offset + 4u + d->length > l0.used))
			__builtin_trap();
		for (const struct tcg_field *f = fd ? fd->fields : NULL; f && f->text; f++)
			if (tcg_field_value(data, &l0, d, f, &v) && f->kind == TCG_BIT && v > 1)
				__builtin_trap();
	}
	tcg_locking_of(data, &l0, &lk);
	{
		uint16_t code, comid;

		tcg_ssc_of(data, &l0, &code, &comid);
		tcg_sid_blocked(data, &l0);
	}
	return 0;
}
