/*
 * The NVMe wire format this program reads (NVM Express Base 1.4): the
 * Identify Controller and Identify Namespace data structures, each field
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
	NVME_ADMIN_IDENTIFY = 0x06,
	NVME_ADMIN_SET_FEATURES = 0x09,
	NVME_ADMIN_GET_FEATURES = 0x0a,
};

/* NVM command set I/O opcodes (NVMe Base 1.4, Figure 346). */
enum nvme_io_opcode {
	NVME_IO_FLUSH = 0x00,
	NVME_IO_READ = 0x02,
	NVME_IO_DSM = 0x09,	/* Dataset Management */
};

/* Identify's CNS (CDW10 bits 7:0). */
enum nvme_cns {
	NVME_CNS_NAMESPACE = 0x00,
	NVME_CNS_CONTROLLER = 0x01,
};

/* Feature identifiers of Get/Set Features (CDW10 bits 7:0). */
enum nvme_feature_id {
	NVME_FEAT_POWER_MGMT = 0x02,	/* result bits 4:0: the power state */
	NVME_FEAT_VOLATILE_WC = 0x06,	/* result bit 0: enabled */
	NVME_FEAT_APST = 0x0c,		/* result bit 0: autonomous power state transitions on */
};

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
	uint8_t rsvd312[16];
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
	uint8_t flbas;		/* bits 3:0: the format in use */
	uint8_t rsvd27[93];
	uint8_t eui64[8];	/* IEEE extended unique identifier, big-endian */
	struct nvme_lba_format lbaf[16];
	uint8_t rsvd192[3904];
} __attribute__((packed));

_Static_assert(sizeof(struct nvme_id_ctrl) == NVME_IDENTIFY_BYTES, "Identify Controller is 4096 bytes");
_Static_assert(sizeof(struct nvme_id_ns) == NVME_IDENTIFY_BYTES, "Identify Namespace is 4096 bytes");
_Static_assert(offsetof(struct nvme_id_ctrl, oacs) == 256, "OACS at byte 256");
_Static_assert(offsetof(struct nvme_id_ctrl, tnvmcap) == 280, "TNVMCAP at byte 280");
_Static_assert(offsetof(struct nvme_id_ctrl, sanicap) == 328, "SANICAP at byte 328");
_Static_assert(offsetof(struct nvme_id_ctrl, nn) == 516, "NN at byte 516");
_Static_assert(offsetof(struct nvme_id_ctrl, vwc) == 525, "VWC at byte 525");
_Static_assert(offsetof(struct nvme_id_ctrl, psd) == 2048, "power states at byte 2048");
_Static_assert(offsetof(struct nvme_id_ns, eui64) == 120, "EUI64 at byte 120");
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
