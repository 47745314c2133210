/*
 * What a SCSI disk answers, decoded: INQUIRY and its VPD pages, READ
 * CAPACITY, mode pages, REQUEST SENSE's power condition.  Pure functions
 * of the bytes that arrived: each takes its length from the smallest of
 * what the device claims, what the buffer holds and what came in, and
 * reads nothing beyond it.  The commands that fetch these are in scsi.c.
 */
#ifndef HDPARM_SCSI_PAGES_H
#define HDPARM_SCSI_PAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sense.h"

/* Vital product data pages (SPC-4 7.8, SBC-3 6.6). */
enum scsi_vpd {
	VPD_SUPPORTED_PAGES = 0x00,
	VPD_UNIT_SERIAL_NUMBER = 0x80,
	VPD_DEVICE_IDENTIFICATION = 0x83,
	VPD_EXTENDED_INQUIRY = 0x86,
	VPD_ATA_INFORMATION = 0x89,	/* present where a SAT layer translates to ATA */
	VPD_BLOCK_LIMITS = 0xb0,
	VPD_BLOCK_DEVICE_CHARACTERISTICS = 0xb1,
	VPD_LOGICAL_BLOCK_PROVISIONING = 0xb2,
	VPD_SUPPORTED_BLOCK_LENGTHS = 0xb4,	/* and protection types (SBC-4 6.6.7) */
};

/* Mode pages. */
enum scsi_mode_page {
	MODE_PAGE_RW_ERROR_RECOVERY = 0x01,
	MODE_PAGE_CACHING = 0x08,
	MODE_PAGE_CONTROL = 0x0a,
	MODE_PAGE_POWER_CONDITION = 0x1a,
	MODE_PAGE_INFORMATIONAL_EXCEPTIONS = 0x1c,	/* subpage 01h: Background Control (SBC-3 6.4.3) */
	MODE_PAGE_ALL = 0x3f,
};
#define MODE_HEADER_10_LEN 8	/* the mode parameter header of MODE SENSE (10) / MODE SELECT (10) */
/* Its byte 4 bit 0, LONGLBA: the block descriptors are long (SBC-3 6.4.2): 16 bytes, else 8. */
#define MODE_LONGLBA 0x01
#define MODE_BLOCK_DESCRIPTOR_LEN 8
#define MODE_LONG_BLOCK_DESCRIPTOR_LEN 16
/* Read-Write Error Recovery page (SBC-3 6.4.7): bytes 10-11 the RECOVERY TIME LIMIT, in ms (0: none). */
#define RW_RECOVERY_TIME_LIMIT 10
/*
 * Control mode page (SPC-4 7.5.8): byte 2 DPICZ (bit 3), no protection
 * information check where its field is zero; byte 5 ATO (bit 7), the
 * application tag is the host's and the disk never changes it.
 */
#define CONTROL_PAGE_MIN_LEN 6
#define CONTROL_DPICZ_BYTE 2
#define CONTROL_DPICZ 0x08
#define CONTROL_ATO_BYTE 5
#define CONTROL_ATO 0x80
/* Caching page bits (SBC-3 6.4.5): byte 2 WCE and RCD, byte 12 DRA. */
#define CACHING_WCE 0x04
#define CACHING_RCD 0x01
#define CACHING_DRA 0x20
/*
 * Power condition page (SPC-4 7.5.13), 28h bytes: the enable bits of
 * STANDBY_Y (byte 2) and IDLE_C, IDLE_B, IDLE_A, STANDBY_Z (byte 3), and
 * each condition's timer in 100 ms units (4 bytes at the offsets below).
 */
#define POWER_CONDITION_STANDBY_Z 0x01
#define POWER_CONDITION_IDLE_A 0x02
#define POWER_CONDITION_IDLE_B 0x04
#define POWER_CONDITION_IDLE_C 0x08
#define POWER_CONDITION_STANDBY_Y 0x01	/* in byte 2 */
#define POWER_CONDITION_LEN 0x28
#define PC_IDLE_A_TIMER 4
#define PC_STANDBY_Z_TIMER 8
#define PC_IDLE_B_TIMER 12
#define PC_IDLE_C_TIMER 16
#define PC_STANDBY_Y_TIMER 20
/*
 * Background Control mode page (1Ch subpage 01h, SBC-3 6.4.3), 10h bytes:
 * byte 4 EN_BMS (bit 0), byte 5 EN_PS (bit 0); the medium scan interval
 * (hours), the pre-scan time limit (hours), the minimum idle time before a
 * scan (ms) and the longest it takes to suspend one (ms), 2 bytes each.
 */
#define BACKGROUND_CONTROL_SUBPAGE 0x01
#define BACKGROUND_CONTROL_LEN 0x10
#define BC_EN_BMS 0x01
#define BC_EN_PS 0x01
#define BC_SCAN_INTERVAL 6
#define BC_PRESCAN_LIMIT 8
#define BC_MIN_IDLE 10
#define BC_MAX_SUSPEND 12

/* Standard INQUIRY data (SPC-4 6.6.2), strings with trailing blanks removed. */
struct scsi_inquiry {
	uint8_t peripheral_type;	/* 0: disk */
	bool removable;
	uint8_t version;		/* 5: SPC-3, 6: SPC-4, 7: SPC-5 */
	bool protect;			/* PROTECT: it can be formatted with protection information */
	char vendor[9], product[17], revision[5];
};

void scsi_decode_inquiry(const uint8_t *buf, size_t len, struct scsi_inquiry *inq);

/* READ CAPACITY (16) (SBC-3 5.16), or (10). */
struct scsi_capacity {
	uint64_t blocks;
	uint32_t block_bytes;
	unsigned int physical_exponent;	/* logical blocks per physical block: 2^this */
	bool lbpme;			/* logical block provisioning management (thin) */
	bool lbprz;			/* unmapped blocks read as zeros */
	bool prot_known;		/* READ CAPACITY (16) said (PROT_EN, P_TYPE, P_I_EXPONENT) */
	unsigned int prot_type;		/* protection information type 1-3; 0: formatted without */
	unsigned int pi_exponent;	/* 2^this protection information intervals a logical block */
};
/* Each protection information interval carries 8 bytes (SBC-3 4.22.2). */
#define SCSI_PI_BYTES 8

/* READ CAPACITY (10)'s RETURNED LOGICAL BLOCK ADDRESS when the disk has more blocks than it can say. */
#define READ_CAPACITY_10_TOO_LARGE 0xffffffffu

/* false when fewer bytes came than the fields need (12 for (16), 8 for (10)). */
bool scsi_decode_capacity16(const uint8_t *buf, size_t len, struct scsi_capacity *cap);
bool scsi_decode_capacity10(const uint8_t *buf, size_t len, struct scsi_capacity *cap);

/* The Temperature log page (0Dh, SPC-4): parameter 0000h the temperature, 0001h the reference, in Celsius. */
#define LOG_PAGE_TEMPERATURE 0x0d
#define LOG_TEMPERATURE_NONE 0xff	/* the temperature byte when there is no reading */
struct scsi_temperature {
	bool has_current, has_reference;
	int current, reference;
};
/* false when the page is not the Temperature page; parameters are read only as far as got bytes came. */
bool scsi_decode_temperature_page(const uint8_t *buf, size_t got, struct scsi_temperature *t);

/*
 * The Background Scan Results log page (15h, SBC-3): parameter 0000h, the
 * status, holds ACCUMULATED POWER ON MINUTES in its bytes 4-7.
 */
#define LOG_PAGE_BACKGROUND_SCAN 0x15
/* false when the page is not that page, or its status parameter did not come whole. */
bool scsi_decode_power_on_minutes(const uint8_t *buf, size_t got, uint32_t *minutes);

/* The Read Error Counter log page (03h, SPC-4 7.3.x): parameter 0006h, Total Uncorrected Errors (a counter of 1 to 8 bytes). */
#define LOG_PAGE_READ_ERRORS 0x03
#define LOG_TOTAL_UNCORRECTED 0x0006
bool scsi_decode_uncorrected_errors(const uint8_t *buf, size_t got, uint64_t *errors);

/*
 * --condition's log pages, each false where the page is not the one asked
 * or its parameter did not come whole (the page length and the bytes that
 * came both bound it): a counter parameter (1 to 8 bytes) of any page
 * (the Write Error Counter page 02h's Total Uncorrected Errors is 0006h,
 * as the read page's); the Solid State Media page's (11h) Percentage Used
 * Endurance Indicator (parameter 0001h, its last byte); the Informational
 * Exceptions page's (2Fh) ASC of parameter 0000h (0: nothing to report).
 */
#define LOG_PAGE_WRITE_ERRORS 0x02
#define LOG_PAGE_SELF_TEST 0x10
#define LOG_PAGE_SOLID_STATE 0x11
#define LOG_PAGE_INFORMATIONAL 0x2f
bool scsi_decode_log_counter(const uint8_t *buf, size_t got, uint8_t page, unsigned int code, uint64_t *value);
bool scsi_decode_percentage_used(const uint8_t *buf, size_t got, unsigned int *percent);
bool scsi_decode_ie_asc(const uint8_t *buf, size_t got, unsigned int *asc);

/*
 * Seagate's FARM log page (3Dh subpage 03h, as smartmontools 7.4+ reads
 * it): parameters of 8-byte big-endian fields, each valid where its top
 * byte is C0h; parameter 0000h's first field the signature 'FARMER'
 * (4641524D4552h), parameter 0001h (Drive Information) field 19 the
 * power-on hours.  FARM_READ with *hours; FARM_NOT_FARM: another page or
 * a wrong signature; FARM_CUT: the parameters did not come whole;
 * FARM_NO_HOURS: the hours field not valid.
 */
#define LOG_PAGE_FARM 0x3d
#define LOG_SUBPAGE_FARM 0x03
enum farm_reading { FARM_READ, FARM_NOT_FARM, FARM_CUT, FARM_NO_HOURS };
enum farm_reading scsi_decode_farm_hours(const uint8_t *buf, size_t got, uint64_t *hours);

/* The Self-Test Results page (10h, SPC-4): parameters 0001h-0014h, newest first, each 16 bytes. */
struct scsi_self_test {
	unsigned int code, result, number;	/* SELF-TEST CODE (bits 7:5), SELF-TEST RESULTS (3:0) */
	unsigned int hours;			/* ACCUMULATED POWER ON HOURS (its timestamp) */
	uint64_t first_failure;			/* ADDRESS OF FIRST FAILURE (all ones: none) */
};
#define SCSI_SELF_TESTS 20
/* The entries in use (not all zero), newest first, up to max; -1 where the page is not the Self-Test Results page, -2 where it came cut short. */
int scsi_decode_self_tests(const uint8_t *buf, size_t got, struct scsi_self_test *t, unsigned int max);

/*
 * READ DEFECT DATA (10)'s header (SBC-3 5.12): GLISTV (byte 1 bit 3), the
 * list's format (bits 2:0) and its length in bytes (bytes 3:2): the grown
 * defects in *count.  false: no grown list, or a format of unknown size.
 */
bool scsi_decode_grown_defects(const uint8_t *hdr, size_t got, uint64_t *count);

/*
 * --scan-verify: a VERIFY (16) that ended CHECK CONDITION (EIO), sorted by
 * its sense (s->valid false: none came): ENODATA a medium error (sense key
 * MEDIUM ERROR), EOPNOTSUPP a command the disk or its bridge has not
 * (ILLEGAL REQUEST, invalid operation code or field in CDB), EREMOTEIO any
 * other end: not the medium's, and not a missing command.
 */
int scsi_verify_outcome(const struct sense *s);

/*
 * The Supported Block Lengths and Protection Types page (B4h): 8 bytes a
 * length, its LOGICAL BLOCK LENGTH (bytes 0-3) and T3PS..T0PS (byte 5
 * bits 3:0), the protection types it may be formatted with.
 */
struct scsi_block_length {
	uint32_t bytes;
	unsigned int pi_types;	/* bit t: type t (bit 0: without protection information) */
};
/* The lengths in the page's len readable bytes (scsi_vpd_length), at most max; how many. */
unsigned int scsi_decode_block_lengths(const uint8_t *page, size_t len, struct scsi_block_length *out, unsigned int max);
/*
 * The protection types the Extended INQUIRY Data page (86h) says the
 * logical unit supports (its SPT field; bit t: type t), of the page's len
 * readable bytes; 0 where the page is too short or SPT is reserved.
 */
unsigned int scsi_decode_spt_types(const uint8_t *page, size_t len);

/* The bytes of a VPD page that may be read: its header's PAGE LENGTH, bounded by the got bytes that came. */
size_t scsi_vpd_length(const uint8_t *page, size_t got);

/* The Supported VPD Pages page (len bytes of it) lists page. */
bool scsi_vpd_listed(const uint8_t *list, size_t len, uint8_t page);

/* Unit Serial Number (80h): blanks trimmed, control characters escaped. */
void scsi_decode_serial(const uint8_t *page, size_t len, char *dst, size_t size);

/* Device Identification (83h): the logical unit's designators, its NAA, the port's protocol. */
#define SCSI_MAX_DESIGNATORS 6
struct scsi_identification {
	int protocol;		/* SPC protocol identifier of the port, -1 unknown */
	bool has_naa;
	uint8_t naa[16];	/* the logical unit's NAA designator (8 or 16 bytes) */
	unsigned int naa_len;
	unsigned int count;
	char designators[SCSI_MAX_DESIGNATORS][112];	/* "NAA: 0x...", "T10 vendor ID: ..." */
};

void scsi_decode_identification(const uint8_t *page, size_t len, struct scsi_identification *id);

/* Block Limits (B0h): the limits on one UNMAP; 0 is "UNMAP not implemented" (SBC-3 6.6.4). */
struct scsi_block_limits {
	uint32_t max_unmap_blocks;
	uint32_t max_unmap_descriptors;
};

void scsi_decode_block_limits(const uint8_t *page, size_t len, struct scsi_block_limits *bl);

/* Block Device Characteristics (B1h): rotation rate (1 solid state), nominal form factor. */
void scsi_decode_characteristics(const uint8_t *page, size_t len, unsigned int *rotation, unsigned int *form_factor);

/* Logical Block Provisioning (B2h): LBPU, the disk takes UNMAP. */
bool scsi_decode_provisioning_unmap(const uint8_t *page, size_t len);

/* B2h's byte 5 (SBC-3 6.6.4): the commands that unmap, LBPU (UNMAP), LBPWS (WRITE SAME (16)), LBPWS10. */
struct scsi_lbp_commands {
	bool lbpu, lbpws, lbpws10;
};

/* false where the page is too short to say (fewer than 6 bytes). */
bool scsi_decode_provisioning(const uint8_t *page, size_t len, struct scsi_lbp_commands *lbp);

/*
 * Find mode page code (subpage sub; 0: the page without subpages) in a
 * MODE SENSE (10) answer of got bytes (one page or all of them): *offset
 * and *page_len where it starts and its bytes, header included.  0; EOPNOTSUPP when the page is not there; EIO, with
 * cause filled in, when the page is cut short of its own PAGE LENGTH.
 */
int scsi_find_mode_page(const uint8_t *buf, size_t got, uint8_t code, uint8_t sub, size_t *offset, size_t *page_len,
			char *cause, size_t cause_size);

/* REQUEST SENSE's word on the power condition (SPC-4 table 34): "standby", "idle" or "active/idle". */
const char *scsi_power_state(const struct sense *now);

#endif
