/*
 * IDENTIFY page decoding: identify_decode() takes the decisions once
 * (which words are trusted, which standard a drive "likely" follows, the
 * capacity, the feature rows: ATA/ATAPI-1 through ACS-3) into struct
 * identify_facts, which -I's text (identify_text.c) and --json's
 * "identify" object (identify_json.c) render.  Pure functions of the
 * page's bytes: no I/O, no output.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "ata.h"
#include "identify.h"

/* ---- minor version codes (word 81) ---- */

struct minor_version {
	uint16_t code;
	uint8_t major;		/* 0: not an ATA version we can name */
	const char *text;
};

static const struct minor_version minor_versions[] = {
	{ 0x0000, 0, "Unspecified" },
	{ 0x0001, 1, "ATA-1 X3T9.2 781D prior to revision 4" },
	{ 0x0002, 1, "ATA-1 published, ANSI X3.221-1994" },
	{ 0x0003, 1, "ATA-1 X3T9.2 781D revision 4" },
	{ 0x0004, 2, "ATA-2 published, ANSI X3.279-1996" },
	{ 0x0005, 2, "ATA-2 X3T10 948D prior to revision 2k" },
	{ 0x0006, 3, "ATA-3 X3T10 2008D revision 1" },
	{ 0x0007, 2, "ATA-2 X3T10 948D revision 2k" },
	{ 0x0008, 3, "ATA-3 X3T10 2008D revision 0" },
	{ 0x0009, 2, "ATA-2 X3T10 948D revision 3" },
	{ 0x000a, 3, "ATA-3 published, ANSI X3.298-199x" },
	{ 0x000b, 3, "ATA-3 X3T10 2008D revision 6" },
	{ 0x000c, 3, "ATA-3 X3T13 2008D revision 7 and 7a" },
	{ 0x000d, 4, "ATA/ATAPI-4 X3T13 1153D revision 6" },
	{ 0x000e, 4, "ATA/ATAPI-4 T13 1153D revision 13" },
	{ 0x000f, 4, "ATA/ATAPI-4 X3T13 1153D revision 7" },
	{ 0x0010, 4, "ATA/ATAPI-4 T13 1153D revision 18" },
	{ 0x0011, 4, "ATA/ATAPI-4 T13 1153D revision 15" },
	{ 0x0012, 4, "ATA/ATAPI-4 published, ANSI INCITS 317-1998" },
	{ 0x0013, 5, "ATA/ATAPI-5 T13 1321D revision 3" },
	{ 0x0014, 4, "ATA/ATAPI-4 T13 1153D revision 14" },
	{ 0x0015, 5, "ATA/ATAPI-5 T13 1321D revision 1" },
	{ 0x0016, 5, "ATA/ATAPI-5 published, ANSI INCITS 340-2000" },
	{ 0x0017, 4, "ATA/ATAPI-4 T13 1153D revision 17" },
	{ 0x0018, 6, "ATA/ATAPI-6 T13 1410D revision 0" },
	{ 0x0019, 6, "ATA/ATAPI-6 T13 1410D revision 3a" },
	{ 0x001a, 7, "ATA/ATAPI-7 T13 1532D revision 1" },
	{ 0x001b, 6, "ATA/ATAPI-6 T13 1410D revision 2" },
	{ 0x001c, 6, "ATA/ATAPI-6 T13 1410D revision 1" },
	{ 0x001d, 7, "ATA/ATAPI-7 published, ANSI INCITS 397-2005" },
	{ 0x001e, 7, "ATA/ATAPI-7 T13 1532D revision 0" },
	{ 0x001f, 0, "Reserved" },
	{ 0x0020, 0, "Reserved" },
	{ 0x0021, 7, "ATA/ATAPI-7 T13 1532D revision 4a" },
	{ 0x0022, 6, "ATA/ATAPI-6 published, ANSI INCITS 361-2002" },
	{ 0x0027, 8, "ATA-8-ACS revision 3c" },
	{ 0x0033, 8, "ATA-8-ACS revision 3e" },
	{ 0x0042, 8, "ATA-8-ACS revision 3f" },
	{ 0x0052, 8, "ATA-8-ACS revision 3b" },
	{ 0x0107, 8, "ATA-8-ACS revision 2d" },
};

static const struct minor_version *find_minor(uint16_t code)
{
	for (size_t i = 0; i < ARRAY_SIZE(minor_versions); i++)
		if (minor_versions[i].code == code)
			return &minor_versions[i];
	return NULL;
}

/* ---- Commands/features tables ---- */

/* One row per feature bit, in the order they are printed. */
struct feature_bit {
	uint16_t group;	/* the word the bit is in */
	uint8_t bit;
	const char *text;
};

enum feature_group {
	FG_W59 = ATA_ID_MULTIPLE, FG_W69 = ATA_ID_ADDITIONAL_SUPPORT, FG_W76 = ATA_ID_SATA_CAPABILITY,
	FG_W78 = ATA_ID_SATA_FEATURES, FG_W82 = ATA_ID_COMMAND_SET_1, FG_W83 = ATA_ID_COMMAND_SET_2,
	FG_W84 = ATA_ID_COMMAND_SET_EXT, FG_W119 = ATA_ID_COMMAND_SET_3, FG_W206 = ATA_ID_SCT_COMMAND_TRANSPORT,
};

static const struct feature_bit feature_bits[] = {
	{ FG_W82, 0, "SMART feature set" },
	{ FG_W82, 1, "Security Mode feature set" },
	{ FG_W82, 2, "Removable Media feature set" },
	{ FG_W82, 3, "Power Management feature set" },
	{ FG_W82, 4, "PACKET command feature set" },
	{ FG_W82, 5, "Write cache" },
	{ FG_W82, 6, "Look-ahead" },
	{ FG_W82, 7, "Release interrupt" },
	{ FG_W82, 8, "SERVICE interrupt" },
	{ FG_W82, 9, "DEVICE_RESET command" },
	{ FG_W82, 10, "Host Protected Area feature set" },
	{ FG_W82, 11, "WRITE_VERIFY command" },
	{ FG_W82, 12, "WRITE_BUFFER command" },
	{ FG_W82, 13, "READ_BUFFER command" },
	{ FG_W82, 14, "NOP cmd" },
	{ FG_W82, 15, "obsolete 82[15]" },

	{ FG_W83, 0, "DOWNLOAD_MICROCODE" },
	{ FG_W83, 1, "READ/WRITE_DMA_QUEUED" },
	{ FG_W83, 2, "CFA feature set" },
	{ FG_W83, 3, "Advanced Power Management feature set" },
	{ FG_W83, 4, "Removable Media Status Notification feature set" },
	{ FG_W83, 5, "Power-Up In Standby feature set" },
	{ FG_W83, 6, "SET_FEATURES required to spinup after power up" },
	{ FG_W83, 7, "Address Offset Reserved Area Boot" },
	{ FG_W83, 8, "SET_MAX security extension" },
	{ FG_W83, 9, "Automatic Acoustic Management feature set" },
	{ FG_W83, 10, "48-bit Address feature set" },
	{ FG_W83, 11, "Device Configuration Overlay feature set" },
	{ FG_W83, 12, "Mandatory FLUSH_CACHE" },
	{ FG_W83, 13, "FLUSH_CACHE_EXT" },

	{ FG_W84, 0, "SMART error logging" },
	{ FG_W84, 1, "SMART self-test" },
	{ FG_W84, 2, "Media serial number" },
	{ FG_W84, 3, "Media Card Pass Through Command feature set" },
	{ FG_W84, 4, "Media Card Pass-Through" },
	{ FG_W84, 5, "General Purpose Logging feature set" },
	{ FG_W84, 6, "WRITE_{DMA|MULTIPLE}_FUA_EXT" },
	{ FG_W84, 7, "WRITE_DMA_QUEUED_FUA_EXT" },
	{ FG_W84, 8, "64-bit World wide name" },
	{ FG_W84, 9, "URG for READ_STREAM[_DMA]_EXT" },
	{ FG_W84, 10, "URG for WRITE_STREAM[_DMA]_EXT" },
	{ FG_W84, 11, "Time Limited Commands (TLC) feature set" },
	{ FG_W84, 12, "Command Completion Time Limit (CCTL)" },
	{ FG_W84, 13, "IDLE_IMMEDIATE with UNLOAD" },

	{ FG_W119, 0, "Disable Data Transfer After Error Detection" },
	{ FG_W119, 1, "Write-Read-Verify feature set" },
	{ FG_W119, 2, "WRITE_UNCORRECTABLE_EXT command" },
	{ FG_W119, 3, "{READ,WRITE}_DMA_EXT_GPL commands" },
	{ FG_W119, 4, "Segmented DOWNLOAD_MICROCODE" },
	{ FG_W119, 5, "Free-fall Control feature set" },
	{ FG_W119, 6, "unknown 119[6]" },
	{ FG_W119, 7, "unknown 119[7]" },
	{ FG_W119, 8, "unknown 119[8]" },
	{ FG_W119, 9, "unknown 119[9]" },
	{ FG_W119, 10, "unknown 119[10]" },
	{ FG_W119, 11, "unknown 119[11]" },
	{ FG_W119, 12, "unknown 119[12]" },
	{ FG_W119, 13, "unknown 119[13]" },

	{ FG_W76, 0, "unknown 76[0]" },
	{ FG_W76, 1, "Gen1 signaling speed (1.5Gb/s)" },
	{ FG_W76, 2, "Gen2 signaling speed (3.0Gb/s)" },
	{ FG_W76, 3, "Gen3 signaling speed (6.0Gb/s)" },
	{ FG_W76, 4, "unknown 76[4]" },
	{ FG_W76, 5, "unknown 76[5]" },
	{ FG_W76, 6, "unknown 76[6]" },
	{ FG_W76, 7, "unknown 76[7]" },
	{ FG_W76, 8, "Native Command Queueing (NCQ)" },
	{ FG_W76, 9, "Host-initiated interface power management" },
	{ FG_W76, 10, "Phy event counters" },
	{ FG_W76, 11, "Idle-Unload when NCQ is active" },
	{ FG_W76, 12, "NCQ priority information" },
	{ FG_W76, 13, "Host automatic Partial to Slumber transitions" },
	{ FG_W76, 14, "Device automatic Partial to Slumber transitions" },
	{ FG_W76, 15, "READ_LOG_DMA_EXT equivalent to READ_LOG_EXT" },

	{ FG_W78, 0, "unknown 78[0]" },
	{ FG_W78, 1, "Non-Zero buffer offsets in DMA Setup FIS" },
	{ FG_W78, 2, "DMA Setup Auto-Activate optimization" },
	{ FG_W78, 3, "Device-initiated interface power management" },
	{ FG_W78, 4, "In-order data delivery" },
	{ FG_W78, 5, "Asynchronous notification (eg. media change)" },
	{ FG_W78, 6, "Software settings preservation" },
	{ FG_W78, 7, "unknown 78[7]" },
	{ FG_W78, 8, "Device Sleep (DEVSLP)" },
	{ FG_W78, 9, "unknown 78[9]" },
	{ FG_W78, 10, "unknown 78[10]" },
	{ FG_W78, 11, "unknown 78[11]" },
	{ FG_W78, 12, "unknown 78[12]" },
	{ FG_W78, 13, "unknown 78[13]" },
	{ FG_W78, 14, "unknown 78[14]" },
	{ FG_W78, 15, "unknown 78[15]" },

	{ FG_W206, 0, "SMART Command Transport (SCT) feature set" },
	{ FG_W206, 1, "SCT Read/Write Long (AC1), obsolete" },
	{ FG_W206, 2, "SCT Write Same (AC2)" },
	{ FG_W206, 3, "SCT Error Recovery Control (AC3)" },
	{ FG_W206, 4, "SCT Features Control (AC4)" },
	{ FG_W206, 5, "SCT Data Tables (AC5)" },
	{ FG_W206, 6, "unknown 206[6]" },
	{ FG_W206, 7, "unknown 206[7]" },
	{ FG_W206, 8, "unknown 206[8]" },
	{ FG_W206, 9, "unknown 206[9]" },
	{ FG_W206, 10, "unknown 206[10]" },
	{ FG_W206, 11, "unknown 206[11]" },
	{ FG_W206, 12, "unknown 206[12] (vendor specific)" },
	{ FG_W206, 13, "unknown 206[13] (vendor specific)" },
	{ FG_W206, 14, "unknown 206[14] (vendor specific)" },
	{ FG_W206, 15, "unknown 206[15] (vendor specific)" },

	{ FG_W59, 10, "SANITIZE_ANTIFREEZE_LOCK_EXT command" },
	{ FG_W59, 12, "SANITIZE feature set" },
	{ FG_W59, 13, "CRYPTO_SCRAMBLE_EXT command" },
	{ FG_W59, 14, "OVERWRITE_EXT command" },
	{ FG_W59, 15, "BLOCK_ERASE_EXT command" },

	{ FG_W69, 0, "reserved 69[0]" },
	{ FG_W69, 1, "reserved 69[1]" },
	{ FG_W69, 2, "All write cache is non-volatile" },
	{ FG_W69, 3, "Extended number of user addressable sectors " },
	{ FG_W69, 4, "Device encrypts all user data" },
	{ FG_W69, 5, "Deterministic read ZEROs after TRIM" },
	{ FG_W69, 6, "Optional ATA device 28-bit commands" },
	{ FG_W69, 7, "IEEE 1667 authentication of transient storage devices" },
	{ FG_W69, 8, "DOWNLOAD MICROCODE DMA command" },
	{ FG_W69, 9, "SET MAX SETPASSWORD/UNLOCK DMA commands" },
	{ FG_W69, 10, "WRITE BUFFER DMA command" },
	{ FG_W69, 11, "READ BUFFER DMA command" },
	{ FG_W69, 12, "DEVICE CONFIGURATION SET/IDENTIFY DMA commands" },
	{ FG_W69, 13, "Long physical sector diagnostics" },
	{ FG_W69, 14, "Deterministic read data after TRIM" },
	{ FG_W69, 15, "CFast specification support" },
};


/* Each table row is listed at most once, and TRIM's row besides. */
_Static_assert(ARRAY_SIZE(feature_bits) + 1 <= ARRAY_SIZE(((struct identify_facts *)0)->features),
	       "identify_facts holds every feature row");

static void add_feature(struct identify_facts *f, const char *name, bool enabled, uint16_t word)
{
	f->features[f->nfeatures].name = name;
	f->features[f->nfeatures].enabled = enabled;
	f->features[f->nfeatures].word = word;
	f->nfeatures++;
}

/* The rows of one group whose "supported" bit is set. */
static void add_feature_group(struct identify_facts *f, enum feature_group group, uint16_t supported, uint16_t enabled)
{
	for (size_t i = 0; i < ARRAY_SIZE(feature_bits); i++) {
		const struct feature_bit *b = &feature_bits[i];
		uint16_t mask = (uint16_t)(1u << b->bit);

		if (b->group == group && (supported & mask))
			add_feature(f, b->text, enabled & mask, group);
	}
}

#define PACKET_TYPE_CDROM 5

static const char *const buffer_types[4] = { "unknown", "1Sect", "DualPort", "DualPortCache" };

const char *identify_buffer_type(unsigned int type)
{
	return type < ARRAY_SIZE(buffer_types) ? buffer_types[type] : NULL;
}

const char *identify_minor_version(uint16_t code)
{
	const struct minor_version *mv = find_minor(code);

	return mv ? mv->text : NULL;
}

/* ---- parts that need drive logs (not available for --Istdin) ---- */

unsigned int sector_configs(const uint8_t log[512], struct sector_config out[SECTOR_CONFIGS])
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < SECTOR_CONFIGS; i++) {
		const uint8_t *d = log + 16 * i;
		uint32_t words = (uint32_t)d[4] | (uint32_t)d[5] << 8 | (uint32_t)d[6] << 16 | (uint32_t)d[7] << 24;

		if (!(d[0] & 0x80))	/* not a valid descriptor */
			continue;
		out[n].index = i;
		out[n].bytes = words * 2;
		out[n].check = (uint16_t)(d[2] | d[3] << 8);
		n++;
	}
	return n;
}

void identify_string(const uint16_t *words, int nwords, char *dst)
{
	int n = 0;

	for (int i = 0; i < nwords; i++) {
		dst[n++] = (char)(words[i] >> 8);
		dst[n++] = (char)(words[i] & 0xff);
	}
	dst[n] = '\0';
	while (n > 0 && (dst[n - 1] == ' ' || dst[n - 1] == '\0'))
		dst[--n] = '\0';
}

/* Each ATA revision obsoleted the bit of an older one. */
static unsigned int oldest_listed_std(unsigned int major)
{
	if (major <= 4)
		return 1;
	if (major == 5)
		return 2;
	if (major <= 7)
		return 3;
	return 4;
}

/* The device uses words first defined by a later standard than it claims? */
static unsigned int guess_std_from_words(const uint16_t *w, const struct identify_facts *f, unsigned int std)
{
	unsigned int like = f->like_std;
	bool w83_valid = ata_id_word_valid(w[ATA_ID_COMMAND_SET_2]);

	if ((std == 7 || (!std && like < 8)) && (w[ATA_ID_SCT_COMMAND_TRANSPORT] & 1))
		return 8;
	if ((std == 5 || (!std && like < 6)) &&
	    ((w83_valid && (w[ATA_ID_COMMAND_SET_2] & 0x3fff) > 0x00ff) ||
	     (ata_id_word_valid(w[ATA_ID_COMMAND_SET_EXT]) && (w[ATA_ID_COMMAND_SET_EXT] & 0x27ff))))
		return 6;
	if ((std == 4 || (!std && like < 5)) &&
	    (((w[ATA_ID_INTEGRITY] & 0xff) == 0xa5 && !f->checksum) || ata_id_word_valid(w[ATA_ID_HW_RESET_RESULT]) ||
	     (w83_valid && (w[ATA_ID_COMMAND_SET_2] & 0x3fff) > 0x001f)))
		return 5;
	if ((std == 3 || (!std && like < 4)) &&
	    ((w83_valid && ((w[ATA_ID_COMMAND_SET_2] & 0x3fff) > 0 || (w[ATA_ID_COMMAND_SET_1] & 0x77ff) > 0x000f)) ||
	     ata_id_word_valid(w[ATA_ID_CAPABILITY_2]) || ((w[ATA_ID_FIELD_VALID] & 4) && w[ATA_ID_UDMA_MODES]) || (w[ATA_ID_REMOVABLE_STATUS] & 3) == 1))
		return 4;
	if ((std == 2 || (!std && like < 3)) && w83_valid)
		return 3;
	if ((std == 1 || (!std && like < 2)) && ((w[ATA_ID_CAPABILITY] & 0x0c00) || (w[ATA_ID_FIELD_VALID] & 2)))
		return 2;
	return like;
}

/* The standards the page claims and the one it most resembles (words 80, 81 and the words in use). */
static void decide_standards(const uint16_t *w, struct identify_facts *f)
{
	const struct minor_version *mv = find_minor(w[ATA_ID_MINOR_VERSION]);

	if (f->cdrom) {
		f->like_std = 2;
		return;
	}
	if (w[ATA_ID_MINOR_VERSION] && w[ATA_ID_MINOR_VERSION] <= 0x22 && f->like_std < 3)
		f->like_std = 3;
	if (mv && mv->major && w[ATA_ID_MINOR_VERSION]) {
		f->std = mv->major;
		f->used = mv->text;
	}
	if (ata_id_word_reported(w[ATA_ID_MAJOR_VERSION])) {
		unsigned int floor = oldest_listed_std(f->like_std);

		for (unsigned int v = 14; v > floor; v--) {
			if (!(w[ATA_ID_MAJOR_VERSION] & (1u << v)))
				continue;
			f->listed_majors |= (uint16_t)(1u << v);
			if (v > f->like_std) {
				f->like_std = v;
				floor = oldest_listed_std(v);
			}
			if (f->min_std > v)
				f->min_std = v;
		}
		if (f->like_std < 3)
			f->like_std = 3;
	}
	if (f->like_std < f->std)
		f->like_std = f->std;
	f->like_std = guess_std_from_words(w, f, f->std);
}

/* Words 57-58, the current CHS capacity; ATA-1 left their order open, so take the order nearer C*H*S. */
uint32_t identify_chs_current_capacity(const uint16_t *w, uint64_t chs_product, unsigned int like_std)
{
	uint32_t cap = (uint32_t)w[ATA_ID_CUR_CAPACITY + 1] << 16 | w[ATA_ID_CUR_CAPACITY];
	uint32_t swapped = (uint32_t)w[ATA_ID_CUR_CAPACITY] << 16 | w[ATA_ID_CUR_CAPACITY + 1];

	if (like_std < 3 && llabs((long long)(cap - chs_product)) > llabs((long long)(swapped - chs_product)))
		return swapped;
	return cap;
}

/* C*H*S: the current geometry where words 54-56 are valid, else the default one. */
uint64_t identify_chs_product(const uint16_t *w)
{
	if (w[ATA_ID_FIELD_VALID] & 1)
		return (uint64_t)w[ATA_ID_CUR_CYLS] * w[ATA_ID_CUR_HEADS] * w[ATA_ID_CUR_SECTORS];
	return (uint64_t)w[ATA_ID_CYLS] * w[ATA_ID_HEADS] * w[ATA_ID_SECTORS];
}

/* Whether the page describes CHS addressing at all (9.65: not past 16,514,064 sectors without cylinders). */
bool identify_has_chs(const uint16_t *w, uint32_t lba28)
{
	return !(lba28 > 0x00FBFC10 && !w[ATA_ID_CYLS]);
}

uint32_t identify_lba28_capacity(const uint16_t *w)
{
	return (w[ATA_ID_CAPABILITY] & 0x200) ? (uint32_t)w[ATA_ID_LBA_CAPACITY + 1] << 16 | w[ATA_ID_LBA_CAPACITY] : 0;
}

/*
 * The one capacity rule, as "device size" has always been computed: the
 * 48-bit count where 48-bit addressing is supported, else the larger of
 * the 28-bit count and the current CHS capacity, else C*H*S.
 */
static uint64_t capacity_rule(const uint16_t *w, unsigned int like_std)
{
	uint32_t lba28 = identify_lba28_capacity(w), chs_cap = 0;
	uint64_t chs_product = 0;

	if ((w[ATA_ID_CAPABILITY] & 0x200) && ata_id_word_valid(w[ATA_ID_COMMAND_SET_2]) && (w[ATA_ID_COMMAND_SET_2] & 0x0400)) {
		uint64_t lba48 = (uint64_t)w[ATA_ID_LBA48_CAPACITY + 3] << 48 | (uint64_t)w[ATA_ID_LBA48_CAPACITY + 2] << 32 | (uint64_t)w[ATA_ID_LBA48_CAPACITY + 1] << 16 | w[ATA_ID_LBA48_CAPACITY];

		if (lba48)
			return lba48;
	}
	if (identify_has_chs(w, lba28)) {
		chs_product = identify_chs_product(w);
		if (w[ATA_ID_FIELD_VALID] & 1)
			chs_cap = identify_chs_current_capacity(w, chs_product, like_std);
	}
	if (lba28 || chs_cap)
		return lba28 > chs_cap ? lba28 : chs_cap;
	return chs_product;
}

/* The feature rows -I lists, in its order: words 82-84, 119, 76, 78, 206, 59, then 69 and TRIM. */
static void decide_features(const uint16_t *w, struct identify_facts *f)
{
	if (ata_id_word_valid(w[ATA_ID_COMMAND_SET_2])) {
		bool sata = f->transport == 1;

		add_feature_group(f, FG_W82, w[ATA_ID_COMMAND_SET_1] & 0x7fff, w[ATA_ID_CFS_ENABLE_1]);
		add_feature_group(f, FG_W83, w[ATA_ID_COMMAND_SET_2] & 0x3fff, w[ATA_ID_CFS_ENABLE_2]);
		if (ata_id_word_valid(w[ATA_ID_COMMAND_SET_EXT]) && ata_id_word_valid(w[ATA_ID_CFS_DEFAULT])) {
			add_feature_group(f, FG_W84, w[ATA_ID_COMMAND_SET_EXT] & 0x3fff, w[ATA_ID_CFS_DEFAULT]);
			if ((w[ATA_ID_COMMAND_SET_EXT] & 0x1800) == 0x1800 && ata_id_word_reported(w[ATA_ID_TLC_TIMER]))
				f->tlc_msec = 10 * (unsigned int)w[ATA_ID_TLC_TIMER];
		}
		if ((w[ATA_ID_CFS_ENABLE_2] & 0x8000) && ata_id_word_valid(w[ATA_ID_COMMAND_SET_3]) && ata_id_word_valid(w[ATA_ID_COMMAND_SET_4]))
			add_feature_group(f, FG_W119, w[ATA_ID_COMMAND_SET_3] & 0x3fff, w[ATA_ID_COMMAND_SET_4]);
		if (sata || ata_id_word_reported(w[ATA_ID_SATA_CAPABILITY]))
			add_feature_group(f, FG_W76, w[ATA_ID_SATA_CAPABILITY], w[ATA_ID_SATA_CAPABILITY]);
		if (sata || ata_id_word_reported(w[ATA_ID_SATA_FEATURES]))
			add_feature_group(f, FG_W78, w[ATA_ID_SATA_FEATURES], w[ATA_ID_SATA_FEATURES_ENABLED]);
		if (w[ATA_ID_SCT_COMMAND_TRANSPORT] & 1)
			add_feature_group(f, FG_W206, w[ATA_ID_SCT_COMMAND_TRANSPORT], w[ATA_ID_SCT_COMMAND_TRANSPORT] & 0x3f);
		if (w[ATA_ID_MULTIPLE] & 0x1000)
			add_feature_group(f, FG_W59, w[ATA_ID_MULTIPLE], w[ATA_ID_MULTIPLE]);
	}
	if (f->like_std > 6) {
		/* The TRIM bits of word 69 only mean something next to word 169. */
		uint16_t w69 = w[ATA_ID_ADDITIONAL_SUPPORT] & (uint16_t)~(ATA_ID_TRIM_ZEROES | ATA_ID_TRIM_DETERMINISTIC);

		add_feature_group(f, FG_W69, w69, w69);
		if (ata_id_has_trim(w)) {
			add_feature(f, "Data Set Management TRIM supported", true, ATA_ID_DATA_SET_MANAGEMENT);
			if (w[ATA_ID_ADDITIONAL_SUPPORT] & ATA_ID_TRIM_DETERMINISTIC) {
				uint16_t which = (w[ATA_ID_ADDITIONAL_SUPPORT] & ATA_ID_TRIM_ZEROES) ? ATA_ID_TRIM_ZEROES
									   : ATA_ID_TRIM_DETERMINISTIC;
				add_feature_group(f, FG_W69, which, which);
			}
		}
	}
}

static bool is_cfa(const uint16_t *w)
{
	return w[ATA_ID_CONFIG] == 0x848a || w[ATA_ID_CONFIG] == 0x844a || (w[ATA_ID_COMMAND_SET_2] & 0xc004) == 0x4004;
}

void identify_logs_wanted(const uint16_t id[IDENTIFY_WORDS], bool *sector_config, bool *sata_settings)
{
	bool known = is_cfa(id) || !(id[ATA_ID_CONFIG] & 0x8000) || !(id[ATA_ID_CONFIG] & 0x4000);
	bool atapi = !is_cfa(id) && (id[ATA_ID_CONFIG] & 0xc000) == 0x8000;

	/* Where -I prints from them: the logical sector size line, and the Device Sleep section. */
	*sector_config = known && !atapi && ata_id_word_valid(id[ATA_ID_SECTOR_SIZE]);
	*sata_settings = known && (id[ATA_ID_SATA_FEATURES] & 0x0100);
}

/* Word 0 (and the CFA signatures): which kind of device, and the standard that alone implies. */
static int decide_kind(const uint16_t *w, struct identify_facts *f)
{
	if (is_cfa(w)) {
		f->kind = IDENTIFY_CFA;
		f->like_std = 4;
	} else if (!(w[ATA_ID_CONFIG] & 0x8000)) {
		f->kind = IDENTIFY_ATA;
	} else if (!(w[ATA_ID_CONFIG] & 0x4000)) {
		f->kind = IDENTIFY_ATAPI;
		f->packet_type = (w[ATA_ID_CONFIG] >> 8) & 0x1f;
		f->cdrom = f->packet_type == PACKET_TYPE_CDROM;
		f->like_std = 3;
	} else {
		f->kind = IDENTIFY_UNKNOWN;
		return EINVAL;
	}
	return 0;
}

/* Word 2 takes only these four values (ATA/ATAPI-5 and later). */
bool identify_specific_config_valid(const uint16_t *w)
{
	uint16_t v = w[ATA_ID_SPECIFIC_CONFIG];

	return v == 0x37c8 || v == 0x738c || v == 0x8c73 || v == 0xc837;
}

int identify_decode(const uint16_t id[IDENTIFY_WORDS], struct identify_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->like_std = 1;
	f->min_std = 0xffff;
	for (int i = 0; i < IDENTIFY_WORDS; i++)
		f->checksum += (uint8_t)(id[i] + (id[i] >> 8));
	if (decide_kind(id, f))
		return EINVAL;
	if (identify_specific_config_valid(id))
		f->like_std = 5;
	if (ata_id_word_reported(id[ATA_ID_TRANSPORT_MAJOR]))
		f->transport = id[ATA_ID_TRANSPORT_MAJOR] >> 12;
	decide_standards(id, f);
	if (f->min_std == 0xffff)
		f->min_std = f->like_std > 4 ? f->like_std - 3 : 1;
	f->capacity = capacity_rule(id, f->like_std);
	decide_features(id, f);
	return 0;
}

/* ---- capacity helpers shared with the command code ---- */

uint64_t identify_capacity(const uint16_t id[IDENTIFY_WORDS])
{
	/* Drives sent commands follow ATA-3 or later: words 57-58 in the standard's order. */
	return capacity_rule(id, 3);
}

unsigned int identify_sector_bytes(const uint16_t id[IDENTIFY_WORDS])
{
	unsigned int words = 256;

	if (ata_id_word_valid(id[ATA_ID_SECTOR_SIZE]) && (id[ATA_ID_SECTOR_SIZE] & (1u << 12)))
		words = (unsigned int)id[ATA_ID_LOGICAL_SECTOR_SIZE + 1] << 16 | id[ATA_ID_LOGICAL_SECTOR_SIZE];
	return 2 * words;
}
