/* IDENTIFY DEVICE / IDENTIFY PACKET DEVICE page decoding. */
#ifndef HDPARM_IDENTIFY_H
#define HDPARM_IDENTIFY_H

#include <stdint.h>
#include <stdbool.h>
#include <stdio.h>

#define IDENTIFY_WORDS 256

/*
 * The drive logs -I prints from besides the page.  The decoder does no
 * I/O: the caller reads what identify_logs_wanted() names and passes it
 * in; a NULL log (or no logs at all, as for --Istdin) leaves its lines out.
 */
struct identify_logs {
	const uint8_t *sector_config;	/* Sector Configuration log (2Fh), page 0 */
	const uint8_t *sata_settings;	/* Identify Device Data log (30h), page 08h: DEVSLP timings */
};

void identify_logs_wanted(const uint16_t id[IDENTIFY_WORDS], bool *sector_config, bool *sata_settings);

/*
 * Print the page the way "hdparm -I" does.  Returns 0, or EINVAL for a
 * page whose word 0 names no known device type.
 */
int identify_print(const uint16_t id[IDENTIFY_WORDS], const struct identify_logs *logs);

/* What kind of device word 0 (and the CFA signatures) describe. */
enum identify_kind { IDENTIFY_UNKNOWN, IDENTIFY_ATA, IDENTIFY_ATAPI, IDENTIFY_CFA };

/*
 * The decisions taken from a page, once: both renderings (-I's text and
 * --json's "identify") read them instead of deciding again.  The words
 * themselves stay the source for what is shown as it stands.
 */
struct identify_facts {
	enum identify_kind kind;
	unsigned int packet_type;	/* ATAPI: word 0 bits 12:8 */
	bool cdrom;			/* ATAPI CD-ROM: its own standards */
	unsigned int transport;		/* word 222 bits 15:12 (0 parallel, 1 serial) */
	uint8_t checksum;		/* byte sum over the page: 0 when correct */
	unsigned int like_std;		/* "Likely used" / the standard the page resembles */
	unsigned int min_std;		/* the oldest standard the page claims */
	unsigned int std;		/* named by word 81, 0 when not */
	const char *used;		/* word 81's text, or NULL */
	uint16_t listed_majors;		/* word 80's bits that "Supported:" lists */
	uint64_t capacity;		/* the sectors "device size" counts */
	unsigned int tlc_msec;		/* word 84's TLC completion timer, 0: not shown */
	unsigned int nfeatures;
	struct identify_feature {
		const char *name;
		bool enabled;
		uint8_t word;		/* the IDENTIFY word the row comes from */
	} features[160];
};

/* Decide *facts from a page.  Returns 0, or EINVAL for an unknown device type. */
int identify_decode(const uint16_t id[IDENTIFY_WORDS], struct identify_facts *facts);

/* The page as the "identify" object of the --json document. */
void identify_json(const uint16_t id[IDENTIFY_WORDS]);

/* -i's page (strings as the kernel stored them): model, firmware, serial. */
void identify_json_short(const uint16_t id[IDENTIFY_WORDS]);

/* Print the short "-i" paragraph (HDIO_GET_IDENTITY layout). */
void identify_print_short(const uint16_t id[IDENTIFY_WORDS]);

/*
 * Read a page written as ASCII hex (the --Istdout format, leading
 * non-hex lines skipped).  Returns the number of words read (256 when
 * the page is complete).
 */
int identify_read_hex(FILE *in, uint16_t id[IDENTIFY_WORDS]);

/*
 * Sectors the drive reports as user addressable, by the rule -I's "device
 * size" and --json's user_capacity use: LBA48 where supported, else the
 * larger of LBA28 and the current CHS capacity, else C*H*S.
 */
uint64_t identify_capacity(const uint16_t id[IDENTIFY_WORDS]);


/* Logical sector size in bytes (512 unless word 106 says otherwise). */
unsigned int identify_sector_bytes(const uint16_t id[IDENTIFY_WORDS]);

/*
 * One descriptor of the Sector Configuration log (ACS-4, log 2Fh, page 0):
 * a logical sector size the drive can be set to, and the check word that
 * SET SECTOR CONFIGURATION EXT must carry to choose it.
 */
struct sector_config {
	unsigned int index;	/* the descriptor's place in the log: the command's COUNT */
	uint32_t bytes;		/* the log gives the size in words */
	uint16_t check;		/* DESCRIPTOR CHECK: the command's FEATURE */
};

#define SECTOR_CONFIGS 8

/* The valid descriptors of the log, in its order; returns how many. */
unsigned int sector_configs(const uint8_t log[512], struct sector_config out[SECTOR_CONFIGS]);

/*
 * Pieces of the decoding that -I's text and -i show as they stand.  The
 * CHS words and the 28-bit count (words 1-6, 54-58, 60-61):
 */
uint64_t identify_chs_product(const uint16_t *id);	/* C*H*S, current geometry where valid */
bool identify_has_chs(const uint16_t *id, uint32_t lba28);	/* CHS addressing described at all */
uint32_t identify_lba28_capacity(const uint16_t *id);	/* 0 without LBA */
uint32_t identify_chs_current_capacity(const uint16_t *id, uint64_t chs_product, unsigned int like_std);
bool identify_specific_config_valid(const uint16_t *id);	/* word 2 holds one of its four values */
const char *identify_buffer_type(unsigned int type);	/* word 20's name; NULL past the table */
const char *identify_minor_version(uint16_t code);	/* word 81's text; NULL when unlisted */

/* Copy an ATA string field (byte-swapped words), trailing blanks removed. */
void identify_string(const uint16_t *words, int nwords, char *dst);

#endif
