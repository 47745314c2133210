/*
 * IDENTIFY page decoding.  identify_decode() takes the decisions once
 * (which words are trusted, which standard a drive "likely" follows, the
 * capacity, the feature rows: ATA/ATAPI-1 through ACS-3) into struct
 * identify_facts; -I's text and --json's "identify" object are two
 * renderings of them.  The text layout follows hdparm 9.65 exactly,
 * because scripts parse it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "ata.h"
#include "identify.h"
#include "json.h"
#include "report.h"


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

#define W69_TRIM_ZEROES	(1u << 5)
#define W69_TRIM_DETERMINISTIC	(1u << 14)

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

/* ---- small text tables ---- */

static const char *const packet_device_types[32] = {
	"Direct-access device", "Sequential-access device", "Printer", "Processor",
	"Write-once device", "CD-ROM", "Scanner", "Optical memory", "Medium changer",
	"Communications device", "ACS-IT8 device", "ACS-IT8 device", "Array controller",
	"Enclosure services", "Reduced block command device", "Optical card reader/writer",
	"", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "Unknown",
};

#define PACKET_TYPE_CDROM 5

/* Word 0 bits 1..14 in ATA-1 drives. */
static const char *const ata1_config_bits[16] = {
	"reserved", "hard sectored", "soft sectored", "not MFM encoded ",
	"head switch time > 15us", "spindle motor control option", "fixed drive",
	"removable drive", "disk xfer rate <= 5Mbs", "disk xfer rate > 5Mbs, <= 10Mbs",
	"disk xfer rate > 5Mbs", "rotational speed tol.", "data strobe offset option",
	"track offset option", "format speed tolerance gap reqd", "ATAPI",
};

static const char *const buffer_types[4] = { "unknown", "1Sect", "DualPort", "DualPortCache" };

static const char *const security_bits[6] = {
	"supported", "enabled", "locked", "frozen", "expired: security count",
	"supported: enhanced erase",
};

static const char *const form_factors[6] = {
	NULL, "5.25 inch", "3.5 inch", "2.5 inch", "1.8 inch", "less than 1.8 inch",
};

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

/* Sector Configuration log: the logical sector sizes on offer. */
static void print_sector_size_list(const uint8_t *log)
{
	struct sector_config configs[SECTOR_CONFIGS];
	unsigned int n;

	if (!log || !(n = sector_configs(log, configs)))
		return;
	out(" [ Supported:");
	for (unsigned int i = 0; i < n; i++)
		out(" %u", (unsigned int)configs[i].bytes);
	out(" ]");
}

/* Identify Device Data log, SATA page: DEVSLP timings. */
static void print_devslp(const uint8_t *log)
{
	unsigned int deto, mdat;

	if (!log || !(log[0x37] & 0x80))
		return;
	mdat = log[0x30] & 0x1f;
	deto = log[0x31];
	out("Device Sleep:\n");
	out("\tDEVSLP Exit Timeout (DETO): %u ms (%s)\n", deto ? deto : 20, deto ? "drive" : "default");
	/* 9.65 labels MDAT by whether DETO was given; kept for identical output. */
	out("\tMinimum DEVSLP Assertion Time (MDAT): %u ms (%s)\n", mdat ? mdat : 10,
	       deto ? "drive" : "default");
}

/* ---- strings ---- */

/*
 * At most max characters of a NUL-terminated device string, each as
 * out_device_char() writes it, so that a page cannot drive the terminal
 * (9.65 printed the bytes as they came).
 */
static void out_device_string(const char *s, size_t max)
{
	for (size_t i = 0; i < max && s[i]; i++)
		out_device_char((uint8_t)s[i]);
}

/*
 * ATA strings hold two characters per word, first in the high byte.
 * Leading blanks are skipped, NULs dropped, the rest printed escaped.
 */
static void print_id_string(const uint16_t *w, unsigned int nwords)
{
	unsigned int i = 0;

	for (; i < nwords; i++, w++) {
		int hi = *w >> 8, lo = *w & 0xff;

		if (hi != ' ')
			break;
		if (lo != ' ') {
			if (lo)
				out_device_char((uint8_t)lo);
			w++;
			i++;
			break;
		}
	}
	for (; i < nwords; i++, w++) {
		if (*w >> 8)
			out_device_char((uint8_t)(*w >> 8));
		if (*w & 0xff)
			out_device_char((uint8_t)(*w & 0xff));
	}
	out_char('\n');
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

/* ---- the page, piece by piece ---- */

/* What the text's sections share: the page, its logs and the decisions taken from them. */
struct decode {
	const uint16_t *w;
	const struct identify_logs *logs;	/* never NULL */
	const struct identify_facts *f;
};

static void print_transport(const uint16_t *w)
{
	uint16_t major = w[ATA_ID_TRANSPORT_MAJOR], minor = w[ATA_ID_TRANSPORT_MINOR];
	unsigned int type, sub;
	static const char *const serial_revs[6] = {
		", ATA8-AST", ", SATA 1.0a", ", SATA II Extensions", ", SATA Rev 2.5",
		", SATA Rev 2.6", ", SATA Rev 3.0",
	};

	if (!ata_id_word_reported(major))
		return;
	out("\t%-20s", "Transport:");
	type = major >> 12;
	sub = major & 0xfff;
	if (type == 0) {
		out("Parallel");
		if (sub & 1)
			out(", ATA8-APT");
	} else if (type == 1) {
		out("Serial");
		/* 9.65 lists the revisions only when a bit other than 4 is set. */
		if (sub & 0x2f)
			for (int b = 0; b < 6; b++)
				if (sub & (1u << b))
					out("%s", serial_revs[b]);
	} else {
		out("0x%04x", major);
	}
	if (ata_id_word_reported(minor)) {
		out("; Revision: ");
		if (minor == 0x21)
			out("ATA8-AST T13 Project D1697 Revision 0b");
		else
			out("0x%04x", minor);
	}
	out_char('\n');
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

static void print_standards(const struct decode *d)
{
	const uint16_t *w = d->w;
	const struct identify_facts *f = d->f;

	out("Standards:");
	if (f->cdrom) {
		bool any = false;

		if (w[ATA_ID_ATAPI_USED] == 9) {
			any = true;
			out("\n\tUsed: ATAPI for CD-ROMs, SFF-8020i, r2.5");
		}
		if (ata_id_word_reported(w[ATA_ID_ATAPI_REVISIONS])) {
			any = true;
			out("\n\tSupported: CD-ROM ATAPI");
			for (unsigned int v = 1; v < 15; v++)
				if (w[ATA_ID_ATAPI_REVISIONS] & (1u << v))
					out("-%u ", v);
		}
		out(any ? "\n" : "\n\tLikely used CD-ROM ATAPI-1\n");
		return;
	}
	if (f->used)
		out("\n\tUsed: %s ", f->used);
	else if (w[ATA_ID_MINOR_VERSION] >= 0x001f)
		out("\n\tUsed: unknown (minor revision code 0x%04x) ", w[ATA_ID_MINOR_VERSION]);
	if (ata_id_word_reported(w[ATA_ID_MAJOR_VERSION])) {
		out("\n\tSupported: ");
		for (unsigned int v = 14; v > 0; v--)
			if (f->listed_majors & (1u << v))
				out("%u ", v);
	}
	if (!f->std)
		out("\n\tLikely used: %u\n", f->like_std);
	else if (f->like_std > f->std)
		out("& some of %u\n", f->like_std);
	else
		out("\n");
}

/* Words 57-58, the current CHS capacity; ATA-1 left their order open, so take the order nearer C*H*S. */
static uint32_t chs_current_capacity(const uint16_t *w, uint64_t chs_product, unsigned int like_std)
{
	uint32_t cap = (uint32_t)w[ATA_ID_CUR_CAPACITY + 1] << 16 | w[ATA_ID_CUR_CAPACITY];
	uint32_t swapped = (uint32_t)w[ATA_ID_CUR_CAPACITY] << 16 | w[ATA_ID_CUR_CAPACITY + 1];

	if (like_std < 3 && llabs((long long)(cap - chs_product)) > llabs((long long)(swapped - chs_product)))
		return swapped;
	return cap;
}

/* C*H*S: the current geometry where words 54-56 are valid, else the default one. */
static uint64_t chs_product_of(const uint16_t *w)
{
	if (w[ATA_ID_FIELD_VALID] & 1)
		return (uint64_t)w[ATA_ID_CUR_CYLS] * w[ATA_ID_CUR_HEADS] * w[ATA_ID_CUR_SECTORS];
	return (uint64_t)w[ATA_ID_CYLS] * w[ATA_ID_HEADS] * w[ATA_ID_SECTORS];
}

/* Whether the page describes CHS addressing at all (9.65: not past 16,514,064 sectors without cylinders). */
static bool has_chs(const uint16_t *w, uint32_t lba28)
{
	return !(lba28 > 0x00FBFC10 && !w[ATA_ID_CYLS]);
}

static uint32_t lba28_capacity(const uint16_t *w)
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
	uint32_t lba28 = lba28_capacity(w), chs_cap = 0;
	uint64_t chs_product = 0;

	if ((w[ATA_ID_CAPABILITY] & 0x200) && ata_id_word_valid(w[ATA_ID_COMMAND_SET_2]) && (w[ATA_ID_COMMAND_SET_2] & 0x0400)) {
		uint64_t lba48 = (uint64_t)w[ATA_ID_LBA48_CAPACITY + 3] << 48 | (uint64_t)w[ATA_ID_LBA48_CAPACITY + 2] << 32 | (uint64_t)w[ATA_ID_LBA48_CAPACITY + 1] << 16 | w[ATA_ID_LBA48_CAPACITY];

		if (lba48)
			return lba48;
	}
	if (has_chs(w, lba28)) {
		chs_product = chs_product_of(w);
		if (w[ATA_ID_FIELD_VALID] & 1)
			chs_cap = chs_current_capacity(w, chs_product, like_std);
	}
	if (lba28 || chs_cap)
		return lba28 > chs_cap ? lba28 : chs_cap;
	return chs_product;
}

void print_device_size(uint64_t bytes)
{
	out("\tdevice size with M = 1024*1024: %11llu MBytes\n", (unsigned long long)(bytes / (1024ull * 1024ull)));
	bytes /= 1000ull;
	out("\tdevice size with M = 1000*1000: %11llu MBytes ", (unsigned long long)(bytes / 1000ull));
	if (bytes > 1000ull)
		out("(%llu GB)\n", (unsigned long long)(bytes / 1000000ull));
	else
		out("\n");
}

static void print_chs_and_sizes(const struct decode *d)
{
	const uint16_t *w = d->w;
	unsigned int sector_bytes = 512;
	uint32_t lba28 = lba28_capacity(w);

	if (!has_chs(w, lba28)) {
		out("\tCHS addressing not supported\n");
	} else {
		bool cur_valid = w[ATA_ID_FIELD_VALID] & 1;

		out("\tLogical\t\tmax\tcurrent\n");
		out("\tcylinders\t%u\t%u\n", w[ATA_ID_CYLS], cur_valid ? w[ATA_ID_CUR_CYLS] : 0u);
		out("\theads\t\t%u\t%u\n", w[ATA_ID_HEADS], cur_valid ? w[ATA_ID_CUR_HEADS] : 0u);
		out("\tsectors/track\t%u\t%u\n", w[ATA_ID_SECTORS], cur_valid ? w[ATA_ID_CUR_SECTORS] : 0u);
		out("\t--\n");
		if (d->f->min_std == 1 && (w[ATA_ID_BYTES_PER_TRACK] || w[ATA_ID_BYTES_PER_SECTOR])) {
			out("\tbytes/track: %u", w[ATA_ID_BYTES_PER_TRACK]);
			out("\tbytes/sector: %u\n", w[ATA_ID_BYTES_PER_SECTOR]);
		}
		if (cur_valid)
			out("\tCHS current addressable sectors:%12u\n",
			       chs_current_capacity(w, chs_product_of(w), d->f->like_std));
	}
	if (w[ATA_ID_CAPABILITY] & 0x200) {
		out("\tLBA    user addressable sectors:%12u\n", lba28);
		if (ata_id_word_valid(w[ATA_ID_COMMAND_SET_2]) && (w[ATA_ID_COMMAND_SET_2] & 0x0400))
			out("\tLBA48  user addressable sectors:%12llu\n",
			       (unsigned long long)((uint64_t)w[ATA_ID_LBA48_CAPACITY + 3] << 48 | (uint64_t)w[ATA_ID_LBA48_CAPACITY + 2] << 32 |
						    (uint64_t)w[ATA_ID_LBA48_CAPACITY + 1] << 16 | w[ATA_ID_LBA48_CAPACITY]));
	}
	if (!ata_id_word_valid(w[ATA_ID_SECTOR_SIZE])) {
		out("\t%-31s %11u bytes\n", "Logical/Physical Sector size:", sector_bytes);
	} else {
		unsigned int words_per_sector = 256, per_physical = 1;

		if (w[ATA_ID_SECTOR_SIZE] & (1u << 13))
			per_physical = 1u << (w[ATA_ID_SECTOR_SIZE] & 0xf);
		if (w[ATA_ID_SECTOR_SIZE] & (1u << 12))
			words_per_sector = (unsigned int)w[ATA_ID_LOGICAL_SECTOR_SIZE + 1] << 16 | w[ATA_ID_LOGICAL_SECTOR_SIZE];
		sector_bytes = 2 * words_per_sector;
		out("\t%-31s %11u bytes", "Logical  Sector size:", sector_bytes);
		print_sector_size_list(d->logs->sector_config);
		out("\n");
		out("\t%-31s %11u bytes\n", "Physical Sector size:", sector_bytes * per_physical);
		if (ata_id_word_valid(w[ATA_ID_SECTOR_ALIGNMENT]))
			out("\t%-31s %11u bytes\n", "Logical Sector-0 offset:",
			       (w[ATA_ID_SECTOR_ALIGNMENT] & 0x1fff) * sector_bytes);
	}
	print_device_size(d->f->capacity * sector_bytes);
}

static void print_configuration(const struct decode *d)
{
	const uint16_t *w = d->w;

	out("Configuration:\n");
	if (!d->f->cdrom && d->f->like_std == 1)
		for (unsigned int b = 1; b < 15; b++)
			if (w[ATA_ID_CONFIG] & (1u << b))
				out("\t%s\n", ata1_config_bits[b]);
	if (d->f->kind == IDENTIFY_ATAPI) {
		static const char *const drq[4] = { "3ms.", "<=10ms with INTRQ", "50us.", "unknown." };
		static const char *const pkt[4] = { "12 bytes", "16 bytes", "Unknown", "Unknown" };

		out("\tDRQ response: %s\n", drq[(w[ATA_ID_CONFIG] >> 5) & 3]);
		out("\tPacket size: %s\n", pkt[w[ATA_ID_CONFIG] & 3]);
	} else {
		print_chs_and_sizes(d);
	}

	out("\tcache/buffer size  = ");
	if (w[ATA_ID_BUFFER_TYPE] <= 3 && ata_id_word_reported(w[ATA_ID_BUFFER_SIZE])) {
		out("%u KBytes", (unsigned int)w[ATA_ID_BUFFER_SIZE] / 2);
		if (w[ATA_ID_BUFFER_TYPE])
			out(" (type=%s)", buffer_types[w[ATA_ID_BUFFER_TYPE]]);
	} else {
		out("unknown");
	}
	out_char('\n');

	if (w[ATA_ID_FORM_FACTOR] && (w[ATA_ID_FORM_FACTOR] & 0xfff8) == 0) {
		if (w[ATA_ID_FORM_FACTOR] <= 5)
			out("\tForm Factor: %s\n", form_factors[w[ATA_ID_FORM_FACTOR]]);
		else
			out("\tForm Factor: unknown (0x%04x]\n", w[ATA_ID_FORM_FACTOR]);
	}
	if (w[ATA_ID_ROTATION_RATE] == 1)
		out("\tNominal Media Rotation Rate: Solid State Device\n");
	else if (w[ATA_ID_ROTATION_RATE] > 0x401)
		out("\tNominal Media Rotation Rate: %u\n", w[ATA_ID_ROTATION_RATE]);
}

/* One DMA class (s/m/u): supported modes, '*' on the selected one. */
static bool print_dma_modes(uint16_t supported, uint16_t selected, char cls, bool *have_selected)
{
	bool twice = false;

	for (unsigned int m = 0; m <= 7; m++) {
		if (selected & (1u << m)) {
			out("*%cdma%u ", cls, m);
			if (*have_selected)
				twice = true;
			*have_selected = true;
		} else if (supported & (1u << m)) {
			out("%cdma%u ", cls, m);
		}
	}
	return twice;
}

static void print_transfer_modes(const struct decode *d)
{
	const uint16_t *w = d->w;
	bool dmadir = false, sdma_ok;

	/* SATA ATAPI devices may reuse word 62 for DMADIR and mode bits. */
	if (d->f->kind == IDENTIFY_ATAPI && (w[ATA_ID_SWDMA_MODES] & 0x8000)) {
		dmadir = true;
		sdma_ok = false;
		out("\tDMADIR bit required in PACKET commands\n");
	} else {
		unsigned int hi = w[ATA_ID_SWDMA_MODES] >> 8, lo = w[ATA_ID_SWDMA_MODES] & 0xff;

		sdma_ok = w[ATA_ID_SWDMA_MODES] && !(lo & 0xf8) && (!hi || hi == 1 || hi == 2 || hi == 4);
	}

	out("\tDMA: ");
	if (!dmadir && !(w[ATA_ID_CAPABILITY] & 0x100)) {
		out("not supported\n");
	} else {
		if (w[ATA_ID_OLD_DMA_MODES] && !w[ATA_ID_SWDMA_MODES] && !w[ATA_ID_MWDMA_MODES]) {
			out("sdma%u", (unsigned int)w[ATA_ID_OLD_DMA_MODES] >> 8);
		} else {
			bool have = false, bad = false;

			if (sdma_ok)
				bad |= print_dma_modes(w[ATA_ID_SWDMA_MODES], w[ATA_ID_SWDMA_MODES] >> 8, 's', &have);
			if (w[ATA_ID_MWDMA_MODES])
				bad |= print_dma_modes(dmadir ? (w[ATA_ID_SWDMA_MODES] >> 7) & 7 : w[ATA_ID_MWDMA_MODES], w[ATA_ID_MWDMA_MODES] >> 8, 'm', &have);
			if ((w[ATA_ID_FIELD_VALID] & 4) && w[ATA_ID_UDMA_MODES])
				bad |= print_dma_modes(dmadir ? w[ATA_ID_SWDMA_MODES] & 0x7f : w[ATA_ID_UDMA_MODES], w[ATA_ID_UDMA_MODES] >> 8, 'u', &have);
			if (bad || !have)
				out("(?)");
		}
		out("\n");
		if (d->f->kind == IDENTIFY_ATAPI && !d->f->cdrom && (w[ATA_ID_CAPABILITY] & 0x8000))
			out("\t     Interleaved DMA support\n");
		if ((w[ATA_ID_FIELD_VALID] & 2) && (w[ATA_ID_DMA_MIN_CYCLE] || w[ATA_ID_DMA_CYCLE])) {
			out("\t     Cycle time:");
			if (w[ATA_ID_DMA_MIN_CYCLE])
				out(" min=%uns", w[ATA_ID_DMA_MIN_CYCLE]);
			if (w[ATA_ID_DMA_CYCLE])
				out(" recommended=%uns", w[ATA_ID_DMA_CYCLE]);
			out("\n");
		}
	}

	out("\tPIO: ");
	if ((w[ATA_ID_FIELD_VALID] & 2) && (w[ATA_ID_PIO_MODES] & 0xff)) {
		/* Modes 0-2 are implied; word 64 lists mode 3 upwards. */
		unsigned int modes = ((w[ATA_ID_PIO_MODES] & 0xffu) << 3) | 7;

		for (unsigned int m = 0; m <= 8; m++)
			if (modes & (1u << m))
				out("pio%u ", m);
		out("\n");
	} else if ((d->f->min_std < 5 || d->f->cdrom) && (w[ATA_ID_OLD_PIO_MODES] >> 8) <= 2) {
		for (unsigned int m = 0; m <= (unsigned int)(w[ATA_ID_OLD_PIO_MODES] >> 8); m++)
			out("pio%u ", m);
		out("\n");
	} else {
		out("unknown\n");
	}
	if ((w[ATA_ID_FIELD_VALID] & 2) && (w[ATA_ID_PIO_CYCLE] || w[ATA_ID_PIO_IORDY_CYCLE])) {
		out("\t     Cycle time:");
		if (w[ATA_ID_PIO_CYCLE])
			out(" no flow control=%uns", w[ATA_ID_PIO_CYCLE]);
		if (w[ATA_ID_PIO_IORDY_CYCLE])
			out("  IORDY flow control=%uns", w[ATA_ID_PIO_IORDY_CYCLE]);
		out("\n");
	}
}

static void print_capabilities(const struct decode *d)
{
	const uint16_t *w = d->w;
	bool line_open = false;

	out("Capabilities:\n\t");
	if (d->f->kind == IDENTIFY_ATAPI) {
		if (!d->f->cdrom && (w[ATA_ID_CAPABILITY] & 0x4000))
			out("Cmd queuing, ");
		if (w[ATA_ID_CAPABILITY] & 0x2000)
			out("Cmd overlap, ");
	}
	if (w[ATA_ID_CAPABILITY] & 0x200)
		out("LBA, ");
	if (d->f->like_std != 1) {
		out("IORDY");
		if (!(w[ATA_ID_CAPABILITY] & 0x800))
			out("(may be)");
		out((w[ATA_ID_CAPABILITY] & 0x400) ? "(can" : "(cannot");
		out(" be disabled)");
	} else {
		out("IORDY not likely");
	}
	out("\n");
	if (d->f->like_std == 1 && w[ATA_ID_BUFFER_TYPE]) {
		out("\tBuffer type: %04x: %s%s\n", w[ATA_ID_BUFFER_TYPE],
		       w[ATA_ID_BUFFER_TYPE] < 2 ? "single port, single-sector" : "dual port, multi-sector",
		       w[ATA_ID_BUFFER_TYPE] > 2 ? " with read caching ability" : "");
	}
	if (d->f->min_std == 1 && ata_id_word_reported(w[ATA_ID_BUFFER_SIZE])) {
		out("\tBuffer size: %.1fkB", (float)w[ATA_ID_BUFFER_SIZE] / 2);
		line_open = true;
	}
	if (d->f->min_std < 4 && w[ATA_ID_ECC_BYTES]) {
		out("\tbytes avail on r/w long: %u", w[ATA_ID_ECC_BYTES]);
		line_open = true;
	}
	if (!d->f->cdrom && d->f->like_std > 3) {
		bool queuing = false;

		if ((d->f->transport == 1 || ata_id_word_reported(w[ATA_ID_SATA_CAPABILITY])) && (w[ATA_ID_SATA_CAPABILITY] & 0x0100))
			queuing = true;	/* NCQ */
		if (ata_id_word_valid(w[ATA_ID_COMMAND_SET_2]) && (w[ATA_ID_COMMAND_SET_2] & 2))
			queuing = true;	/* TCQ */
		if (queuing) {
			out("\tQueue depth: %u", (unsigned int)(w[ATA_ID_QUEUE_DEPTH] & 0x1f) + 1);
			line_open = true;
		}
	}
	if (line_open)
		out("\n");

	if (d->f->kind != IDENTIFY_ATAPI) {
		if (d->f->like_std == 1) {
			out("\tCan%s perform double-word IO\n", w[ATA_ID_DWORD_IO] ? "" : "not");
		} else {
			out("\tStandby timer values: spec'd by %s", (w[ATA_ID_CAPABILITY] & 0x2000) ? "Standard" : "Vendor");
			if (d->f->like_std > 3 && ata_id_word_valid(w[ATA_ID_CAPABILITY_2]))
				out(", %s device specific minimum\n", (w[ATA_ID_CAPABILITY_2] & 1) ? "with" : "no");
			else
				out("\n");
		}
		out("\tR/W multiple sector transfer: ");
		if (d->f->like_std < 3 && !(w[ATA_ID_MAX_MULTIPLE] & 0xff)) {
			out("not supported\n");
		} else {
			out("Max = %u\tCurrent = ", (unsigned int)(w[ATA_ID_MAX_MULTIPLE] & 0xff));
			if (w[ATA_ID_MULTIPLE] & 0x100)
				out("%u\n", (unsigned int)(w[ATA_ID_MULTIPLE] & 0xff));
			else
				out("?\n");
		}
		if (d->f->like_std > 3 && (w[ATA_ID_COMMAND_SET_2] & 0xc008) == 0x4008) {
			out("\tAdvanced power management level: ");
			if (w[ATA_ID_CFS_ENABLE_2] & 0x0008)
				out("%u\n", (unsigned int)(w[ATA_ID_APM_LEVEL] & 0xff));
			else
				out("disabled\n");
		}
		if (d->f->like_std > 5 && w[ATA_ID_ACOUSTIC_LEVEL])
			out("\tRecommended acoustic management value: %u, current value: %u\n",
			       (unsigned int)((w[ATA_ID_ACOUSTIC_LEVEL] >> 8) & 0xff), (unsigned int)(w[ATA_ID_ACOUSTIC_LEVEL] & 0xff));
	} else {
		if (!d->f->cdrom && (w[ATA_ID_CAPABILITY] & 0x1000))
			out("\tATA sw reset required\n");
		if (w[ATA_ID_PACKET_RELEASE_TIME] || w[ATA_ID_PACKET_SERVICE_TIME]) {
			out("\tOverlap support:");
			if (w[ATA_ID_PACKET_RELEASE_TIME])
				out(" %uus to release bus.", w[ATA_ID_PACKET_RELEASE_TIME]);
			if (w[ATA_ID_PACKET_SERVICE_TIME])
				out(" %uus to clear BSY after SERVICE cmd.", w[ATA_ID_PACKET_SERVICE_TIME]);
			out("\n");
		}
	}
	print_transfer_modes(d);
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
		uint16_t w69 = w[ATA_ID_ADDITIONAL_SUPPORT] & (uint16_t)~(W69_TRIM_ZEROES | W69_TRIM_DETERMINISTIC);

		add_feature_group(f, FG_W69, w69, w69);
		if (ata_id_has_trim(w)) {
			add_feature(f, "Data Set Management TRIM supported", true, ATA_ID_DATA_SET_MANAGEMENT);
			if (w[ATA_ID_ADDITIONAL_SUPPORT] & W69_TRIM_DETERMINISTIC) {
				uint16_t which = (w[ATA_ID_ADDITIONAL_SUPPORT] & W69_TRIM_ZEROES) ? W69_TRIM_ZEROES
									   : W69_TRIM_DETERMINISTIC;
				add_feature_group(f, FG_W69, which, which);
			}
		}
	}
}

static void print_commands_features(const struct decode *d)
{
	const uint16_t *w = d->w;
	const struct identify_facts *f = d->f;

	if (ata_id_word_valid(w[ATA_ID_COMMAND_SET_2]))
		out("Commands/features:\n\tEnabled\tSupported:\n");
	for (unsigned int i = 0; i < f->nfeatures; i++) {
		const struct identify_feature *row = &f->features[i];

		out("\t   %c\t%s", row->enabled ? '*' : ' ', row->name);
		if (row->word != ATA_ID_DATA_SET_MANAGEMENT)
			out_char('\n');
		else if (ata_id_word_reported(w[ATA_ID_DSM_BLOCKS]))
			out(" (limit %u block%s)\n", w[ATA_ID_DSM_BLOCKS], w[ATA_ID_DSM_BLOCKS] > 1 ? "s" : "");
		else
			out(" (limit unknown)\n");
		/* 9.65 prints the timer under word 84's rows. */
		if (row->word == FG_W84 && f->tlc_msec && (i + 1 == f->nfeatures || f->features[i + 1].word != FG_W84))
			out("                (%u msec for TLC completion timer)\n", f->tlc_msec);
	}
}

/* Append "name " to buf, with a '*' before the selected one. */
static void add_cfa_modes(char *buf, size_t size, const char *name, unsigned int first,
			  unsigned int from, unsigned int max, unsigned int selected)
{
	for (unsigned int m = from; m <= max; m++) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len, "%s%s%u ", m == selected ? "*" : "", name, m + first);
	}
}

static void print_cfa(const uint16_t *w)
{
	char modes[256] = "";
	unsigned int max;

	max = w[ATA_ID_CFA_MODES] & 7;
	if (max == 1 || max == 2)
		add_cfa_modes(modes, sizeof(modes), "pio", 4, 1, max, (w[ATA_ID_CFA_MODES] >> 6) & 7);
	max = (w[ATA_ID_CFA_MODES] >> 3) & 7;
	if (max == 1 || max == 2)
		add_cfa_modes(modes, sizeof(modes), "mdma", 2, 1, max, (w[ATA_ID_CFA_MODES] >> 9) & 7);
	if (w[ATA_ID_CFA_ADVANCED_MODES] & 0x8000) {
		static const unsigned char io_times[4] = { 255, 120, 100, 80 };
		static const unsigned char mem_times[4] = { 250, 120, 100, 80 };

		max = w[ATA_ID_CFA_ADVANCED_MODES] & 7;
		if (max <= 3)
			out("\t\tCFA max advanced io_udma cycle time: %uns\n", io_times[max]);
		max = (w[ATA_ID_CFA_ADVANCED_MODES] >> 3) & 7;
		if (max <= 3)
			out("\t\tCFA max advanced mem_udma cycle time: %uns\n", mem_times[max]);
		max = (w[ATA_ID_CFA_ADVANCED_MODES] >> 6) & 7;
		if (max <= 6)
			add_cfa_modes(modes, sizeof(modes), "io_udma", 4, 0, max, (w[ATA_ID_CFA_ADVANCED_MODES] >> 12) & 7);
		max = (w[ATA_ID_CFA_ADVANCED_MODES] >> 9) & 7;
		if (max <= 6)
			add_cfa_modes(modes, sizeof(modes), "mem_udma", 4, 0, max, (w[ATA_ID_CFA_ADVANCED_MODES] >> 12) & 7);
	}
	if (modes[0])
		out("\t   *\tCFA advanced modes: %s\n", modes);

	if (w[ATA_ID_CFA_POWER] & 0x8000) {
		out_char('\t');
		if (!(w[ATA_ID_CFA_POWER] & 0x2000))
			out("   *");
		out("\tCFA Power Level 1 ");
		if (w[ATA_ID_CFA_POWER] & 0x2000)
			out(" not supported");
		if (w[ATA_ID_CFA_POWER] & 0x0fff)
			out(" (max %umA)", (unsigned int)(w[ATA_ID_CFA_POWER] & 0x0fff));
		out("\n");
	}
	if (ata_id_word_reported(w[ATA_ID_CFA_KEY_MGMT]) && (w[ATA_ID_CFA_KEY_MGMT] & 1))
		out("\t\tKey Management (CPRM) feature set\n");
}

/* Erase time words: 2-minute units, 8 or 15 bits wide (ACS-3 bit 15). */
static unsigned int print_erase_time(uint16_t word, const char *what)
{
	bool extended = word & 0x8000;
	unsigned int t = extended ? word & 0x7fff : word & 0xff;

	if (!t)
		return 0;
	if (extended && t == 0x7fff)
		out("more than 65532");
	else if (!extended && t == 0xff)
		out("more than 508");
	else
		out("%u", t * 2);
	out("min for %s.", what);
	return t;
}

static void print_security(const struct decode *d)
{
	const uint16_t *w = d->w;

	if (!(w[ATA_ID_COMMAND_SET_1] & 2) || d->f->cdrom || d->f->like_std <= 3 || !(w[ATA_ID_SECURITY] || w[ATA_ID_ERASE_TIME] || w[ATA_ID_ENHANCED_ERASE_TIME]))
		return;
	out("Security: \n");
	if (ata_id_word_reported(w[ATA_ID_MASTER_PASSWORD_REV]))
		out("\tMaster password revision code = %u\n", w[ATA_ID_MASTER_PASSWORD_REV]);
	if (w[ATA_ID_SECURITY]) {
		for (unsigned int b = 0; b < 6; b++) {
			if (w[ATA_ID_SECURITY] & (1u << b))
				out("\t\t");
			else
				out("%s", b ? "\tnot\t" : "\t(?)\t");
			out("%s\n", security_bits[b]);
		}
		if (w[ATA_ID_SECURITY] & 2)
			out("\tSecurity level %s\n", (w[ATA_ID_SECURITY] & 0x0100) ? "maximum" : "high");
	}
	bool normal = (w[ATA_ID_ERASE_TIME] & 0x8000) ? (w[ATA_ID_ERASE_TIME] & 0x7fff) : (w[ATA_ID_ERASE_TIME] & 0xff);
	bool enhanced = (w[ATA_ID_ENHANCED_ERASE_TIME] & 0x8000) ? (w[ATA_ID_ENHANCED_ERASE_TIME] & 0x7fff) : (w[ATA_ID_ENHANCED_ERASE_TIME] & 0xff);

	if (normal || enhanced)
		out("\t");
	print_erase_time(w[ATA_ID_ERASE_TIME], "SECURITY ERASE UNIT");
	if (normal && enhanced)
		out(" ");
	print_erase_time(w[ATA_ID_ENHANCED_ERASE_TIME], "ENHANCED SECURITY ERASE UNIT");
	out("\n");
}

static void print_tail(const struct decode *d)
{
	const uint16_t *w = d->w;

	if (!d->f->cdrom && d->f->like_std > 3 && (w[ATA_ID_COMMAND_SET_EXT] & 0x100)) {
		out("Logical Unit WWN Device Identifier: %04x%04x%04x%04x\n", w[ATA_ID_WWN], w[ATA_ID_WWN + 1], w[ATA_ID_WWN + 2], w[ATA_ID_WWN + 3]);
		out("\tNAA\t\t: %x\n", (w[ATA_ID_WWN] & 0xf000) >> 12);
		out("\tIEEE OUI\t: %06x\n", ((w[ATA_ID_WWN] & 0x0fffu) << 12) | ((w[ATA_ID_WWN + 1] & 0xfff0u) >> 4));
		out("\tUnique ID\t: %x%08x\n", w[ATA_ID_WWN + 1] & 0x000fu, ((unsigned int)w[ATA_ID_WWN + 2] << 16) | w[ATA_ID_WWN + 3]);
	}
	if (ata_id_word_valid(w[ATA_ID_HW_RESET_RESULT])) {
		unsigned int bits;

		out("HW reset results:\n");
		out("\tCBLID- %s Vih\n", (w[ATA_ID_HW_RESET_RESULT] & 0x2000) ? "above" : "below");
		if (w[ATA_ID_HW_RESET_RESULT] & 1) {
			out("\tDevice num = 0");
			bits = w[ATA_ID_HW_RESET_RESULT];
		} else {
			out("\tDevice num = 1");
			bits = w[ATA_ID_HW_RESET_RESULT] >> 8;
		}
		if ((bits & 6) == 2)
			out(" determined by the jumper");
		else if ((bits & 6) == 4)
			out(" determined by CSEL");
		out("\n");
	}
	if (w[ATA_ID_SATA_FEATURES] & 0x0100)
		print_devslp(d->logs->sata_settings);
	if (d->f->like_std > 4 && !d->f->cdrom) {
		if ((w[ATA_ID_INTEGRITY] & 0xff) == 0xa5) {
			out("Checksum: %scorrect", d->f->checksum ? "in" : "");
			if (d->f->checksum)
				out(" (0x%02x), expected 0x%02x\n", d->f->checksum, 0x100 - d->f->checksum);
			out_char('\n');
		} else {
			out("Integrity word not set (found 0x%04x, expected 0x%02x%02x)\n",
			       w[ATA_ID_INTEGRITY], 0x100 - d->f->checksum, 0xa5);
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
static bool specific_config_valid(const uint16_t *w)
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
	if (specific_config_valid(id))
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

/* The opening lines: the kind of device, word 2's notes and the strings. */
static void print_kind_and_strings(const uint16_t *id, const struct identify_facts *f)
{
	static const struct { int word, len; const char *label; } strings[] = {
		{ ATA_ID_MODEL, 20, "Model Number:" },
		{ ATA_ID_SERIAL_NUMBER, 10, "Serial Number:" },
		{ ATA_ID_FIRMWARE, 4, "Firmware Revision:" },
		{ ATA_ID_MEDIA_SERIAL, 20, "Media Serial Num:" },
		{ ATA_ID_MEDIA_MANUFACTURER, 10, "Media Manufacturer:" },
	};

	if (f->kind == IDENTIFY_CFA)
		out("CompactFlash ATA device\n");
	else if (f->kind == IDENTIFY_ATA)
		out("ATA device, with ");
	else
		out("ATAPI %s, with ", packet_device_types[f->packet_type]);
	if (f->kind != IDENTIFY_CFA)
		out("%sremovable media\n", (id[ATA_ID_CONFIG] & 0x80) ? "" : "non-");
	if (specific_config_valid(id)) {
		if (id[ATA_ID_SPECIFIC_CONFIG] == 0x37c8 || id[ATA_ID_SPECIFIC_CONFIG] == 0x738c)
			out("powers-up in standby; SET FEATURES subcmd spins-up.\n");
		if ((id[ATA_ID_SPECIFIC_CONFIG] == 0x37c8 || id[ATA_ID_SPECIFIC_CONFIG] == 0x8c73) && (id[ATA_ID_CONFIG] & 4))
			out("\n\tWARNING: ID response incomplete.\n\tWARNING: Following data may be incorrect.\n\n");
	}
	for (size_t i = 0; i < ARRAY_SIZE(strings); i++) {
		if (id[strings[i].word]) {
			out("\t%-20s", strings[i].label);
			print_id_string(&id[strings[i].word], strings[i].len);
		}
	}
}

int identify_print(const uint16_t id[IDENTIFY_WORDS], const struct identify_logs *logs)
{
	static const struct identify_logs none;
	struct identify_facts facts;
	struct decode d = { .w = id, .logs = logs ? logs : &none, .f = &facts };

	out("\n");
	if (identify_decode(id, &facts)) {
		out("Unknown device type:\n\tbits 15&14 of general configuration word 0 both set to 1.\n");
		return EINVAL;
	}
	print_kind_and_strings(id, &facts);
	print_transport(id);
	print_standards(&d);
	print_configuration(&d);
	print_capabilities(&d);
	print_commands_features(&d);
	if (facts.kind == IDENTIFY_CFA)
		print_cfa(id);
	if ((id[ATA_ID_REMOVABLE_STATUS] & 3) == 1)
		out("\t\tRemovable Media Status Notification feature set supported\n");
	print_security(&d);
	print_tail(&d);
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

/* ---- hex page I/O ---- */

void identify_dump_hex(const uint16_t id[IDENTIFY_WORDS])
{
	for (int i = 0; i < IDENTIFY_WORDS; i += 8)
		out("%04x %04x %04x %04x %04x %04x %04x %04x\n", id[i], id[i + 1], id[i + 2],
			id[i + 3], id[i + 4], id[i + 5], id[i + 6], id[i + 7]);
}

static int hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Words are runs of four hex digits; anything else separates them.
 * Before the first word, a line that does not start with one is skipped
 * whole, so a header such as "/dev/sda:" may precede the page.
 */
int identify_read_hex(FILE *in, uint16_t id[IDENTIFY_WORDS])
{
	int count = 0;

	while (count < IDENTIFY_WORDS) {
		unsigned int word = 0;
		int c = 0, digits;

		for (digits = 0; digits < 4; digits++) {
			int v;

			c = getc(in);
			v = hex_value(c);
			if (v < 0)
				break;
			word = word << 4 | (unsigned int)v;
		}
		if (digits == 4) {
			id[count++] = (uint16_t)word;
			continue;
		}
		if (c == EOF)
			break;
		if (count == 0) {
			while (c != '\n' && c != EOF)
				c = getc(in);
			if (c == EOF)
				break;
		}
	}
	return count;
}

/* ---- the short "-i" form ---- */

static const char *const config_names[16] = {
	"", " HardSect", " SoftSect", " NotMFM", " HdSw>15uSec", " SpinMotCtl", " Fixed", " Removable",
	" DTR<=5Mbs", " DTR>5Mbs", " DTR>10Mbs", " RotSpdTol>.5%", " dStbOff", " TrkOff", " FmtGapReq",
	" nonMagnetic",
};

/* strcat with a bound. */
static void append(char *buf, size_t size, const char *text)
{
	size_t len = strlen(buf);

	snprintf(buf + len, size - len, "%s", text);
}

/* "*" before the active mode, for each of the given classes of bits. */
static void add_mode_list(char *buf, size_t size, uint16_t word, const char *const names[],
			  unsigned int count)
{
	for (unsigned int m = 0; m < count; m++) {
		size_t len = strlen(buf);

		if (word & (0x100u << m))
			snprintf(buf + len, size - len, "*");
		len = strlen(buf);
		if (word & (1u << m))
			snprintf(buf + len, size - len, "%s ", names[m]);
	}
}

static void strip_copy(const uint16_t *words, int nwords, char *dst)
{
	char raw[64];
	char *s = raw;

	/* -i shows the bytes as the kernel stored them: no swapping. */
	memcpy(raw, words, (size_t)nwords * 2);
	raw[nwords * 2] = '\0';
	while (*s == ' ')
		s++;
	size_t n = strlen(s);
	while (n > 0 && s[n - 1] == ' ')
		s[--n] = '\0';
	snprintf(dst, 64, "%s", s);
}

void identify_json_short(const uint16_t id[IDENTIFY_WORDS])
{
	char model[64], fw[64], serial[64];

	strip_copy(&id[ATA_ID_MODEL], 20, model);
	strip_copy(&id[ATA_ID_FIRMWARE], 4, fw);
	strip_copy(&id[ATA_ID_SERIAL_NUMBER], 10, serial);
	json_object_begin("identify");
	json_string("model_name", model);
	json_string("firmware_version", fw);
	json_string("serial_number", serial);
	json_uint("user_capacity_blocks", identify_capacity(id));
	json_object_end();
}

/* -i's first lines: the strings, configuration, geometry, buffer and multiple sectors. */
static void print_short_identity(const uint16_t id[IDENTIFY_WORDS])
{
	char model[64], fw[64], serial[64];

	strip_copy(&id[ATA_ID_MODEL], 20, model);
	strip_copy(&id[ATA_ID_FIRMWARE], 4, fw);
	strip_copy(&id[ATA_ID_SERIAL_NUMBER], 10, serial);
	out("\n Model=");
	out_device_string(model, 40);
	out(", FwRev=");
	out_device_string(fw, 8);
	out(", SerialNo=");
	out_device_string(serial, 20);
	out("\n Config={");
	for (int b = 0; b <= 15; b++)
		if (id[ATA_ID_CONFIG] & (1u << b))
			out("%s", config_names[b]);
	out(" }\n");
	out(" RawCHS=%u/%u/%u, TrkSize=%u, SectSize=%u, ECCbytes=%u\n", id[ATA_ID_CYLS], id[ATA_ID_HEADS], id[ATA_ID_SECTORS], id[ATA_ID_BYTES_PER_TRACK],
	       id[ATA_ID_BYTES_PER_SECTOR], id[ATA_ID_ECC_BYTES]);
	if (id[ATA_ID_BUFFER_TYPE] > 3)
		out(" BuffType=%u", id[ATA_ID_BUFFER_TYPE]);
	else
		out(" BuffType=%s", buffer_types[id[ATA_ID_BUFFER_TYPE]]);
	if (ata_id_word_reported(id[ATA_ID_BUFFER_SIZE]))
		out(", BuffSize=%ukB", id[ATA_ID_BUFFER_SIZE] / 2);
	else
		out(", BuffSize=unknown");
	out(", MaxMultSect=%u", id[ATA_ID_MAX_MULTIPLE] & 0xff);
	if (id[ATA_ID_MAX_MULTIPLE] & 0xff) {
		out(", MultSect=");
		if (!(id[ATA_ID_MULTIPLE] & 0x100))
			out("?%u?", id[ATA_ID_MULTIPLE] & 0xff);
		else if (id[ATA_ID_MULTIPLE] & 0xff)
			out("%u", id[ATA_ID_MULTIPLE] & 0xff);
		else
			out("off");
	}
	out_char('\n');
}

/* -i's addressing and transfer modes, "*" marking the ones selected. */
static void print_short_modes(const uint16_t id[IDENTIFY_WORDS])
{
	char pio[64] = "", dma[128] = "", udma[128] = "";
	static const char *const sdma_names[] = { "sdma0", "sdma1", "sdma2", NULL, NULL, NULL, NULL, NULL };
	static const char *const mdma_names[] = { "mdma0", "mdma1", "mdma2" };
	static const char *const udma_names[] = { "udma0", "udma1", "udma2", "udma3", "udma4", "udma5", "udma6" };

	unsigned int tpio = id[ATA_ID_OLD_PIO_MODES] >> 8;

	if (tpio <= 5) {
		append(pio, sizeof(pio), "pio0 ");
		if (tpio >= 1)
			append(pio, sizeof(pio), "pio1 ");
		if (tpio >= 2)
			append(pio, sizeof(pio), "pio2 ");
	}
	if (!(id[ATA_ID_FIELD_VALID] & 1))
		out(" (maybe):");
	out(" CurCHS=%u/%u/%u, CurSects=%u", id[ATA_ID_CUR_CYLS], id[ATA_ID_CUR_HEADS], id[ATA_ID_CUR_SECTORS],
	       (unsigned int)id[ATA_ID_CUR_CAPACITY] | ((unsigned int)id[ATA_ID_CUR_CAPACITY + 1] << 16));
	out(", LBA=%s", (id[ATA_ID_CAPABILITY] & 0x200) ? "yes" : "no");
	if (id[ATA_ID_CAPABILITY] & 0x200)
		out(", LBAsects=%llu", (unsigned long long)identify_capacity(id));

	if ((id[ATA_ID_CAPABILITY] & 0x100) && (id[ATA_ID_SWDMA_MODES] | id[ATA_ID_MWDMA_MODES])) {
		add_mode_list(dma, sizeof(dma), id[ATA_ID_SWDMA_MODES], sdma_names, 3);
		if (id[ATA_ID_SWDMA_MODES] & 0xf800)
			append(dma, sizeof(dma), "*");
		if (id[ATA_ID_SWDMA_MODES] & 0xf8)
			append(dma, sizeof(dma), "sdma? ");
		add_mode_list(dma, sizeof(dma), id[ATA_ID_MWDMA_MODES], mdma_names, 3);
		if (id[ATA_ID_MWDMA_MODES] & 0xf800)
			append(dma, sizeof(dma), "*");
		if (id[ATA_ID_MWDMA_MODES] & 0xf8)
			append(dma, sizeof(dma), "mdma? ");
	}
	out("\n IORDY=");
	if (id[ATA_ID_CAPABILITY] & 0x800)
		out((id[ATA_ID_CAPABILITY] & 0x400) ? "on/off" : "yes");
	else
		out("no");
	if ((id[ATA_ID_CAPABILITY] & 0x800) || (id[ATA_ID_FIELD_VALID] & 2)) {
		if (id[ATA_ID_FIELD_VALID] & 2) {
			out(", tPIO={min:%u,w/IORDY:%u}", id[ATA_ID_PIO_CYCLE], id[ATA_ID_PIO_IORDY_CYCLE]);
			if (id[ATA_ID_PIO_MODES] & 1)
				append(pio, sizeof(pio), "pio3 ");
			if (id[ATA_ID_PIO_MODES] & 2)
				append(pio, sizeof(pio), "pio4 ");
			if (id[ATA_ID_PIO_MODES] & ~3)
				append(pio, sizeof(pio), "pio? ");
		}
		if (id[ATA_ID_FIELD_VALID] & 4)
			add_mode_list(udma, sizeof(udma), id[ATA_ID_UDMA_MODES], udma_names, 7);
	}
	if ((id[ATA_ID_CAPABILITY] & 0x100) && (id[ATA_ID_FIELD_VALID] & 2))
		out(", tDMA={min:%u,rec:%u}", id[ATA_ID_DMA_MIN_CYCLE], id[ATA_ID_DMA_CYCLE]);
	out("\n PIO modes:  %s", pio);
	if (*dma)
		out("\n DMA modes:  %s", dma);
	if (*udma)
		out("\n UDMA modes: %s", udma);
}

/* -i's power management, write cache and the standard the drive conforms to. */
static void print_short_standards(const uint16_t id[IDENTIFY_WORDS])
{
	out("\n AdvancedPM=%s", (id[ATA_ID_COMMAND_SET_2] & 8) ? "yes" : "no");
	if (id[ATA_ID_COMMAND_SET_2] & 8) {
		if (!(id[ATA_ID_CFS_ENABLE_2] & 8))
			out(": disabled (255)");
		else if ((id[ATA_ID_APM_LEVEL] & 0xff00) != 0x4000)
			out(": unknown setting");
		else
			out(": mode=0x%02X (%u)", id[ATA_ID_APM_LEVEL] & 0xff, id[ATA_ID_APM_LEVEL] & 0xff);
	}
	if (id[ATA_ID_COMMAND_SET_1] & 0x20)
		out(" WriteCache=%s", (id[ATA_ID_CFS_ENABLE_1] & 0x20) ? "enabled" : "disabled");
	if (id[ATA_ID_MINOR_VERSION] || id[ATA_ID_MAJOR_VERSION]) {
		const struct minor_version *mv = id[ATA_ID_MINOR_VERSION] <= 31 ? find_minor(id[ATA_ID_MINOR_VERSION]) : NULL;

		out("\n Drive conforms to: %s: ", mv ? mv->text : "unknown");
		if (ata_id_word_reported(id[ATA_ID_MAJOR_VERSION])) {
			int count = 0;

			for (int v = 0; v <= 7; v++)
				if (id[ATA_ID_MAJOR_VERSION] & (1u << v))
					out("%s%d", count++ ? "," : " ATA/ATAPI-", v);
		}
	}
}

void identify_print_short(const uint16_t id[IDENTIFY_WORDS])
{
	print_short_identity(id);
	print_short_modes(id);
	print_short_standards(id);
	out("\n");
	out("\n * signifies the current active mode\n");
	out("\n");
}

/* ---- --json ---- */

static void json_id_string(const char *key, const uint16_t *words, int nwords)
{
	char buf[64];
	const char *s = buf;

	identify_string(words, nwords, buf);
	while (*s == ' ')
		s++;
	json_string(key, s);
}

/* Modes "<prefix>N" for the bits of mask; the selected one also as *current. */
static void json_modes(const char *key, const char *prefix, unsigned int supported, unsigned int selected,
		       char *current, size_t size)
{
	json_array_begin(key);
	for (unsigned int m = 0; m < 8; m++) {
		char name[16];

		if (!((supported | selected) & (1u << m)))
			continue;
		snprintf(name, sizeof(name), "%s%u", prefix, m);
		json_string(NULL, name);
		if ((selected & (1u << m)) && current)
			snprintf(current, size, "%s", name);
	}
	json_array_end();
}

static void json_erase_minutes(const char *key, uint16_t w)
{
	bool extended = w & 0x8000;
	unsigned int t = extended ? w & 0x7fff : w & 0xff;

	if (!t)
		json_null(key);
	else if ((extended && t == 0x7fff) || (!extended && t == 0xff))
		json_uint(key, extended ? 65532 : 508);	/* "more than" this */
	else
		json_uint(key, t * 2);
}

/* ---- the keys smartctl -j -i fills, in smartctl 7.3's shapes and words ---- */

/* Word 81 (ACS-4 Table 10), as smartctl words it. */
static const struct {
	uint16_t code;
	const char *text;
} smartctl_minor_versions[] = {
	{ 0x0001, "ATA-1 X3T9.2/781D prior to revision 4" },
	{ 0x0002, "ATA-1 published, ANSI X3.221-1994" },
	{ 0x0003, "ATA-1 X3T9.2/781D revision 4" },
	{ 0x0004, "ATA-2 published, ANSI X3.279-1996" },
	{ 0x0005, "ATA-2 X3T10/948D prior to revision 2k" },
	{ 0x0006, "ATA-3 X3T10/2008D revision 1" },
	{ 0x0007, "ATA-2 X3T10/948D revision 2k" },
	{ 0x0008, "ATA-3 X3T10/2008D revision 0" },
	{ 0x0009, "ATA-2 X3T10/948D revision 3" },
	{ 0x000a, "ATA-3 published, ANSI X3.298-1997" },
	{ 0x000b, "ATA-3 X3T10/2008D revision 6" },
	{ 0x000c, "ATA-3 X3T13/2008D revision 7 and 7a" },
	{ 0x000d, "ATA/ATAPI-4 X3T13/1153D revision 6" },
	{ 0x000e, "ATA/ATAPI-4 T13/1153D revision 13" },
	{ 0x000f, "ATA/ATAPI-4 X3T13/1153D revision 7" },
	{ 0x0010, "ATA/ATAPI-4 T13/1153D revision 18" },
	{ 0x0011, "ATA/ATAPI-4 T13/1153D revision 15" },
	{ 0x0012, "ATA/ATAPI-4 published, ANSI NCITS 317-1998" },
	{ 0x0013, "ATA/ATAPI-5 T13/1321D revision 3" },
	{ 0x0014, "ATA/ATAPI-4 T13/1153D revision 14" },
	{ 0x0015, "ATA/ATAPI-5 T13/1321D revision 1" },
	{ 0x0016, "ATA/ATAPI-5 published, ANSI NCITS 340-2000" },
	{ 0x0017, "ATA/ATAPI-4 T13/1153D revision 17" },
	{ 0x0018, "ATA/ATAPI-6 T13/1410D revision 0" },
	{ 0x0019, "ATA/ATAPI-6 T13/1410D revision 3a" },
	{ 0x001a, "ATA/ATAPI-7 T13/1532D revision 1" },
	{ 0x001b, "ATA/ATAPI-6 T13/1410D revision 2" },
	{ 0x001c, "ATA/ATAPI-6 T13/1410D revision 1" },
	{ 0x001d, "ATA/ATAPI-7 published, ANSI INCITS 397-2005" },
	{ 0x001e, "ATA/ATAPI-7 T13/1532D revision 0" },
	{ 0x001f, "ACS-3 T13/2161-D revision 3b" },
	{ 0x0021, "ATA/ATAPI-7 T13/1532D revision 4a" },
	{ 0x0022, "ATA/ATAPI-6 published, ANSI INCITS 361-2002" },
	{ 0x0027, "ATA8-ACS T13/1699-D revision 3c" },
	{ 0x0028, "ATA8-ACS T13/1699-D revision 6" },
	{ 0x0029, "ATA8-ACS T13/1699-D revision 4" },
	{ 0x0031, "ACS-2 T13/2015-D revision 2" },
	{ 0x0033, "ATA8-ACS T13/1699-D revision 3e" },
	{ 0x0039, "ATA8-ACS T13/1699-D revision 4c" },
	{ 0x0042, "ATA8-ACS T13/1699-D revision 3f" },
	{ 0x0052, "ATA8-ACS T13/1699-D revision 3b" },
	{ 0x005e, "ACS-4 T13/BSR INCITS 529 revision 5" },
	{ 0x006d, "ACS-3 T13/2161-D revision 5" },
	{ 0x0082, "ACS-2 published, ANSI INCITS 482-2012" },
	{ 0x009c, "ACS-4 published, ANSI INCITS 529-2018" },
	{ 0x0107, "ATA8-ACS T13/1699-D revision 2d" },
	{ 0x010a, "ACS-3 published, ANSI INCITS 522-2014" },
	{ 0x0110, "ACS-2 T13/2015-D revision 3" },
	{ 0x011b, "ACS-3 T13/2161-D revision 4" },
};

/* Word 80's highest version: "ATA/ATAPI-7", "ACS-3", "ACS >5 (13)"; "Unknown(0x0001)" for none. */
static void major_version_name(uint16_t w, char *buf, size_t size)
{
	int bit = 15;

	while (bit > 0 && !(w & (1u << bit)))
		bit--;
	if (bit == 0 || !ata_id_word_reported(w))
		snprintf(buf, size, "Unknown(0x%04x)", w);
	else if (bit <= 3)
		snprintf(buf, size, "ATA-%d", bit);
	else if (bit <= 7)
		snprintf(buf, size, "ATA/ATAPI-%d", bit);
	else if (bit == 8)
		snprintf(buf, size, "ATA8-ACS");
	else if (bit <= 12)
		snprintf(buf, size, "ACS-%d", bit - 7);
	else
		snprintf(buf, size, "ACS >5 (%d)", bit);
}

static void json_ata_version(const uint16_t *id)
{
	char major[32], text[160];
	const char *minor = NULL;

	if (!ata_id_word_reported(id[ATA_ID_MAJOR_VERSION]) && !ata_id_word_reported(id[ATA_ID_MINOR_VERSION]))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(smartctl_minor_versions); i++)
		if (smartctl_minor_versions[i].code == id[ATA_ID_MINOR_VERSION])
			minor = smartctl_minor_versions[i].text;
	major_version_name(id[ATA_ID_MAJOR_VERSION], major, sizeof(major));
	if (minor && strncmp(minor, major, strlen(major)) == 0)
		snprintf(text, sizeof(text), "%s", minor);
	else if (minor)
		snprintf(text, sizeof(text), "%s, %s", major, minor);
	else if (!ata_id_word_reported(id[ATA_ID_MINOR_VERSION]))
		snprintf(text, sizeof(text), "%s (minor revision not indicated)", major);
	else
		snprintf(text, sizeof(text), "%s (unknown minor revision code: 0x%04x)", major, id[ATA_ID_MINOR_VERSION]);
	json_object_begin("ata_version");
	json_string("string", text);
	json_uint("major_value", id[ATA_ID_MAJOR_VERSION]);
	json_uint("minor_value", id[ATA_ID_MINOR_VERSION]);
	json_object_end();
}

static bool serial_transport(const uint16_t *id)
{
	return ata_id_word_reported(id[ATA_ID_TRANSPORT_MAJOR]) && (id[ATA_ID_TRANSPORT_MAJOR] >> 12) == 1;
}

static void json_sata_version(const uint16_t *id)
{
	static const char *const names[11] = {
		"ATA8-AST", "SATA 1.0a", "SATA II Ext", "SATA 2.5", "SATA 2.6", "SATA 3.0",
		"SATA 3.1", "SATA 3.2", "SATA 3.3", "SATA 3.4", "SATA 3.5",
	};
	unsigned int value = id[ATA_ID_TRANSPORT_MAJOR] & 0x0fff;
	int bit = 11;
	char text[24];

	if (!serial_transport(id) || !value)
		return;
	while (!(value & (1u << bit)))
		bit--;
	if (bit <= 10)
		snprintf(text, sizeof(text), "%s", names[bit]);
	else
		snprintf(text, sizeof(text), "SATA >3.5 (%d)", bit);
	json_object_begin("sata_version");
	json_string("string", text);
	json_uint("value", value);
	json_object_end();
}

/* A SATA signalling speed: 1 Gen1 (1.5 Gb/s), 2 Gen2, 3 Gen3; beyond that smartctl gives no rate. */
static void json_sata_speed(const char *key, unsigned int value, unsigned int gen)
{
	static const unsigned int units[4] = { 0, 15, 30, 60 };
	char text[24];

	json_object_begin(key);
	json_uint("sata_value", value);
	if (gen >= 1 && gen <= 3) {
		snprintf(text, sizeof(text), "%u.%u Gb/s", units[gen] / 10, units[gen] % 10);
		json_string("string", text);
		json_uint("units_per_second", units[gen]);
		json_uint("bits_per_unit", 100000000);
	} else {
		snprintf(text, sizeof(text), ">6.0 Gb/s (%u)", gen);
		json_string("string", text);
	}
	json_object_end();
}

/* Word 76 (the speeds supported, bits 7:1) and word 77 (the current one, bits 3:1). */
static void json_interface_speed(const uint16_t *id)
{
	unsigned int max = id[ATA_ID_SATA_CAPABILITY] & 0x00fe, current = (id[ATA_ID_SATA_CAPABILITY_2] >> 1) & 7;
	unsigned int gen = 7;

	if (!serial_transport(id) || id[ATA_ID_SATA_CAPABILITY] == 0xffff || (!max && !current))
		return;
	json_object_begin("interface_speed");
	if (max) {
		while (!(max & (1u << gen)))
			gen--;
		json_sata_speed("max", max, gen);
	}
	if (current)
		json_sata_speed("current", current, current);
	json_object_end();
}

static void json_form_factor(const uint16_t *id)
{
	static const char *const names[10] = {
		NULL, "5.25 inches", "3.5 inches", "2.5 inches", "1.8 inches", "< 1.8 inches",
		"mSATA", "M.2", "MicroSSD", "CFast",
	};
	unsigned int code = id[ATA_ID_FORM_FACTOR] & 0x0f;

	if (!id[ATA_ID_FORM_FACTOR])
		return;
	json_object_begin("form_factor");
	json_uint("ata_value", id[ATA_ID_FORM_FACTOR]);
	if (code < ARRAY_SIZE(names) && names[code])
		json_string("name", names[code]);
	json_object_end();
}

/* Word 217: 1 a solid-state drive (smartctl says 0), 0401h-FFFEh the rpm; otherwise left out. */
static void json_rotation_rate(const uint16_t *id)
{
	if (id[ATA_ID_ROTATION_RATE] == 1)
		json_uint("rotation_rate", 0);
	else if (id[ATA_ID_ROTATION_RATE] > 0x400 && id[ATA_ID_ROTATION_RATE] < 0xffff)
		json_uint("rotation_rate", id[ATA_ID_ROTATION_RATE]);
}

static void json_smart_support(const uint16_t *id)
{
	json_object_begin("smart_support");
	json_bool("available", id[ATA_ID_COMMAND_SET_1] & 1);
	if (id[ATA_ID_COMMAND_SET_1] & 1)
		json_bool("enabled", id[ATA_ID_CFS_ENABLE_1] & 1);
	json_object_end();
}

/* "identify"'s identity, transport and standards. */
static void json_identity(const uint16_t id[IDENTIFY_WORDS], const struct identify_facts *facts)
{
	static const char *const kinds[] = {
		[IDENTIFY_UNKNOWN] = "unknown", [IDENTIFY_ATA] = "ata", [IDENTIFY_ATAPI] = "atapi", [IDENTIFY_CFA] = "cfa",
	};

	json_string("device_type", kinds[facts->kind]);
	json_bool("removable_media", id[ATA_ID_CONFIG] & 0x80);
	json_id_string("model_name", &id[ATA_ID_MODEL], 20);
	json_id_string("serial_number", &id[ATA_ID_SERIAL_NUMBER], 10);
	json_id_string("firmware_version", &id[ATA_ID_FIRMWARE], 4);

	json_object_begin("transport");
	if (ata_id_word_reported(id[ATA_ID_TRANSPORT_MAJOR]))
		json_string("type", facts->transport == 1 ? "serial" : facts->transport == 0 ? "parallel" : "other");
	else
		json_null("type");
	json_uint("major", id[ATA_ID_TRANSPORT_MAJOR]);
	json_uint("minor", id[ATA_ID_TRANSPORT_MINOR]);
	json_object_end();

	json_object_begin("standards");
	json_string("used", facts->used);
	json_uint("likely_used", facts->like_std);
	json_array_begin("supported");
	if (ata_id_word_reported(id[ATA_ID_MAJOR_VERSION]))
		for (unsigned int v = 14; v >= 1; v--)
			if (id[ATA_ID_MAJOR_VERSION] & (1u << v))
				json_uint(NULL, v);
	json_array_end();
	json_object_end();
}

/* "identify"'s capacity and sizes, rotation, form factor and smartctl's version keys. */
static void json_capacity(const uint16_t id[IDENTIFY_WORDS], const struct identify_facts *facts)
{
	uint16_t sb = id[ATA_ID_SECTOR_SIZE];
	unsigned int logical = identify_sector_bytes(id), per_physical = 1;

	if (ata_id_word_valid(sb) && (sb & (1u << 13)))
		per_physical = 1u << (sb & 0xf);
	json_object_begin("user_capacity");
	json_uint("blocks", facts->capacity);
	/* A garbage page can claim more bytes than 64 bits hold. */
	if (logical && facts->capacity <= UINT64_MAX / logical)
		json_uint("bytes", facts->capacity * logical);
	else
		json_null("bytes");
	json_object_end();
	if (id[ATA_ID_CAPABILITY] & 0x200)
		json_uint("lba28_sectors", (uint32_t)id[ATA_ID_LBA_CAPACITY + 1] << 16 | id[ATA_ID_LBA_CAPACITY]);
	else
		json_null("lba28_sectors");
	if (ata_id_word_valid(id[ATA_ID_COMMAND_SET_2]) && (id[ATA_ID_COMMAND_SET_2] & 0x0400))
		json_uint("lba48_sectors", (uint64_t)id[ATA_ID_LBA48_CAPACITY + 3] << 48 | (uint64_t)id[ATA_ID_LBA48_CAPACITY + 2] << 32 | (uint64_t)id[ATA_ID_LBA48_CAPACITY + 1] << 16 | id[ATA_ID_LBA48_CAPACITY]);
	else
		json_null("lba48_sectors");
	json_uint("logical_block_size", logical);
	json_uint("physical_block_size", (uint64_t)logical * per_physical);
	json_rotation_rate(id);
	json_form_factor(id);
	json_ata_version(id);
	json_sata_version(id);
	json_interface_speed(id);
	json_smart_support(id);
}

/* "identify"'s multiple sectors and transfer modes. */
static void json_transfer_modes(const uint16_t id[IDENTIFY_WORDS])
{
	char current[16] = "";

	json_object_begin("multiple_sectors");
	json_uint("max", id[ATA_ID_MAX_MULTIPLE] & 0xff);
	if (id[ATA_ID_MULTIPLE] & 0x100)
		json_uint("current", id[ATA_ID_MULTIPLE] & 0xff);
	else
		json_null("current");
	json_object_end();

	json_object_begin("transfer_modes");
	json_array_begin("pio");
	for (unsigned int m = 0; m <= 2; m++) {
		char name[8];

		snprintf(name, sizeof(name), "pio%u", m);
		json_string(NULL, name);
	}
	if (id[ATA_ID_FIELD_VALID] & 2)
		for (unsigned int m = 0; m < 8; m++)
			if (id[ATA_ID_PIO_MODES] & (1u << m)) {
				char name[8];

				snprintf(name, sizeof(name), "pio%u", m + 3);
				json_string(NULL, name);
			}
	json_array_end();
	json_modes("mdma", "mdma", id[ATA_ID_MWDMA_MODES] & 0xff, id[ATA_ID_MWDMA_MODES] >> 8, current, sizeof(current));
	json_modes("udma", "udma", (id[ATA_ID_FIELD_VALID] & 4) ? id[ATA_ID_UDMA_MODES] & 0xff : 0, (id[ATA_ID_FIELD_VALID] & 4) ? id[ATA_ID_UDMA_MODES] >> 8 : 0, current,
		   sizeof(current));
	json_string("current", current[0] ? current : NULL);
	json_object_end();
}

/* "identify"'s features, as -I lists them, and the caches and TRIM from the drive's words. */
static void json_features(const uint16_t id[IDENTIFY_WORDS], const struct identify_facts *facts)
{
	/*
	 * The drive's word, not -I's rows: 9.65 lists TRIM only for pages that
	 * look like ATA8-ACS or later, and QEMU's SSD, for one, claims less.
	 */
	bool trim = ata_id_has_trim(id);

	json_array_begin("features");
	for (unsigned int i = 0; i < facts->nfeatures; i++) {
		json_object_begin(NULL);
		json_string("name", facts->features[i].name);
		json_bool("supported", true);
		json_bool("enabled", facts->features[i].enabled);
		json_object_end();
	}
	json_array_end();

	json_object_begin("write_cache");
	json_bool("supported", id[ATA_ID_COMMAND_SET_1] & 0x20);
	json_bool("enabled", (id[ATA_ID_COMMAND_SET_1] & 0x20) && (id[ATA_ID_CFS_ENABLE_1] & 0x20));
	json_object_end();
	json_object_begin("read_lookahead");
	json_bool("supported", id[ATA_ID_COMMAND_SET_1] & 0x40);
	json_bool("enabled", (id[ATA_ID_COMMAND_SET_1] & 0x40) && (id[ATA_ID_CFS_ENABLE_1] & 0x40));
	json_object_end();

	json_object_begin("trim");
	json_bool("supported", trim);
	json_bool("deterministic", trim && (id[ATA_ID_ADDITIONAL_SUPPORT] & W69_TRIM_DETERMINISTIC));
	json_bool("zeroed", trim && (id[ATA_ID_ADDITIONAL_SUPPORT] & W69_TRIM_DETERMINISTIC) && (id[ATA_ID_ADDITIONAL_SUPPORT] & W69_TRIM_ZEROES));
	if (trim && ata_id_word_reported(id[ATA_ID_DSM_BLOCKS]))
		json_uint("limit_blocks", id[ATA_ID_DSM_BLOCKS]);
	else
		json_null("limit_blocks");
	json_object_end();
}

/* "identify"'s ATA Security state. */
static void json_security(const uint16_t id[IDENTIFY_WORDS])
{
	json_object_begin("ata_security");
	json_bool("supported", (id[ATA_ID_COMMAND_SET_1] & 2) && (id[ATA_ID_SECURITY] & 1));
	json_bool("enabled", id[ATA_ID_SECURITY] & 0x02);
	json_bool("locked", id[ATA_ID_SECURITY] & 0x04);
	json_bool("frozen", id[ATA_ID_SECURITY] & 0x08);
	json_bool("count_expired", id[ATA_ID_SECURITY] & 0x10);
	json_bool("enhanced_erase_supported", id[ATA_ID_SECURITY] & 0x20);
	json_string("level", (id[ATA_ID_SECURITY] & 0x02) ? ((id[ATA_ID_SECURITY] & 0x0100) ? "maximum" : "high") : NULL);
	if (ata_id_word_reported(id[ATA_ID_MASTER_PASSWORD_REV]))
		json_uint("master_password_revision", id[ATA_ID_MASTER_PASSWORD_REV]);
	else
		json_null("master_password_revision");
	json_erase_minutes("erase_minutes", id[ATA_ID_ERASE_TIME]);
	json_erase_minutes("enhanced_erase_minutes", id[ATA_ID_ENHANCED_ERASE_TIME]);
	json_object_end();
}

/* "identify"'s WWN and the page's checksum. */
static void json_wwn_checksum(const uint16_t id[IDENTIFY_WORDS], const struct identify_facts *facts)
{
	if (facts->like_std > 3 && (id[ATA_ID_COMMAND_SET_EXT] & 0x100)) {
		json_object_begin("wwn");
		json_uint("naa", (id[ATA_ID_WWN] & 0xf000u) >> 12);
		json_uint("oui", ((id[ATA_ID_WWN] & 0x0fffu) << 12) | ((id[ATA_ID_WWN + 1] & 0xfff0u) >> 4));
		json_uint("id", (uint64_t)(id[ATA_ID_WWN + 1] & 0x000fu) << 32 | (uint32_t)id[ATA_ID_WWN + 2] << 16 | id[ATA_ID_WWN + 3]);
		json_object_end();
	} else {
		json_null("wwn");
	}

	json_object_begin("checksum");
	if ((id[ATA_ID_INTEGRITY] & 0xff) == 0xa5)
		json_bool("valid", facts->checksum == 0);
	else
		json_null("valid");
	json_object_end();
}

void identify_json(const uint16_t id[IDENTIFY_WORDS])
{
	struct identify_facts facts;

	json_object_begin("identify");
	if (identify_decode(id, &facts)) {
		json_string("device_type", "unknown");
		json_object_end();
		return;
	}
	json_identity(id, &facts);
	json_capacity(id, &facts);
	json_transfer_modes(id);
	json_features(id, &facts);
	json_security(id);
	json_wwn_checksum(id, &facts);
	json_object_end();
}
