/*
 * Level 0 Discovery decoded (TCG Storage Architecture Core Specification
 * 3.3.6): a 48-byte header, then feature descriptors of a 2-byte code,
 * a version nibble and a length byte each.  The fields of each known
 * feature are one table, as the SSCs and Feature Sets lay them out; an
 * unknown feature is kept with its code, version and length.
 */
#include <string.h>

#include "array.h"
#include "tcg.h"
#include "unaligned.h"

#define BIT(t, j, off, m) { t, j, off, TCG_BIT, m, false }
#define NUM(t, j, off, k) { t, j, off, k, 0, false }
#define HEX(t, j, off, k) { t, j, off, k, 0, true }
/* The ComIDs and the PIN indicators every SSC after Opal 1 carries at the same places. */
#define COMIDS HEX("base ComID", "base_comid", 4, TCG_U16), NUM("ComIDs", "number_of_comids", 6, TCG_U16)
#define PINS HEX("initial C_PIN_SID", "initial_pin_indicator", 13, TCG_U8), \
	HEX("C_PIN_SID after revert", "reverted_pin_indicator", 14, TCG_U8)
#define OPAL2_FIELDS { COMIDS, BIT("range crossing", "range_crossing", 8, 0x01), \
	NUM("locking SP admins", "locking_admins", 9, TCG_U16), NUM("locking SP users", "locking_users", 11, TCG_U16), PINS }

static const struct tcg_feature_desc features[] = {
	{ TCG_FEATURE_TPER, "TPer", "tper",
	  { BIT("sync", "sync", 4, 0x01), BIT("async", "async", 4, 0x02), BIT("ACK/NAK", "ack_nak", 4, 0x04),
	    BIT("buffer management", "buffer_management", 4, 0x08), BIT("streaming", "streaming", 4, 0x10),
	    BIT("ComID management", "comid_management", 4, 0x40) } },
	{ TCG_FEATURE_LOCKING, "Locking", "locking",
	  { BIT("locking supported", "locking_supported", 4, 0x01), BIT("locking enabled", "locking_enabled", 4, 0x02),
	    BIT("locked", "locked", 4, 0x04), BIT("media encryption", "media_encryption", 4, 0x08),
	    BIT("MBR enabled", "mbr_enabled", 4, 0x10), BIT("MBR done", "mbr_done", 4, 0x20),
	    BIT("MBR shadowing not supported", "mbr_shadowing_not_supported", 4, 0x40) } },
	{ TCG_FEATURE_GEOMETRY, "Geometry", "geometry",
	  { BIT("align", "align", 4, 0x01), NUM("logical block size", "logical_block_size", 12, TCG_U32),
	    NUM("alignment granularity", "alignment_granularity", 16, TCG_U64),
	    NUM("lowest aligned LBA", "lowest_aligned_lba", 24, TCG_U64) } },
	{ TCG_FEATURE_ENTERPRISE, "Enterprise SSC", "enterprise",
	  { COMIDS, BIT("range crossing", "range_crossing", 8, 0x01) } },
	{ TCG_FEATURE_OPAL1, "Opal SSC 1", "opal1", { COMIDS, BIT("range crossing", "range_crossing", 8, 0x01) } },
	{ TCG_FEATURE_SINGLE_USER, "Single User Mode", "single_user",
	  { NUM("locking objects", "locking_objects", 4, TCG_U32), BIT("any", "any", 8, 0x01), BIT("all", "all", 8, 0x02),
	    BIT("policy", "policy", 8, 0x04) } },
	{ TCG_FEATURE_DATASTORE, "DataStore", "datastore",
	  { NUM("max tables", "max_tables", 6, TCG_U16), NUM("max size", "max_size", 8, TCG_U32),
	    NUM("alignment", "alignment", 12, TCG_U32) } },
	{ TCG_FEATURE_OPAL2, "Opal SSC 2", "opal2", OPAL2_FIELDS },
	{ TCG_FEATURE_OPALITE, "Opalite SSC", "opalite", { COMIDS, PINS } },
	{ TCG_FEATURE_PYRITE1, "Pyrite SSC 1", "pyrite1", { COMIDS, PINS } },
	{ TCG_FEATURE_PYRITE2, "Pyrite SSC 2", "pyrite2", { COMIDS, PINS } },
	{ TCG_FEATURE_RUBY, "Ruby SSC", "ruby", OPAL2_FIELDS },
	{ TCG_FEATURE_BLOCK_SID, "Block SID Authentication", "block_sid",
	  { BIT("SID differs from MSID", "sid_value_state", 4, 0x01), BIT("SID blocked", "sid_blocked", 4, 0x02),
	    BIT("hardware reset clears the block", "hardware_reset", 5, 0x01) } },
	{ TCG_FEATURE_NAMESPACE_LOCKING, "Namespace Locking", "namespace_locking",
	  { BIT("range C", "range_c", 4, 0x80), BIT("range P", "range_p", 4, 0x40),
	    NUM("max key count", "max_key_count", 8, TCG_U32), NUM("unused key count", "unused_key_count", 12, TCG_U32),
	    NUM("max ranges per namespace", "max_ranges_per_namespace", 16, TCG_U32) } },
	{ TCG_FEATURE_DATA_REMOVAL, "Data Removal Mechanism", "data_removal",
	  { BIT("removal in progress", "operation_processing", 5, 0x01),
	    HEX("mechanisms", "supported_mechanisms", 6, TCG_U8), HEX("time formats", "time_formats", 7, TCG_U8),
	    NUM("overwrite time", "overwrite_time", 8, TCG_U16), NUM("block erase time", "block_erase_time", 10, TCG_U16),
	    NUM("crypto erase time", "crypto_erase_time", 12, TCG_U16),
	    NUM("vendor erase time", "vendor_erase_time", 18, TCG_U16) } },
};

const struct tcg_feature_desc *tcg_feature_desc(uint16_t code)
{
	for (size_t i = 0; i < ARRAY_SIZE(features); i++)
		if (features[i].code == code)
			return &features[i];
	return NULL;
}

bool tcg_decode_level0(const uint8_t *buf, size_t got, struct tcg_level0 *l0)
{
	size_t pos = TCG_LEVEL0_HEADER;

	memset(l0, 0, sizeof(*l0));
	if (got < TCG_LEVEL0_HEADER)
		return false;
	l0->length = get_be32(buf);
	l0->revision = get_be32(buf + 4);
	/* The length counts the bytes after itself; what came bounds it. */
	l0->used = (uint64_t)l0->length + 4 < got ? (size_t)l0->length + 4 : got;
	l0->got = got;
	l0->cut = (uint64_t)l0->length + 4 > got;
	while (pos + 4 <= l0->used) {
		struct tcg_descriptor *d;

		if (l0->n == TCG_MAX_DESCRIPTORS) {
			l0->more = true;
			break;
		}
		d = &l0->d[l0->n++];
		d->code = get_be16(buf + pos);
		d->version = buf[pos + 2] >> 4;
		d->length = buf[pos + 3];
		d->offset = pos;
		d->truncated = pos + 4 + d->length > l0->used;
		if (d->truncated)
			break;
		pos += 4u + d->length;
	}
	return true;
}

bool tcg_field_value(const uint8_t *buf, const struct tcg_level0 *l0, const struct tcg_descriptor *d,
		     const struct tcg_field *f, uint64_t *value)
{
	static const size_t widths[] = { [TCG_BIT] = 1, [TCG_U8] = 1, [TCG_U16] = 2, [TCG_U32] = 4, [TCG_U64] = 8 };
	size_t end = d->offset + 4u + d->length;
	const uint8_t *p = buf + d->offset + f->offset;

	*value = 0;
	if (end > l0->used)
		end = l0->used;
	if (d->offset + f->offset + widths[f->kind] > end)
		return false;
	switch (f->kind) {
	case TCG_BIT:
		*value = (p[0] & f->mask) != 0;
		break;
	case TCG_U8:
		*value = p[0];
		break;
	case TCG_U16:
		*value = get_be16(p);
		break;
	case TCG_U32:
		*value = get_be32(p);
		break;
	case TCG_U64:
		*value = get_be64(p);
		break;
	}
	return true;
}

const struct tcg_descriptor *tcg_cut_descriptor(const struct tcg_level0 *l0)
{
	for (unsigned int i = 0; i < l0->n; i++)
		if (l0->d[i].truncated)
			return &l0->d[i];
	return NULL;
}

/* The first descriptor of code, or NULL. */
static const struct tcg_descriptor *tcg_find(const struct tcg_level0 *l0, uint16_t code)
{
	for (unsigned int i = 0; i < l0->n; i++)
		if (l0->d[i].code == code)
			return &l0->d[i];
	return NULL;
}

void tcg_locking_of(const uint8_t *buf, const struct tcg_level0 *l0, struct tcg_locking *lk)
{
	const struct tcg_descriptor *d = tcg_find(l0, TCG_FEATURE_LOCKING);
	uint8_t bits;

	memset(lk, 0, sizeof(*lk));
	if (!d || d->offset + 5 > l0->used || d->length < 1)
		return;
	bits = buf[d->offset + 4];
	*lk = (struct tcg_locking){
		.present = true,
		.supported = bits & 0x01,
		.enabled = bits & 0x02,
		.locked = bits & 0x04,
		.media_encryption = bits & 0x08,
		.mbr_enabled = bits & 0x10,
		.mbr_done = bits & 0x20,
	};
}

unsigned int tcg_decode_protocols(const uint8_t *buf, size_t got, uint8_t *list, unsigned int max)
{
	size_t len;
	unsigned int n = 0;

	/* SPC-4 7.7.1: six reserved bytes, the list's length, the protocols. */
	if (got < 8)
		return 0;
	len = get_be16(buf + 6);
	for (size_t i = 0; i < len && 8 + i < got && n < max; i++)
		list[n++] = buf[8 + i];
	return n;
}

/* Field json of the first code descriptor, as the table places it; false where absent or cut short. */
static bool table_value(const uint8_t *buf, const struct tcg_level0 *l0, uint16_t code, const char *json, uint64_t *v)
{
	const struct tcg_descriptor *d = tcg_find(l0, code);
	const struct tcg_feature_desc *fd = tcg_feature_desc(code);

	*v = 0;
	for (const struct tcg_field *f = fd && d ? fd->fields : NULL; f && f->text; f++)
		if (strcmp(f->json, json) == 0)
			return tcg_field_value(buf, l0, d, f, v);
	return false;
}

bool tcg_ssc_of(const uint8_t *buf, const struct tcg_level0 *l0, uint16_t *code, uint16_t *base_comid)
{
	/* In this order where a drive lists several; each SSC's descriptor starts with its base ComID. */
	static const uint16_t sscs[] = {
		TCG_FEATURE_OPAL2, TCG_FEATURE_OPAL1, TCG_FEATURE_RUBY, TCG_FEATURE_PYRITE2, TCG_FEATURE_PYRITE1,
		TCG_FEATURE_OPALITE, TCG_FEATURE_ENTERPRISE,
	};
	uint64_t v;

	for (size_t i = 0; i < ARRAY_SIZE(sscs); i++)
		if (table_value(buf, l0, sscs[i], "base_comid", &v) && v) {
			*code = sscs[i];
			*base_comid = (uint16_t)v;
			return true;
		}
	return false;
}

bool tcg_sid_blocked(const uint8_t *buf, const struct tcg_level0 *l0)
{
	uint64_t v;

	return table_value(buf, l0, TCG_FEATURE_BLOCK_SID, "sid_blocked", &v) && v;
}
