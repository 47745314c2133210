/*
 * The NVMe wire format this program reads and sends (NVM Express Base
 * 1.4): opcodes, the fields of the commands' dwords, the Identify
 * Controller and Identify Namespace data structures and the Sanitize
 * Status log, each field
 * named once, little-endian as they come from the controller (read them
 * with le16toh() and friends), the offsets checked at compile time.
 * Pure definitions: no I/O.
 */
#ifndef HDPARM_NVME_SPEC_H
#define HDPARM_NVME_SPEC_H

#include <stddef.h>
#include <stdint.h>

#define NVME_IDENTIFY_BYTES 4096

/* Admin command opcodes (NVMe Base 1.4, Figure 139). */
enum nvme_admin_opcode {
	NVME_ADMIN_GET_LOG_PAGE = 0x02,
	NVME_ADMIN_IDENTIFY = 0x06,
	NVME_ADMIN_SET_FEATURES = 0x09,
	NVME_ADMIN_GET_FEATURES = 0x0a,
	NVME_ADMIN_FW_COMMIT = 0x10,
	NVME_ADMIN_FW_DOWNLOAD = 0x11,
	NVME_ADMIN_DEVICE_SELF_TEST = 0x14,
	NVME_ADMIN_FORMAT_NVM = 0x80,
	NVME_ADMIN_SECURITY_SEND = 0x81,
	NVME_ADMIN_SECURITY_RECEIVE = 0x82,
	NVME_ADMIN_SANITIZE = 0x84,
};

/* The namespace id that names every namespace of the controller. */
#define NVME_NSID_ALL 0xffffffffu

/* Log page identifiers of Get Log Page (CDW10 bits 7:0). */
enum nvme_log_id {
	NVME_LOG_SMART_HEALTH = 0x02,	/* 512 bytes: bytes 2:1 the composite temperature, kelvin */
	NVME_LOG_FW_SLOT = 0x03,	/* 512 bytes: struct nvme_fw_slot_log */
	NVME_LOG_SELF_TEST = 0x06,	/* 564 bytes: the Device Self-test log */
	NVME_LOG_SANITIZE_STATUS = 0x81,
};
#define NVME_SMART_COMPOSITE_TEMPERATURE 1
#define NVME_SMART_PERCENTAGE_USED 5	/* a byte: the vendor's estimate of the life used, 255 at most */
#define NVME_SMART_DATA_UNITS_READ 32	/* bytes 47:32, a 128-bit count of thousands of 512-byte units */
#define NVME_SMART_DATA_UNITS_WRITTEN 48	/* bytes 63:48, likewise */
#define NVME_SMART_POWER_ON_HOURS 128	/* bytes 143:128, a 128-bit count */
#define NVME_SMART_MEDIA_ERRORS 160	/* bytes 175:160, Media and Data Integrity Errors, a 128-bit count */
#define NVME_KELVIN_0C 273	/* as smartctl and nvme-cli convert */

/* Get Log Page's CDW10: NUMDL, the dwords to return less one, in bits 31:16. */
#define NVME_LOG_CDW10(lid, bytes) ((uint32_t)(lid) | (uint32_t)((bytes) / 4 - 1) << 16)

/* Sanitize's CDW10 (NVMe Base 1.4, 5.24): the action and its switches; CDW11 the overwrite pattern. */
enum nvme_sanitize_action {
	NVME_SANACT_EXIT_FAILURE = 1,
	NVME_SANACT_BLOCK_ERASE = 2,
	NVME_SANACT_OVERWRITE = 3,
	NVME_SANACT_CRYPTO_ERASE = 4,
};
#define NVME_SANITIZE_AUSE (1u << 3)		/* allow unrestricted sanitize exit */
#define NVME_SANITIZE_OWPASS_SHIFT 4		/* bits 7:4: overwrite passes, 0 = 16 */
#define NVME_SANITIZE_OIPBP (1u << 8)		/* invert the pattern between passes */
#define NVME_SANITIZE_NO_DEALLOC (1u << 9)	/* NDAS: no deallocate after sanitize */

/* SANICAP (Identify Controller bytes 331:328): the sanitize actions the controller has. */
#define NVME_SANICAP_CRYPTO_ERASE (1u << 0)
#define NVME_SANICAP_BLOCK_ERASE (1u << 1)
#define NVME_SANICAP_OVERWRITE (1u << 2)
#define NVME_SANICAP_NO_DEALLOC_INHIBITED (1u << 29)	/* NDI: NDAS is refused */

/* OACS (Identify Controller bytes 257:256): bit 1, Format NVM. */
#define NVME_OACS_SECURITY (1u << 0)	/* Security Send and Receive */
#define NVME_OACS_FORMAT (1u << 1)
#define NVME_OACS_FIRMWARE (1u << 2)	/* Firmware Commit and Firmware Image Download */

/* ONCS (Identify Controller bytes 521:520): bit 2, Dataset Management (its Deallocate: TRIM). */
#define NVME_ONCS_DSM (1u << 2)

/* FRMW (Identify Controller byte 260): the firmware slots. */
#define NVME_FRMW_SLOT1_RO (1u << 0)
#define NVME_FRMW_SLOTS(frmw) (((frmw) >> 1) & 7)
#define NVME_FRMW_ACTIVATE_NOW (1u << 4)	/* activation without a reset */
#define NVME_FW_SLOTS_MAX 7

/* FWUG (Identify Controller byte 319): the download granularity in 4 KiB units; 0: not said, FFh: none. */
#define NVME_FWUG_UNIT 4096u
#define NVME_FWUG_NONE 0xffu

/* Firmware Commit's CDW10 (NVMe Base 1.4, 5.11): the slot in 2:0, the commit action in 5:3. */
enum nvme_commit_action {
	NVME_COMMIT_REPLACE = 0,		/* replace the image in the slot, not activated */
	NVME_COMMIT_REPLACE_AT_RESET = 1,	/* replace, and activate it at the next reset */
	NVME_COMMIT_ACTIVATE_AT_RESET = 2,	/* activate the slot's image at the next reset */
	NVME_COMMIT_REPLACE_NOW = 3,		/* replace, and activate it now, without a reset */
};
#define NVME_COMMIT_CDW10(slot, action) ((uint32_t)(slot) | (uint32_t)(action) << 3)

/* Firmware Commit and Image Download: their command specific statuses (SCT 1), NVMe Base 1.4. */
enum nvme_commit_status {
	NVME_SC_INVALID_FW_SLOT = 0x106,
	NVME_SC_INVALID_FW_IMAGE = 0x107,
	NVME_SC_FW_NEEDS_CONVENTIONAL_RESET = 0x10b,
	NVME_SC_FW_NEEDS_SUBSYSTEM_RESET = 0x110,
	NVME_SC_FW_NEEDS_CONTROLLER_RESET = 0x111,
	NVME_SC_FW_NEEDS_MAX_TIME_VIOLATION = 0x112,
	NVME_SC_FW_ACTIVATION_PROHIBITED = 0x113,
	NVME_SC_OVERLAPPING_RANGE = 0x114,
};

/* Firmware Slot Information log (03h). */
struct nvme_fw_slot_log {
	uint8_t afi;		/* the active slot in 2:0, the slot active at the next reset in 6:4 (0: none said) */
	uint8_t rsvd1[7];
	char frs[NVME_FW_SLOTS_MAX][8];	/* each slot's revision, ASCII ("": empty) */
	uint8_t rsvd64[448];
} __attribute__((packed));

/* FNA (Identify Controller byte 524): how Format NVM reaches the namespaces. */
#define NVME_FNA_FORMAT_ALL (1u << 0)		/* a format applies to every namespace */
#define NVME_FNA_ERASE_ALL (1u << 1)		/* a secure erase applies to every namespace */
#define NVME_FNA_CRYPTO_ERASE (1u << 2)		/* cryptographic erase is supported */

/* Format NVM's CDW10 (NVMe Base 1.4, 5.23). */
enum nvme_secure_erase {
	NVME_SES_NONE = 0,
	NVME_SES_USER_DATA = 1,
	NVME_SES_CRYPTO = 2,
};
#define NVME_FORMAT_LBAF_MASK 0x0fu		/* bits 3:0: the LBA format, low bits */
#define NVME_FORMAT_MSET (1u << 4)		/* metadata at the end of each block */
#define NVME_FORMAT_PI_SHIFT 5			/* bits 7:5: protection information type */
#define NVME_FORMAT_PIL (1u << 8)		/* protection information first in the metadata */
#define NVME_FORMAT_SES_SHIFT 9			/* bits 11:9: secure erase settings */
#define NVME_FORMAT_LBAFU_SHIFT 12		/* bits 13:12: the LBA format, high bits */

/* FLBAS and DPS of Identify Namespace: what a format keeps. */
#define NVME_FLBAS_LOW_MASK 0x0fu		/* bits 3:0: the format in use, low bits */
#define NVME_FLBAS_EXTENDED (1u << 4)		/* metadata at the end of each block */
#define NVME_FLBAS_HIGH_SHIFT 5			/* bits 6:5: the format in use, high bits */
#define NVME_DPS_TYPE_MASK 0x07u		/* protection information type */
#define NVME_DPS_FIRST (1u << 3)		/* protection information first in the metadata */
#define NVME_DPC_TYPES 0x07u			/* DPC bits 2:0: types 1, 2 and 3 supported */

/* Sanitize Status log page (log 81h, NVMe Base 1.4 Figure 211), the 32 bytes read here. */
struct nvme_sanitize_log {
	uint16_t sprog;		/* progress, numerator over 65536 */
	uint16_t sstat;		/* bits 2:0 the status, 7:3 passes done, 8 global data erased */
	uint32_t scdw10;	/* CDW10 of the last Sanitize */
	uint32_t eto;		/* estimated seconds: overwrite (FFFFFFFFh: no estimate) */
	uint32_t etbe;		/* ... block erase */
	uint32_t etce;		/* ... crypto erase */
	uint32_t etond;		/* ... overwrite, no deallocate */
	uint32_t etbend;	/* ... block erase, no deallocate */
	uint32_t etcend;	/* ... crypto erase, no deallocate */
} __attribute__((packed));
#define NVME_SANITIZE_LOG_BYTES 32
#define NVME_SSTAT_STATUS_MASK 0x7u
enum nvme_sanitize_status {
	NVME_SSTAT_NEVER = 0,
	NVME_SSTAT_COMPLETED = 1,
	NVME_SSTAT_IN_PROGRESS = 2,
	NVME_SSTAT_FAILED = 3,
	NVME_SSTAT_COMPLETED_NO_DEALLOC = 4,
};
#define NVME_SANITIZE_NO_ESTIMATE 0xffffffffu

/* NVM command set I/O opcodes (NVMe Base 1.4, Figure 346). */
enum nvme_io_opcode {
	NVME_IO_FLUSH = 0x00,
	NVME_IO_READ = 0x02,
	NVME_IO_DSM = 0x09,	/* Dataset Management */
	NVME_IO_VERIFY = 0x0c,	/* Verify (ONCS bit 7) */
};

/* Identify's CNS (CDW10 bits 7:0). */
enum nvme_cns {
	NVME_CNS_NAMESPACE = 0x00,
	NVME_CNS_CONTROLLER = 0x01,
};

/* Feature identifiers of Get/Set Features (CDW10 bits 7:0). */
enum nvme_feature_id {
	NVME_FEAT_POWER_MGMT = 0x02,	/* result bits 4:0: the power state */
	NVME_FEAT_ERROR_RECOVERY = 0x05,	/* of a namespace: TLER and DULBE (below) */
	NVME_FEAT_VOLATILE_WC = 0x06,	/* result bit 0: enabled */
	NVME_FEAT_APST = 0x0c,		/* result bit 0: autonomous power state transitions on */
};

/*
 * Error Recovery (feature 05h, NVMe Base 2.0 5.27.1.5): bits 15:0 the
 * Time Limited Error Recovery in 100 ms units (0: none), bit 16 DULBE
 * (deallocated or unwritten logical block error), kept as it is.
 */
#define NVME_ERR_REC_TLER_MASK 0xffffu

/* Power Management (feature 02h): CDW11 and the result, bits 4:0 the power state. */
#define NVME_PM_STATE_MASK 0x1fu

/*
 * The APST data structure (feature 0Ch, NVMe Base 1.4 Figure 280): 32
 * entries of 64 bits, one per power state, little-endian: bits 7:3 the
 * state to go to (ITPS), bits 31:8 the idle time before it in ms (ITPT,
 * 0: no transition from that state).
 */
#define NVME_APST_ENTRIES 32
#define NVME_APST_BYTES (8 * NVME_APST_ENTRIES)
#define NVME_APST_ITPS(e) ((unsigned int)((e) >> 3) & 0x1fu)
#define NVME_APST_ITPT(e) ((uint32_t)((e) >> 8) & 0xffffffu)

/* Dataset Management's attributes (CDW11): AD, deallocate the ranges. */
#define NVME_DSM_ATTR_DEALLOCATE (1u << 2)

/* Power State Descriptor (Figure 252). */
struct nvme_power_state {
	uint16_t mp;		/* maximum power, 0.01 W (0.0001 W with MXPS) */
	uint8_t rsvd2;
	uint8_t flags;		/* bit 0 MXPS, bit 1 NOPS: non-operational */
	uint32_t enlat;		/* entry latency, us */
	uint32_t exlat;		/* exit latency, us */
	uint8_t rrt, rrl, rwt, rwl;
	uint8_t rsvd16[16];
} __attribute__((packed));
#define NVME_PS_MXPS 0x01
#define NVME_PS_NOPS 0x02

/* Identify Controller data structure (CNS 01h, Figure 251). */
struct nvme_id_ctrl {
	uint16_t vid;		/* PCI vendor ID */
	uint16_t ssvid;		/* PCI subsystem vendor ID */
	char sn[20];
	char mn[40];
	char fr[8];
	uint8_t rab;
	uint8_t ieee[3];	/* IEEE OUI, least significant byte first */
	uint8_t cmic;
	uint8_t mdts;		/* max data transfer size: 2^mdts memory pages */
	uint16_t cntlid;
	uint32_t ver;		/* major 31:16, minor 15:8, tertiary 7:0 */
	uint8_t rsvd84[172];
	uint16_t oacs;		/* optional admin commands */
	uint8_t acl, aerl;
	uint8_t frmw;		/* firmware slots 3:1, slot 1 read-only bit 0 */
	uint8_t lpa, elpe;
	uint8_t npss;		/* power states, less one */
	uint8_t avscc;
	uint8_t apsta;		/* bit 0: autonomous power state transitions */
	uint16_t wctemp, cctemp;	/* temperature thresholds, kelvin */
	uint16_t mtfa;
	uint32_t hmpre, hmmin;	/* host memory buffer, 4 KiB units */
	uint8_t tnvmcap[16];	/* total NVM capacity, bytes */
	uint8_t unvmcap[16];	/* unallocated NVM capacity, bytes */
	uint32_t rpmbs;
	uint16_t edstt;
	uint8_t dsto;
	uint8_t fwug;		/* firmware update granularity (NVME_FWUG_*) */
	uint8_t rsvd320[8];
	uint32_t sanicap;	/* sanitize capabilities */
	uint8_t rsvd332[180];
	uint8_t sqes, cqes;
	uint16_t maxcmd;
	uint32_t nn;		/* number of namespaces */
	uint16_t oncs;		/* optional NVM commands */
	uint16_t fuses;
	uint8_t fna;
	uint8_t vwc;		/* bit 0: a volatile write cache */
	uint8_t rsvd526[1522];
	struct nvme_power_state psd[32];
	uint8_t vs[1024];
} __attribute__((packed));

/* LBA Format Data Structure (Figure 247). */
struct nvme_lba_format {
	uint16_t ms;		/* metadata bytes */
	uint8_t lbads;		/* data bytes: 2^lbads */
	uint8_t rp;		/* relative performance, bits 1:0 */
} __attribute__((packed));

/* Identify Namespace data structure (CNS 00h, Figure 245). */
struct nvme_id_ns {
	uint64_t nsze;		/* size, logical blocks */
	uint64_t ncap;		/* capacity */
	uint64_t nuse;		/* utilization */
	uint8_t nsfeat;
	uint8_t nlbaf;		/* LBA formats, less one */
	uint8_t flbas;		/* bits 3:0 (and 6:5) the format in use, bit 4 metadata at the end of a block */
	uint8_t mc;		/* metadata capabilities */
	uint8_t dpc;		/* end-to-end data protection capabilities */
	uint8_t dps;		/* protection: bits 2:0 the type, bit 3 first in the metadata */
	uint8_t rsvd30[74];
	uint8_t nguid[16];	/* namespace globally unique identifier */
	uint8_t eui64[8];	/* IEEE extended unique identifier, big-endian */
	struct nvme_lba_format lbaf[16];
	uint8_t rsvd192[3904];
} __attribute__((packed));

_Static_assert(sizeof(struct nvme_id_ctrl) == NVME_IDENTIFY_BYTES, "Identify Controller is 4096 bytes");
_Static_assert(sizeof(struct nvme_id_ns) == NVME_IDENTIFY_BYTES, "Identify Namespace is 4096 bytes");
_Static_assert(offsetof(struct nvme_id_ctrl, oacs) == 256, "OACS at byte 256");
_Static_assert(offsetof(struct nvme_id_ctrl, tnvmcap) == 280, "TNVMCAP at byte 280");
_Static_assert(offsetof(struct nvme_id_ctrl, sanicap) == 328, "SANICAP at byte 328");
_Static_assert(offsetof(struct nvme_id_ctrl, fwug) == 319, "FWUG at byte 319");
_Static_assert(sizeof(struct nvme_fw_slot_log) == 512, "the Firmware Slot Information log is 512 bytes");
_Static_assert(offsetof(struct nvme_id_ctrl, nn) == 516, "NN at byte 516");
_Static_assert(offsetof(struct nvme_id_ctrl, vwc) == 525, "VWC at byte 525");
_Static_assert(offsetof(struct nvme_id_ctrl, psd) == 2048, "power states at byte 2048");
_Static_assert(offsetof(struct nvme_id_ns, nguid) == 104, "NGUID at byte 104");
_Static_assert(offsetof(struct nvme_id_ns, eui64) == 120, "EUI64 at byte 120");
_Static_assert(offsetof(struct nvme_id_ns, dps) == 29, "DPS at byte 29");
_Static_assert(offsetof(struct nvme_id_ctrl, fna) == 524, "FNA at byte 524");
_Static_assert(sizeof(struct nvme_sanitize_log) == NVME_SANITIZE_LOG_BYTES, "the sanitize status log's first 32 bytes");
_Static_assert(offsetof(struct nvme_id_ns, lbaf) == 128, "LBA formats at byte 128");

/* The LBA format in use, and its data size in bytes (0 when the page claims an impossible one). */
static inline const struct nvme_lba_format *nvme_ns_format(const struct nvme_id_ns *ns)
{
	return &ns->lbaf[ns->flbas & 0x0f];
}

static inline uint64_t nvme_lba_bytes(const struct nvme_lba_format *f)
{
	return f->lbads < 32 ? 1ULL << f->lbads : 0;
}

#endif
