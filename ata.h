/*
 * The ATA wire format this program speaks (ACS-3/ACS-4): command opcodes,
 * subcommands, and the IDENTIFY DEVICE words the commands decide on, each
 * named once, with small predicates so that call sites read as sentences.
 * Pure definitions: no I/O.
 */
#ifndef HDPARM_ATA_H
#define HDPARM_ATA_H

#include <stdbool.h>
#include <stdint.h>

enum ata_opcode {
	ATA_OP_DATA_SET_MANAGEMENT = 0x06,	/* feature 01h: TRIM */
	ATA_OP_READ_SECTORS = 0x20,
	ATA_OP_READ_SECTORS_EXT = 0x24,
	ATA_OP_READ_NATIVE_MAX_EXT = 0x27,
	ATA_OP_READ_LOG_EXT = 0x2f,
	ATA_OP_WRITE_SECTORS = 0x30,
	ATA_OP_WRITE_SECTORS_EXT = 0x34,
	ATA_OP_SET_MAX_EXT = 0x37,
	ATA_OP_WRITE_UNCORRECTABLE_EXT = 0x45,
	ATA_OP_ACCESSIBLE_MAX_ADDRESS = 0x78,	/* AMAC: GET/SET NATIVE MAX ADDRESS EXT */
	ATA_OP_DOWNLOAD_MICROCODE = 0x92,
	ATA_OP_STANDBY_IMMEDIATE_OLD = 0x94,	/* ATA-1's codes, tried where E0h/E6h are refused */
	ATA_OP_CHECK_POWER_MODE_OLD = 0x98,
	ATA_OP_SLEEP_OLD = 0x99,
	ATA_OP_IDENTIFY_PACKET = 0xa1,
	ATA_OP_DEVICE_CONFIGURATION = 0xb1,
	ATA_OP_SET_SECTOR_CONFIGURATION_EXT = 0xb2,
	ATA_OP_SANITIZE = 0xb4,
	ATA_OP_SET_MULTIPLE = 0xc6,
	ATA_OP_STANDBY_IMMEDIATE = 0xe0,
	ATA_OP_IDLE_IMMEDIATE = 0xe1,	/* with FEATURE 44h and the "UNL" signature: unload */
	ATA_OP_IDLE = 0xe3,		/* COUNT: the standby timer (-S) */
	ATA_OP_CHECK_POWER_MODE = 0xe5,
	ATA_OP_SLEEP = 0xe6,
	ATA_OP_FLUSH_CACHE = 0xe7,
	ATA_OP_FLUSH_CACHE_EXT = 0xea,
	ATA_OP_IDENTIFY = 0xec,
	ATA_OP_SET_FEATURES = 0xef,
	ATA_OP_SECURITY_SET_PASSWORD = 0xf1,
	ATA_OP_SECURITY_UNLOCK = 0xf2,
	ATA_OP_SECURITY_ERASE_PREPARE = 0xf3,
	ATA_OP_SECURITY_ERASE_UNIT = 0xf4,
	ATA_OP_SECURITY_FREEZE_LOCK = 0xf5,
	ATA_OP_SECURITY_DISABLE_PASSWORD = 0xf6,
	ATA_OP_VENDOR_HITACHI_SENSE = 0xf0,	/* FEATURE 01h: the drive's temperature (-H) */
	ATA_OP_VENDOR_SEAGATE_PWRSAVE = 0xfb,	/* Seagate: auto power saving off (-Z) */
	ATA_OP_READ_NATIVE_MAX = 0xf8,
	ATA_OP_SET_MAX = 0xf9,
};

/* IDLE IMMEDIATE with unload (ACS-3 7.16): FEATURE 44h, LBA 55 4E 4Ch ("UNL"). */
#define ATA_IDLE_UNLOAD_FEATURE 0x44
#define ATA_IDLE_UNLOAD_SIGNATURE 0x0554e4cu

/* DEVICE CONFIGURATION (B1h) subcommands, in FEATURE. */
enum ata_dco {
	ATA_DCO_RESTORE = 0xc0,
	ATA_DCO_FREEZE_LOCK = 0xc1,
	ATA_DCO_IDENTIFY = 0xc2,
	ATA_DCO_SET = 0xc3,
};

/* General Purpose logs read by address, and the pages used. */
enum ata_log {
	ATA_LOG_DIRECTORY = 0x00,
	ATA_LOG_SECTOR_CONFIGURATION = 0x2f,
	ATA_LOG_IDENTIFY_DEVICE_DATA = 0x30,
};
#define ATA_IDDATA_PAGE_SATA 0x08	/* Serial ATA settings: DEVSLP timings */

/*
 * The data block of SECURITY SET PASSWORD, UNLOCK, ERASE UNIT and
 * DISABLE PASSWORD (ACS-3 7.41-7.46): word 0 the control word, words
 * 1-16 the password as 32 bytes in order, word 17 the master password
 * identifier; bytes as they go on the wire.
 */
struct ata_security_block {
	uint8_t control;	/* word 0 bits 7:0 */
	uint8_t level;		/* word 0 bits 15:8 */
	uint8_t password[32];
	uint8_t master_id[2];	/* little-endian */
	uint8_t reserved[476];
};
_Static_assert(sizeof(struct ata_security_block) == 512, "one 512-byte block");
#define ATA_SECURITY_MASTER 0x01	/* control: the master password, not the user's */
#define ATA_SECURITY_ENHANCED 0x02	/* control: ERASE UNIT in enhanced mode */
#define ATA_SECURITY_MAXIMUM 0x01	/* level: SET PASSWORD to Maximum, not High */

/* DATA SET MANAGEMENT (06h) FEATURE bit 0. */
#define ATA_DSM_TRIM 0x01

/* WRITE UNCORRECTABLE EXT (45h) FEATURE: a pseudo-uncorrectable or a flagged error. */
enum ata_write_unc {
	ATA_WRITE_UNC_PSEUDO = 0x55,
	ATA_WRITE_UNC_FLAGGED = 0xaa,
};

/* DEVICE register: the LBA bit. */
#define ATA_DEVICE_LBA 0x40

/* IDENTIFY DEVICE word indexes. */
enum ata_id_word {
	ATA_ID_MULTIPLE = 59,		/* bits 7:0 sectors per DRQ block, valid with bit 8 */
	ATA_ID_SANITIZE = 59,		/* bit 12: the SANITIZE feature set */
	ATA_ID_MAJOR_VERSION = 80,	/* bit 10: ACS-3, which has ACCESSIBLE MAX ADDRESS */
	ATA_ID_COMMAND_SET_1 = 82,	/* bit 6 look-ahead, 5 write cache, 1 Security */
	ATA_ID_COMMAND_SET_2 = 83,	/* bits 15:14 = 01b valid; 13 FLUSH CACHE EXT, 10 LBA48, 9 AAM, 3 APM, 0 DOWNLOAD MICROCODE */
	ATA_ID_COMMAND_SET_EXT = 84,	/* bit 5: General Purpose Logging (0: no log to read) */
	ATA_ID_CFS_ENABLE_1 = 85,	/* word 82's features, enabled */
	ATA_ID_CFS_ENABLE_2 = 86,	/* bit 15: words 119-120 valid; word 83's features, enabled */
	ATA_ID_APM_LEVEL = 91,		/* bits 7:0 */
	ATA_ID_MASTER_PASSWORD_REV = 92,
	ATA_ID_ACOUSTIC_LEVEL = 94,	/* bits 7:0 the current level */
	ATA_ID_DSM_BLOCKS = 105,	/* 512-byte blocks of TRIM ranges one command may carry */
	ATA_ID_COMMAND_SET_3 = 119,	/* bit 8 AMAX, 4 DOWNLOAD MICROCODE mode 3, 2 WRITE UNCORRECTABLE EXT, 1 WRV */
	ATA_ID_COMMAND_SET_4 = 120,	/* bits 15:14 = 01b valid; the same bits, enabled */
	ATA_ID_SECURITY = 128,		/* bit 0 supported, 1 enabled, 3 frozen */
	ATA_ID_DATA_SET_MANAGEMENT = 169,	/* bit 0: TRIM */
	ATA_ID_MICROCODE_MIN_SEGMENT = 234,
	ATA_ID_MICROCODE_MAX_SEGMENT = 235,
};

/* A word the drive filled in: neither 0000h nor FFFFh. */
static inline bool ata_id_word_reported(uint16_t w)
{
	return w != 0 && w != 0xffff;
}

/* Word 82's look-ahead (bit 6) and write cache (bit 5), and word 85's same bits: enabled. */
#define ATA_ID_LOOKAHEAD 0x0040
#define ATA_ID_WRITE_CACHE 0x0020

static inline bool ata_id_has_feature(const uint16_t *id, uint16_t bit)
{
	return id[ATA_ID_COMMAND_SET_1] & bit;
}

static inline bool ata_id_feature_enabled(const uint16_t *id, uint16_t bit)
{
	return ata_id_has_feature(id, bit) && (id[ATA_ID_CFS_ENABLE_1] & bit);
}

/* Advanced Power Management, where word 83 is valid. */
static inline bool ata_id_has_apm(const uint16_t *id)
{
	return (id[ATA_ID_COMMAND_SET_2] & 0xc008) == 0x4008;
}

static inline bool ata_id_apm_enabled(const uint16_t *id)
{
	return ata_id_has_apm(id) && (id[ATA_ID_CFS_ENABLE_2] & 0x0008);
}

/* Automatic Acoustic Management. */
static inline bool ata_id_has_aam(const uint16_t *id)
{
	return id[ATA_ID_COMMAND_SET_2] & 0x0200;
}

/* Write-Read-Verify, and whether it is on. */
static inline bool ata_id_has_wrv(const uint16_t *id)
{
	return id[ATA_ID_COMMAND_SET_3] & 0x0002;
}

static inline bool ata_id_wrv_enabled(const uint16_t *id)
{
	return ata_id_has_wrv(id) && (id[ATA_ID_COMMAND_SET_4] & 0x0002);
}

/* FLUSH CACHE EXT, where word 83 is valid. */
static inline bool ata_id_has_flush_ext(const uint16_t *id)
{
	return (id[ATA_ID_COMMAND_SET_2] & 0xe000) == 0x6000;
}

/* 48-bit addressing, supported (word 83 valid) and enabled. */
static inline bool ata_id_lba48_enabled(const uint16_t *id)
{
	return (id[ATA_ID_COMMAND_SET_2] & 0xc400) == 0x4400 && (id[ATA_ID_CFS_ENABLE_2] & 0x0400);
}

/* ACCESSIBLE MAX ADDRESS CONFIGURATION (ACS-3). */
static inline bool ata_id_has_amax(const uint16_t *id)
{
	return (id[ATA_ID_MAJOR_VERSION] & 0x0400) && (id[ATA_ID_COMMAND_SET_3] & 0x0100);
}

static inline bool ata_id_has_trim(const uint16_t *id)
{
	return (id[ATA_ID_DATA_SET_MANAGEMENT] & 1) && id[ATA_ID_DATA_SET_MANAGEMENT] != 0xffff;
}

static inline bool ata_id_has_sanitize(const uint16_t *id)
{
	return id[ATA_ID_SANITIZE] & 0x1000;
}

static inline bool ata_id_has_security(const uint16_t *id)
{
	return (id[ATA_ID_COMMAND_SET_1] & 0x0002) && (id[ATA_ID_SECURITY] & 0x0001);
}

static inline bool ata_id_security_enabled(const uint16_t *id)
{
	return id[ATA_ID_SECURITY] & 0x0002;
}

static inline bool ata_id_security_frozen(const uint16_t *id)
{
	return id[ATA_ID_SECURITY] & 0x0008;
}

static inline bool ata_id_has_download_microcode(const uint16_t *id)
{
	return (id[ATA_ID_COMMAND_SET_2] & 1) && (id[ATA_ID_CFS_ENABLE_2] & 1);
}

/* DOWNLOAD MICROCODE with offsets (mode 3), supported and enabled. */
static inline bool ata_id_has_microcode_mode3(const uint16_t *id)
{
	return (id[ATA_ID_COMMAND_SET_3] & 0x10) && (id[ATA_ID_COMMAND_SET_4] & 0x10);
}

/* WRITE UNCORRECTABLE EXT, where words 83, 86, 119 and 120 are valid and say so. */
static inline bool ata_id_has_write_uncorrectable(const uint16_t *id)
{
	return (id[ATA_ID_COMMAND_SET_2] & 0xc000) == 0x4000 && (id[ATA_ID_CFS_ENABLE_2] & 0x8000) &&
	       (id[ATA_ID_COMMAND_SET_3] & 0xc004) == 0x4004 && (id[ATA_ID_COMMAND_SET_4] & 0xc000) == 0x4000;
}

#endif
