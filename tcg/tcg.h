/*
 * TCG storage (Storage Architecture Core Specification 2.01, Opal SSC
 * 2.01, Enterprise SSC, Pyrite, Opalite, Ruby, Feature Sets): what a
 * drive says about itself in Level 0 Discovery (security protocol 01h,
 * ComID 0001h), decoded.  Pure functions of the bytes that arrived: every
 * length the drive claims is bounded by them.
 */
#ifndef HDPARM_TCG_H
#define HDPARM_TCG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Security protocols (SPC-4 7.7.1): 00h the list of those supported, 01h-06h TCG's. */
#define TCG_PROTOCOL_LIST 0x00
#define TCG_PROTOCOL_TCG 0x01
#define TCG_COMID_LEVEL0 0x0001
#define TCG_LEVEL0_HEADER 48	/* length of parameter data (4), revision (4), reserved (8), vendor unique (32) */
#define TCG_DISCOVERY_BYTES 2048	/* what is asked for: room for every feature of any drive seen */

/* Feature codes (Core Specification 3.3.6, the SSCs and Feature Sets). */
enum tcg_feature_code {
	TCG_FEATURE_TPER = 0x0001,
	TCG_FEATURE_LOCKING = 0x0002,
	TCG_FEATURE_GEOMETRY = 0x0003,
	TCG_FEATURE_ENTERPRISE = 0x0100,
	TCG_FEATURE_OPAL1 = 0x0200,
	TCG_FEATURE_SINGLE_USER = 0x0201,
	TCG_FEATURE_DATASTORE = 0x0202,
	TCG_FEATURE_OPAL2 = 0x0203,
	TCG_FEATURE_OPALITE = 0x0301,
	TCG_FEATURE_PYRITE1 = 0x0302,
	TCG_FEATURE_PYRITE2 = 0x0303,
	TCG_FEATURE_RUBY = 0x0304,
	TCG_FEATURE_BLOCK_SID = 0x0402,
	TCG_FEATURE_NAMESPACE_LOCKING = 0x0403,
	TCG_FEATURE_DATA_REMOVAL = 0x0404,
};

/* One field of a feature descriptor, at offset from the descriptor's first byte. */
enum tcg_field_kind { TCG_BIT, TCG_U8, TCG_U16, TCG_U32, TCG_U64 };
struct tcg_field {
	const char *text;	/* as the text names it */
	const char *json;	/* as the JSON names it */
	uint8_t offset;
	enum tcg_field_kind kind;
	uint8_t mask;		/* TCG_BIT: the bit */
	bool hex;		/* a number shown in hex (ComIDs, PIN indicators, bit masks) */
};

#define TCG_MAX_FIELDS 12
struct tcg_feature_desc {
	uint16_t code;
	const char *text, *json;
	struct tcg_field fields[TCG_MAX_FIELDS];	/* ended by a NULL text */
};

/* The description of a feature code; NULL for one this table does not know. */
const struct tcg_feature_desc *tcg_feature_desc(uint16_t code);

/* One descriptor as it arrived. */
struct tcg_descriptor {
	uint16_t code;
	uint8_t version;	/* the upper nibble of byte 2 */
	uint8_t length;		/* bytes after its 4-byte header */
	size_t offset;		/* of its header, in the data */
	bool truncated;		/* its length runs past the data that came */
};

#define TCG_MAX_DESCRIPTORS 32
struct tcg_level0 {
	uint32_t length;	/* LENGTH OF PARAMETER DATA: the bytes after that field */
	uint32_t revision;
	size_t used;		/* the bytes decoded: what the header claims, bounded by what came */
	size_t got;		/* the bytes that came */
	bool cut;		/* the header claims more than came */
	unsigned int n;
	struct tcg_descriptor d[TCG_MAX_DESCRIPTORS];
	bool more;		/* more descriptors than d holds */
};

/* Level 0 Discovery of got bytes; false where not even the header came. */
bool tcg_decode_level0(const uint8_t *buf, size_t got, struct tcg_level0 *l0);

/* The descriptor that runs past the answer's end (the last decoded), or NULL. */
const struct tcg_descriptor *tcg_cut_descriptor(const struct tcg_level0 *l0);

/* The value of field f of descriptor d; false (and 0) where the descriptor is too short for it. */
bool tcg_field_value(const uint8_t *buf, const struct tcg_level0 *l0, const struct tcg_descriptor *d,
		     const struct tcg_field *f, uint64_t *value);

/* The Locking feature's state, where the drive reports one. */
struct tcg_locking {
	bool present;
	bool supported, enabled, locked, media_encryption, mbr_enabled, mbr_done;
};
void tcg_locking_of(const uint8_t *buf, const struct tcg_level0 *l0, struct tcg_locking *lk);

/*
 * The Security Subsystem Class the drive follows (its feature code: Opal 2
 * first, Enterprise last) and the base ComID its sessions use; false
 * where no SSC descriptor with a ComID came.
 */
bool tcg_ssc_of(const uint8_t *buf, const struct tcg_level0 *l0, uint16_t *code, uint16_t *base_comid);
/* Block SID Authentication says SID authentication is blocked (until the next power cycle or reset). */
bool tcg_sid_blocked(const uint8_t *buf, const struct tcg_level0 *l0);
/* The protocols of security protocol 00h's list (got bytes) into list; how many (at most max). */
unsigned int tcg_decode_protocols(const uint8_t *buf, size_t got, uint8_t *list, unsigned int max);

#endif
