/*
 * SCSI disks through SG_IO: the commands of SPC-4 and SBC-3 that every
 * disk has, and their answers decoded into structs.  This is the
 * transport for disks that refuse ATA pass-through (SAS drives, USB
 * enclosures whose bridge has no SAT layer); the disk commands built on
 * it are in scsi_disk.c.
 */
#ifndef HDPARM_SCSI_H
#define HDPARM_SCSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "scsi_pages.h"
#include "sense.h"

/* Behind a USB bridge: only the commands the sd driver sends there, for a bridge may hang on others. */
static inline bool scsi_cautious(const struct device *dev)
{
	return dev->usb_driver != NULL;
}

enum scsi_opcode {
	SCSI_FORMAT_UNIT = 0x04,
	/* REQUEST SENSE (03h): transport/sg.h, which a SAT bridge's ATA disk asks too. */
	SCSI_INQUIRY = 0x12,
	SCSI_START_STOP_UNIT = 0x1b,
	SCSI_READ_CAPACITY_10 = 0x25,
	SCSI_SYNCHRONIZE_CACHE_10 = 0x35,
	SCSI_WRITE_BUFFER = 0x3b,
	SCSI_READ_BUFFER = 0x3c,
	SCSI_UNMAP = 0x42,
	SCSI_SANITIZE = 0x48,
	SCSI_LOG_SENSE = 0x4d,
	SCSI_MODE_SELECT_10 = 0x55,
	SCSI_MODE_SENSE_10 = 0x5a,
	SCSI_READ_16 = 0x88,
	SCSI_VERIFY_16 = 0x8f,
	SCSI_SERVICE_ACTION_IN_16 = 0x9e,	/* service action 10h: READ CAPACITY (16) */
	SCSI_SECURITY_PROTOCOL_IN = 0xa2,
	SCSI_MAINTENANCE_IN = 0xa3,		/* service action 0Ch: REPORT SUPPORTED OPERATION CODES */
	SCSI_SECURITY_PROTOCOL_OUT = 0xb5,
};
#define SAI_READ_CAPACITY_16 0x10
/* MODE SENSE (10) byte 1: LLBAA, long block descriptors welcome. */
#define MODE_SENSE_LLBAA 0x10
/* FORMAT UNIT byte 1 (SBC-3 5.3.1): FMTDATA (a parameter list follows), CMPLST; its header's byte 1 IMMED. */
#define FORMAT_FMTDATA 0x10
#define FORMAT_CMPLST 0x08
#define FORMAT_IMMED 0x02
#define MI_REPORT_SUPPORTED_OPCODES 0x0c
/* WRITE BUFFER's modes for microcode (SPC-4 6.49): with offsets, saved and activated; saved and
   activated later (deferred); the deferred microcode activated.  READ BUFFER's descriptor mode. */
#define WB_MODE_OFFSETS_SAVE_ACTIVATE 0x07
#define WB_MODE_OFFSETS_SAVE_DEFER 0x0e
#define WB_MODE_ACTIVATE_DEFERRED 0x0f
#define RB_MODE_DESCRIPTOR 0x03

/* SANITIZE's byte 1 (SBC-4 5.30): IMMED, AUSE and the SERVICE ACTION (bits 4:0). */
enum scsi_sanitize_action {
	SANITIZE_SA_OVERWRITE = 0x01,
	SANITIZE_SA_BLOCK_ERASE = 0x02,
	SANITIZE_SA_CRYPTO_ERASE = 0x03,
	SANITIZE_SA_EXIT_FAILURE = 0x1f,
};
#define SANITIZE_IMMED 0x80	/* return once the operation has started */
#define SANITIZE_AUSE 0x20	/* allow unrestricted sanitize exit */
/* The OVERWRITE parameter list (SBC-4 5.30.3): byte 0 INVERT (7) and OVERWRITE COUNT (4:0), 2-3 the pattern's length. */
#define SANITIZE_OVERWRITE_HEADER 4
#define SANITIZE_MAX_PASSES 31

/* MODE SENSE's PC field (byte 2 bits 7:6): which values of the page come back. */
enum scsi_page_control {
	MODE_CURRENT = 0x00,
	MODE_CHANGEABLE = 0x40,	/* a 1 in each bit MODE SELECT may change */
	MODE_DEFAULT = 0x80,
	MODE_SAVED = 0xc0,
};

/*
 * START STOP UNIT's POWER CONDITION field (byte 4 bits 7:4, SBC-3 5.25),
 * and its modifier (byte 3 bits 3:0) for the conditions below.  IDLE and
 * STANDBY hold the disk there, its timers stopped until LU_CONTROL; the
 * FORCE_ forms set one timer to zero, and the timers stay in charge.
 */
enum scsi_power_condition {
	POWER_CONDITION_START_VALID = 0x0,	/* START and LOEJ decide: stop or start */
	POWER_CONDITION_STANDBY = 0x3,
	POWER_CONDITION_FORCE_IDLE_0 = 0xa,	/* modifier 0: idle_a, 1: idle_b, 2: idle_c */
	POWER_CONDITION_FORCE_STANDBY_0 = 0xb,	/* modifier 0: standby_z, 1: standby_y */
};

enum scsi_dir { SCSI_NO_DATA, SCSI_DATA_IN, SCSI_DATA_OUT };

/* How one command ended. */
struct scsi_result {
	struct sense sense;
	uint8_t status;		/* SCSI status: 0 GOOD, 2 CHECK CONDITION */
	size_t got;		/* bytes that came in */
	char cause[160];	/* the failure in words, empty on success */
};

/*
 * Issue one CDB.  Returns 0 (GOOD, or a recovered error), an errno value
 * from the ioctl, or EIO with res->cause filled in.
 */
int scsi_exec(struct device *dev, const uint8_t *cdb, unsigned int cdb_len, enum scsi_dir dir, void *buf,
	      size_t len, unsigned int timeout_s, struct scsi_result *res);

/* A command that failed, as the disk's cause: " WHAT failed: why" when it is worded; returns err. */
int scsi_cause(struct disk_cause *c, const char *what, const struct scsi_result *res, int err);

/* The device refused the command as such: an unknown opcode or a field it does not have. */
bool scsi_refused(int err, const struct scsi_result *res);

int scsi_inquiry(struct device *dev, struct scsi_inquiry *inq, struct scsi_result *res);

/* WRITE BUFFER (10) of len bytes of buf (len 0: none) in mode, buffer 0, at offset. */
int scsi_write_buffer(struct device *dev, uint8_t mode, uint32_t offset, const void *buf, uint32_t len,
		      struct scsi_result *res);

/* READ BUFFER (10) descriptor of buffer 0: its offset boundary (2^n bytes) and capacity. */
int scsi_read_buffer_descriptor(struct device *dev, uint8_t *boundary, uint32_t *capacity, struct scsi_result *res);

/*
 * One VPD page into buf (its 4-byte header included), *page_len the bytes
 * of it that may be read (scsi_vpd_length); 0, or an errno.
 */
int scsi_vpd(struct device *dev, uint8_t page, uint8_t *buf, size_t len, size_t *page_len, struct scsi_result *res);

/* The supported VPD pages (page 00h) into list; its readable length, 0 when the disk has none. */
size_t scsi_vpd_list(struct device *dev, uint8_t list[256]);
/* One VPD page the list (list_len bytes) names, into page; its readable length, 0 when none. */
size_t scsi_listed_vpd(struct device *dev, const uint8_t *list, size_t list_len, uint8_t code, uint8_t *page,
		       size_t size);

/*
 * READ CAPACITY (16), or (10) where (16) is refused; behind a USB bridge
 * (scsi_cautious()) (10) first, and (16) only when (10) cannot say.
 */
int scsi_read_capacity(struct device *dev, struct scsi_capacity *cap, struct scsi_result *res);
/* READ CAPACITY (16) alone, wherever the disk is: its LBPME, which (10) does not carry. */
int scsi_read_capacity16(struct device *dev, struct scsi_capacity *cap, struct scsi_result *res);

/*
 * MODE SENSE (10) of one page (subpage sub, or 0), the values pc asks for: *page
 * points into buf at the page (after the header and block descriptors),
 * *page_len its bytes.  A page cut short of its own length is EIO.
 * Behind a USB bridge (scsi_cautious()) all pages are asked for, in
 * 192 bytes at most, as the sd driver asks there.
 */
#define MODE_SENSE_BUF 192	/* the buffer scsi_mode_sense() takes */
int scsi_mode_sense(struct device *dev, uint8_t page_code, uint8_t sub, enum scsi_page_control pc, uint8_t *buf,
		    size_t len, uint8_t **page, size_t *page_len, struct scsi_result *res);

/*
 * MODE SELECT (10) of a page MODE SENSE returned (PF set; SP: saved too),
 * under a header made from the one that came with it (header): MODE DATA
 * LENGTH, WP, DPOFUA and the block descriptors cleared, and the PS bit.
 */
int scsi_mode_select(struct device *dev, const uint8_t *header, const uint8_t *page, size_t page_len, bool save,
		     struct scsi_result *res);

/*
 * MODE SENSE (10) of one page with its block descriptor (DBD clear, LLBAA
 * set: a long one where the disk has more blocks than 32 bits count); *bd
 * and *bd_len the descriptor (0: none came), *page and *page_len the page.
 */
int scsi_mode_sense_blocks(struct device *dev, uint8_t page_code, uint8_t *buf, size_t len, uint8_t **bd,
			   size_t *bd_len, uint8_t **page, size_t *page_len, struct scsi_result *res);

/*
 * MODE SELECT (10), PF and SP, of one block descriptor with the block
 * length bytes and NUMBER OF LOGICAL BLOCKS 0 (the most the new length
 * holds, SBC-3 6.4.2), long or short as MODE SENSE gave it, and the page
 * it came with (page_len 0: none): the length the next FORMAT UNIT takes.
 */
int scsi_mode_select_block_length(struct device *dev, const uint8_t *header, size_t bd_len, uint32_t bytes,
				  const uint8_t *page, size_t page_len, struct scsi_result *res);

/*
 * FORMAT UNIT (SBC-3 5.3) with IMMED: the defect list kept (CMPLST), and
 * protection information type pi_type (0: none), FMTPINFO and PROTECTION
 * FIELD USAGE as SBC-3 table 38 has them.
 */
int scsi_format_unit(struct device *dev, unsigned int pi_type, struct scsi_result *res);

/* SECURITY PROTOCOL IN (SPC-4 6.30) of protocol and its SP SPECIFIC field, len bytes at most; res->got says how many came. */
int scsi_security_protocol_in(struct device *dev, uint8_t protocol, uint16_t sp_specific, uint8_t *buf, size_t len,
			      struct scsi_result *res);
/* SECURITY PROTOCOL OUT (SPC-4 6.31): len bytes to protocol and its SP SPECIFIC field. */
int scsi_security_protocol_out(struct device *dev, uint8_t protocol, uint16_t sp_specific, const uint8_t *buf, size_t len,
			       struct scsi_result *res);

int scsi_synchronize_cache(struct device *dev, struct scsi_result *res);
int scsi_start_stop(struct device *dev, enum scsi_power_condition condition, uint8_t modifier, bool start,
		    struct scsi_result *res);

/* REQUEST SENSE: the sense data the device holds now, normalised into *now. */
int scsi_request_sense(struct device *dev, struct sense *now, struct scsi_result *res);

/* LOG SENSE of page (cumulative values) into buf; res->got says how much came. */
int scsi_log_sense(struct device *dev, uint8_t page, uint8_t *buf, size_t len, struct scsi_result *res);
/* The same, of a subpage (SPF): byte 3 the subpage code. */
int scsi_log_sense_sub(struct device *dev, uint8_t page, uint8_t sub, uint8_t *buf, size_t len, struct scsi_result *res);

/* READ (16) of blocks into buf; fewer than len bytes back is EIO ("short read"). */
int scsi_read16(struct device *dev, uint64_t lba, uint32_t blocks, void *buf, size_t len, struct scsi_result *res);

/* VERIFY (16) of blocks at lba, BYTCHK 0: the disk checks its medium and nothing is sent either way. */
int scsi_verify16(struct device *dev, uint64_t lba, uint32_t blocks, struct scsi_result *res);

/* SANITIZE with byte 1 (an action, SANITIZE_IMMED, SANITIZE_AUSE) and its parameter list (len 0: none). */
int scsi_sanitize(struct device *dev, uint8_t action, const uint8_t *param, size_t len, struct scsi_result *res);

/*
 * REPORT SUPPORTED OPERATION CODES for one opcode and service action:
 * *supported true or false; an errno when the disk cannot say (the
 * command refused, or no data for it).
 */
int scsi_supports(struct device *dev, uint8_t opcode, uint16_t sa, bool *supported, struct scsi_result *res);

/* UNMAP (SBC-3 5.28) of n pieces, each at most 2^32-1 blocks: an 8-byte header, 16 bytes a piece. */
#define SCSI_UNMAP_MAX_DESCRIPTORS 4095u	/* the parameter list length is 16 bits */
int scsi_unmap(struct device *dev, const struct sector_range *pieces, unsigned int n, struct scsi_result *res);

#endif
