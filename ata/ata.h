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
	ATA_OP_READ_VERIFY_SECTORS = 0x40,
	ATA_OP_READ_VERIFY_SECTORS_EXT = 0x42,
	ATA_OP_READ_NATIVE_MAX_EXT = 0x27,
	ATA_OP_READ_LOG_EXT = 0x2f,
	ATA_OP_WRITE_SECTORS = 0x30,
	ATA_OP_WRITE_SECTORS_EXT = 0x34,
	ATA_OP_SET_MAX_EXT = 0x37,
	ATA_OP_WRITE_UNCORRECTABLE_EXT = 0x45,
	ATA_OP_TRUSTED_RECEIVE = 0x5c,
	ATA_OP_TRUSTED_RECEIVE_DMA = 0x5d,
	ATA_OP_TRUSTED_SEND = 0x5e,
	ATA_OP_TRUSTED_SEND_DMA = 0x5f,
	ATA_OP_ACCESSIBLE_MAX_ADDRESS = 0x78,	/* AMAC: GET/SET NATIVE MAX ADDRESS EXT */
	ATA_OP_DOWNLOAD_MICROCODE = 0x92,
	ATA_OP_VENDOR_WD = 0x80,	/* WD: vendor-specific commands on ('E') or off ('D') in FEATURE, "WD" in LBA */
	ATA_OP_STANDBY_IMMEDIATE_OLD = 0x94,	/* ATA-1's codes, tried where E0h/E6h are refused */
	ATA_OP_CHECK_POWER_MODE_OLD = 0x98,
	ATA_OP_SLEEP_OLD = 0x99,
	ATA_OP_IDENTIFY_PACKET = 0xa1,
	ATA_OP_DEVICE_CONFIGURATION = 0xb1,
	ATA_OP_SET_SECTOR_CONFIGURATION_EXT = 0xb2,
	ATA_OP_SMART = 0xb0,
	ATA_OP_SANITIZE = 0xb4,
	ATA_OP_SET_MULTIPLE = 0xc6,
	ATA_OP_DOOR_LOCK = 0xde,
	ATA_OP_DOOR_UNLOCK = 0xdf,
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

/* SET FEATURES (EFh) subcommands, in FEATURE (ACS-3 7.45). */
enum ata_set_features {
	ATA_SF_WCACHE_ON = 0x02,
	ATA_SF_XFER_MODE = 0x03,	/* COUNT: the transfer mode */
	ATA_SF_DEFECTS_ON = 0x04,	/* automatic defect reassignment (-D) */
	ATA_SF_APM_ON = 0x05,		/* COUNT: the APM level */
	ATA_SF_PUIS_ON = 0x06,		/* power-up in standby */
	ATA_SF_PUIS_SPINUP = 0x07,
	ATA_SF_WRV_ON = 0x0b,		/* COUNT: the write-read-verify mode */
	ATA_SF_AAM_ON = 0x42,		/* COUNT: the acoustic level */
	ATA_SF_EPC = 0x4a,		/* Extended Power Conditions: enum ata_epc_subcommand in LBA 3:0 */
	ATA_SF_LOOKAHEAD_OFF = 0x55,
	ATA_SF_REVERT_OFF = 0x66,	/* keep the features over a reset (-K1) */
	ATA_SF_WCACHE_OFF = 0x82,
	ATA_SF_DEFECTS_OFF = 0x84,
	ATA_SF_APM_OFF = 0x85,
	ATA_SF_PUIS_OFF = 0x86,
	ATA_SF_WRV_OFF = 0x8b,
	ATA_SF_LOOKAHEAD_ON = 0xaa,
	ATA_SF_PREFETCH = 0xab,		/* COUNT: the maximum prefetch */
	ATA_SF_AAM_OFF = 0xc2,
	ATA_SF_REVERT_ON = 0xcc,	/* back to the power-on defaults at a reset (-K0) */
};

/* SMART (B0h) subcommands, in FEATURE; LBA 23:8 carries the signature C24Fh, LBA 7:0 the log. */
enum ata_smart {
	ATA_SMART_READ_DATA = 0xd0,
	ATA_SMART_READ_THRESHOLDS = 0xd1,
	ATA_SMART_READ_LOG = 0xd5,
	ATA_SMART_WRITE_LOG = 0xd6,
	ATA_SMART_EXECUTE_OFFLINE = 0xd4,
	ATA_SMART_RETURN_STATUS = 0xda,
};
#define ATA_SMART_LBA_SIGNATURE 0xc24f00u

/* DEVICE register bits 7 and 5, obsolete, which old drives still want set for vendor commands. */
#define ATA_DEVICE_OBSOLETE 0xa0

/* ACCESSIBLE MAX ADDRESS CONFIGURATION (78h) subcommands, in FEATURE. */
enum ata_amax {
	ATA_AMAX_GET_NATIVE = 0x00,
	ATA_AMAX_SET = 0x01,
};

/* IDLE IMMEDIATE with unload (ACS-3 7.16): FEATURE 44h, LBA 55 4E 4Ch ("UNL"). */
#define ATA_IDLE_UNLOAD_FEATURE 0x44
#define ATA_IDLE_UNLOAD_SIGNATURE 0x0554e4cu

/*
 * SET FEATURES EPC (ACS-3 7.45.19): the subcommand in LBA 3:0, its bits
 * in LBA 7:4, a timer in LBA 23:8, the power condition in COUNT.
 */
enum ata_epc_subcommand {
	ATA_EPC_RESTORE = 0x0,		/* Restore Power Condition Settings */
	ATA_EPC_GOTO = 0x1,		/* Go To Power Condition */
	ATA_EPC_SET_TIMER = 0x2,	/* Set Power Condition Timer */
	ATA_EPC_SET_STATE = 0x3,	/* Set Power Condition State */
	ATA_EPC_ENABLE = 0x4,
	ATA_EPC_DISABLE = 0x5,
};
#define ATA_EPC_SAVE 0x10		/* LBA bit 4: the setting is saved too */
#define ATA_EPC_ENABLE_BIT 0x20		/* LBA bit 5: the condition enabled (timer, state) */
#define ATA_EPC_RESTORE_DEFAULT 0x40	/* LBA bit 6: restore the default settings, else the saved */
#define ATA_EPC_TIMER_MINUTES 0x80	/* LBA bit 7: the timer counts minutes, else 100 ms */
#define ATA_EPC_TIMER_SHIFT 8		/* LBA 23:8: the timer */
#define ATA_EPC_TIMER_MAX 0xffffu

/* Power condition identifiers (COUNT), and the Power Conditions log that describes them. */
enum ata_power_condition {
	ATA_PC_STANDBY_Z = 0x00,
	ATA_PC_STANDBY_Y = 0x01,
	ATA_PC_IDLE_A = 0x81,
	ATA_PC_IDLE_B = 0x82,
	ATA_PC_IDLE_C = 0x83,
	ATA_PC_ALL = 0xff,
};
#define ATA_PCL_PAGE_IDLE 0x00		/* log 08h page 00h: Idle_a, _b, _c at bytes 0, 64, 128 */
#define ATA_PCL_PAGE_STANDBY 0x01	/* page 01h: Standby_y, _z at bytes 384, 448 */
#define ATA_PCL_DESCRIPTOR 64
/* A descriptor's byte 1; its timers (100 ms units, little-endian) at bytes 4 default, 8 saved, 12 current, 20 min, 24 max. */
#define ATA_PCL_SUPPORTED 0x80
#define ATA_PCL_SAVEABLE 0x40
#define ATA_PCL_CHANGEABLE 0x20
#define ATA_PCL_DEFAULT_ENABLED 0x10
#define ATA_PCL_SAVED_ENABLED 0x08
#define ATA_PCL_CURRENT_ENABLED 0x04
#define ATA_PCL_DEFAULT_TIMER 4
#define ATA_PCL_SAVED_TIMER 8
#define ATA_PCL_CURRENT_TIMER 12
#define ATA_PCL_MIN_TIMER 20
#define ATA_PCL_MAX_TIMER 24

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
	ATA_LOG_DEVICE_STATISTICS = 0x04,
	ATA_LOG_POWER_CONDITIONS = 0x08,
	ATA_LOG_SECTOR_CONFIGURATION = 0x2f,
	ATA_LOG_IDENTIFY_DEVICE_DATA = 0x30,
};
#define ATA_IDDATA_PAGE_SATA 0x08	/* Serial ATA settings: DEVSLP timings */

/*
 * The Device Statistics log (ACS-3 9.5): pages of 64-bit statistics, each
 * with flags in its top bits (63: supported, 62: valid) and its value
 * below; the General Statistics page's header names it (byte 2: 01h).
 */
#define ATA_STATS_PAGE_GENERAL 0x01
#define ATA_STAT_POWER_ON_HOURS 0x10	/* byte offset: a 32-bit value */
#define ATA_STAT_SUPPORTED (1ULL << 63)
#define ATA_STAT_VALID (1ULL << 62)

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

/* IDENTIFY DEVICE word indexes (ACS-3 7.12.7); a field of several words by its first. */
enum ata_id_word {
	ATA_ID_CONFIG = 0,			/* general configuration: bit 15 ATAPI, 7 removable */
	ATA_ID_CYLS = 1,			/* obsolete: default cylinders */
	ATA_ID_SPECIFIC_CONFIG = 2,		/* 37C8h/738Ch/8C73h/C837h: power-up in standby, spin-up needed */
	ATA_ID_HEADS = 3,			/* obsolete: default heads */
	ATA_ID_BYTES_PER_TRACK = 4,		/* retired: unformatted bytes per track */
	ATA_ID_BYTES_PER_SECTOR = 5,		/* retired: unformatted bytes per sector */
	ATA_ID_SECTORS = 6,			/* obsolete: default sectors per track */
	ATA_ID_SERIAL_NUMBER = 10,		/* words 10-19, two characters a word */
	ATA_ID_BUFFER_TYPE = 20,		/* retired */
	ATA_ID_BUFFER_SIZE = 21,		/* retired: in 512-byte units */
	ATA_ID_ECC_BYTES = 22,			/* obsolete: bytes of ECC on READ/WRITE LONG */
	ATA_ID_FIRMWARE = 23,			/* words 23-26 */
	ATA_ID_MODEL = 27,			/* words 27-46 */
	ATA_ID_MAX_MULTIPLE = 47,		/* bits 7:0: most sectors per DRQ block */
	ATA_ID_DWORD_IO = 48,			/* obsolete: double-word I/O (trusted computing in ACS) */
	ATA_ID_CAPABILITY = 49,			/* bit 9 LBA, 8 DMA, 11 IORDY */
	ATA_ID_CAPABILITY_2 = 50,		/* bits 15:14 = 01b valid; bit 0 standby timer minimum */
	ATA_ID_OLD_PIO_MODES = 51,		/* obsolete: PIO timing mode in bits 15:8 */
	ATA_ID_OLD_DMA_MODES = 52,		/* obsolete */
	ATA_ID_FIELD_VALID = 53,		/* bit 1 words 64-70, 2 word 88 valid */
	ATA_ID_CUR_CYLS = 54,			/* obsolete: current cylinders */
	ATA_ID_CUR_HEADS = 55,			/* obsolete: current heads */
	ATA_ID_CUR_SECTORS = 56,		/* obsolete: current sectors per track */
	ATA_ID_CUR_CAPACITY = 57,		/* words 57-58, obsolete: current capacity in sectors */
	ATA_ID_LBA_CAPACITY = 60,		/* words 60-61: 28-bit addressable sectors */
	ATA_ID_SWDMA_MODES = 62,		/* obsolete single-word DMA; ATAPI: DMADIR */
	ATA_ID_MWDMA_MODES = 63,		/* multiword DMA supported (7:0) and selected (15:8) */
	ATA_ID_PIO_MODES = 64,			/* advanced PIO modes */
	ATA_ID_DMA_MIN_CYCLE = 65,		/* ns */
	ATA_ID_DMA_CYCLE = 66,			/* recommended, ns */
	ATA_ID_PIO_CYCLE = 67,			/* without IORDY, ns */
	ATA_ID_PIO_IORDY_CYCLE = 68,		/* with IORDY, ns */
	ATA_ID_ADDITIONAL_SUPPORT = 69,		/* additional supported features */
	ATA_ID_PACKET_RELEASE_TIME = 71,	/* ATAPI: PACKET to bus release, us */
	ATA_ID_PACKET_SERVICE_TIME = 72,	/* ATAPI: SERVICE to BSY cleared, us */
	ATA_ID_ATAPI_REVISIONS = 73,		/* ATAPI (SFF-8020): revisions supported */
	ATA_ID_ATAPI_USED = 74,			/* ATAPI (SFF-8020): revision used */
	ATA_ID_QUEUE_DEPTH = 75,		/* bits 4:0: queue depth - 1 */
	ATA_ID_SATA_CAPABILITY = 76,		/* Serial ATA capabilities */
	ATA_ID_SATA_CAPABILITY_2 = 77,		/* Serial ATA additional capabilities */
	ATA_ID_SATA_FEATURES = 78,		/* Serial ATA features supported */
	ATA_ID_SATA_FEATURES_ENABLED = 79,	/* Serial ATA features enabled */
	ATA_ID_MINOR_VERSION = 81,		/* the standard's revision, as a code */
	ATA_ID_CFS_DEFAULT = 87,		/* word 84's features, enabled; bits 15:14 = 01b valid */
	ATA_ID_UDMA_MODES = 88,			/* Ultra DMA supported (7:0) and selected (15:8) */
	ATA_ID_ERASE_TIME = 89,			/* SECURITY ERASE UNIT time */
	ATA_ID_ENHANCED_ERASE_TIME = 90,	/* enhanced SECURITY ERASE UNIT time */
	ATA_ID_HW_RESET_RESULT = 93,		/* hardware reset result (PATA) */
	ATA_ID_LBA48_CAPACITY = 100,		/* words 100-103: 48-bit addressable sectors */
	ATA_ID_SECTOR_SIZE = 106,		/* physical sector size / logical sector size */
	ATA_ID_WWN = 108,			/* words 108-111: the world wide name */
	ATA_ID_TLC_TIMER = 116,			/* time-limited commands timer, 10 ms */
	ATA_ID_LOGICAL_SECTOR_SIZE = 117,	/* words 117-118: in words */
	ATA_ID_REMOVABLE_STATUS = 127,		/* obsolete: removable media status notification */
	ATA_ID_CFA_POWER = 160,			/* CFA power mode */
	ATA_ID_CFA_KEY_MGMT = 162,		/* CFA key management */
	ATA_ID_CFA_MODES = 163,			/* CFA PIO and DMA modes */
	ATA_ID_CFA_ADVANCED_MODES = 164,		/* CFA advanced true IDE timings */
	ATA_ID_FORM_FACTOR = 168,		/* bits 3:0: nominal form factor */
	ATA_ID_MEDIA_SERIAL = 176,		/* words 176-195 */
	ATA_ID_MEDIA_MANUFACTURER = 196,		/* words 196-205 */
	ATA_ID_SCT_COMMAND_TRANSPORT = 206,	/* SCT command transport */
	ATA_ID_SECTOR_ALIGNMENT = 209,		/* logical sector offset in a physical sector */
	ATA_ID_ROTATION_RATE = 217,		/* 1: solid state, else rpm */
	ATA_ID_TRANSPORT_MAJOR = 222,		/* transport major version */
	ATA_ID_TRANSPORT_MINOR = 223,		/* transport minor version */
	ATA_ID_INTEGRITY = 255,			/* A5h in 7:0, then the checksum */
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
	ATA_ID_COMMAND_SET_3 = 119,	/* bit 8 AMAX, 7 EPC, 4 DOWNLOAD MICROCODE mode 3, 2 WRITE UNCORRECTABLE EXT, 1 WRV */
	ATA_ID_COMMAND_SET_4 = 120,	/* bits 15:14 = 01b valid; the same bits, enabled */
	ATA_ID_SECURITY = 128,		/* bit 0 supported, 1 enabled, 3 frozen */
	ATA_ID_DATA_SET_MANAGEMENT = 169,	/* bit 0: TRIM */
	ATA_ID_MICROCODE_MIN_SEGMENT = 234,
	ATA_ID_MICROCODE_MAX_SEGMENT = 235,
};

/* A word whose bits 15:14 are 01b carries valid data. */
static inline bool ata_id_word_valid(uint16_t w)
{
	return (w & 0xc000) == 0x4000;
}

/* General Purpose Logging (word 84 bit 5): the logs READ LOG EXT reads, Device Statistics among them. */
static inline bool ata_id_has_gpl(const uint16_t *id)
{
	return ata_id_word_valid(id[ATA_ID_COMMAND_SET_EXT]) && (id[ATA_ID_COMMAND_SET_EXT] & 0x0020);
}

/* Word 69's TRIM bits: read data after TRIM is deterministic (14), and is zeros (5). */
#define ATA_ID_TRIM_ZEROES (1u << 5)
#define ATA_ID_TRIM_DETERMINISTIC (1u << 14)

/* A word the drive filled in: neither 0000h nor FFFFh. */
static inline bool ata_id_word_reported(uint16_t w)
{
	return w != 0 && w != 0xffff;
}

/* Word 206 bit 0: the SCT Command Transport, whose SCT Status (log E0h) holds the temperature. */
/* SMART enabled (word 85 bit 0), so that SMART READ DATA answers. */
static inline bool ata_id_smart_enabled(const uint16_t *id)
{
	return ata_id_word_reported(id[ATA_ID_CFS_ENABLE_1]) && (id[ATA_ID_CFS_ENABLE_1] & 0x0001);
}

static inline bool ata_id_has_sct(const uint16_t *id)
{
	return ata_id_word_reported(id[ATA_ID_SCT_COMMAND_TRANSPORT]) && (id[ATA_ID_SCT_COMMAND_TRANSPORT] & 0x0001);
}

/* Word 206 bit 3 (with bit 0): SCT Error Recovery Control, the read and write recovery time limits. */
static inline bool ata_id_has_sct_erc(const uint16_t *id)
{
	return ata_id_has_sct(id) && (id[ATA_ID_SCT_COMMAND_TRANSPORT] & 0x0008);
}

/*
 * The SCT Command Transport (ACS-3 8.3): a command is a 512-byte block
 * written to log E0h with SMART WRITE LOG, its words the action code, the
 * function code, then the action's own; Error Recovery Control (8.3.3)
 * sets or returns one timer, in 100 ms units, which a return gives back
 * in COUNT (bits 7:0) and LBA (bits 15:8).
 */
#define ATA_SCT_LOG 0xe0
enum ata_sct_erc {
	ATA_SCT_ACTION_ERC = 0x0003,
	ATA_SCT_ERC_SET = 0x0001,
	ATA_SCT_ERC_RETURN = 0x0002,
	ATA_SCT_ERC_READ_TIMER = 0x0001,
	ATA_SCT_ERC_WRITE_TIMER = 0x0002,
};

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

/* Extended Power Conditions (ACS-3): word 119 bit 7 supported, word 120 bit 7 enabled, where both are valid. */
static inline bool ata_id_has_epc(const uint16_t *id)
{
	return (id[ATA_ID_CFS_ENABLE_2] & 0x8000) && ata_id_word_valid(id[ATA_ID_COMMAND_SET_3]) &&
	       (id[ATA_ID_COMMAND_SET_3] & 0x0080);
}

static inline bool ata_id_epc_enabled(const uint16_t *id)
{
	return ata_id_has_epc(id) && ata_id_word_valid(id[ATA_ID_COMMAND_SET_4]) && (id[ATA_ID_COMMAND_SET_4] & 0x0080);
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

/* SANITIZE (B4h, ACS-3 7.36): the subcommand in FEATURE, and the signature each wants in LBA. */
#define ATA_SANITIZE_STATUS_EXT 0x0000
#define ATA_SANITIZE_CRYPTO_SCRAMBLE 0x0011
#define ATA_SANITIZE_BLOCK_ERASE 0x0012
#define ATA_SANITIZE_OVERWRITE 0x0014
#define ATA_SANITIZE_FREEZE_LOCK 0x0020
#define ATA_SANITIZE_ANTIFREEZE_LOCK 0x0040
#define ATA_SANITIZE_CRYPTO_KEY 0x43727970ULL		/* "Cryp" */
#define ATA_SANITIZE_BLOCK_KEY 0x426b4572ULL		/* "BkEr" */
#define ATA_SANITIZE_OVERWRITE_KEY (0x4f57ULL << 32)	/* "OW", above the pattern */
#define ATA_SANITIZE_FREEZE_KEY 0x46724c6bULL		/* "FrLk" */
#define ATA_SANITIZE_ANTIFREEZE_KEY 0x416e7469ULL	/* "Anti" */
/* COUNT: an erase's failure may be left by a STATUS with CLEAR; SANITIZE STATUS EXT: leave it. */
#define ATA_SANITIZE_FAILURE_MODE 0x0010
#define ATA_SANITIZE_CLEAR_FAILED 0x0001

/* SANITIZE STATUS EXT's answer (ACS-3 7.36): COUNT 15:8 the state bits, LBA 15:0 the progress in 1/65536. */
#define ATA_SANITIZE_COMPLETED_WITHOUT_ERROR 0x80
#define ATA_SANITIZE_IN_PROGRESS 0x40
#define ATA_SANITIZE_FROZEN 0x20
#define ATA_SANITIZE_ANTIFREEZE 0x10
/* A SANITIZE STATUS EXT that ended with ABRT: LBA 7:0 says why the last sanitize failed. */
#define ATA_SANITIZE_REASON_FAILED 0
#define ATA_SANITIZE_REASON_UNSANITIZED 1
#define ATA_SANITIZE_REASON_UNSUPPORTED 2
#define ATA_SANITIZE_REASON_FROZEN 3
#define ATA_SANITIZE_REASON_ANTIFREEZE 4

/* DEVICE CONFIGURATION OVERLAY (word 83 bit 11, where the word is valid). */
static inline bool ata_id_has_dco(const uint16_t *id)
{
	return (id[ATA_ID_COMMAND_SET_2] & 0xc800) == 0x4800;
}

static inline bool ata_id_security_locked(const uint16_t *id)
{
	return id[ATA_ID_SECURITY] & 0x0004;
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
