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
#include "sense.h"

enum scsi_opcode {
	SCSI_REQUEST_SENSE = 0x03,
	SCSI_INQUIRY = 0x12,
	SCSI_START_STOP_UNIT = 0x1b,
	SCSI_READ_CAPACITY_10 = 0x25,
	SCSI_SYNCHRONIZE_CACHE_10 = 0x35,
	SCSI_UNMAP = 0x42,
	SCSI_MODE_SELECT_10 = 0x55,
	SCSI_MODE_SENSE_10 = 0x5a,
	SCSI_READ_16 = 0x88,
	SCSI_SERVICE_ACTION_IN_16 = 0x9e,	/* service action 10h: READ CAPACITY (16) */
};
#define SAI_READ_CAPACITY_16 0x10

/* Vital product data pages. */
enum scsi_vpd {
	VPD_SUPPORTED_PAGES = 0x00,
	VPD_UNIT_SERIAL_NUMBER = 0x80,
	VPD_DEVICE_IDENTIFICATION = 0x83,
	VPD_ATA_INFORMATION = 0x89,	/* present where a SAT layer translates to ATA */
	VPD_BLOCK_LIMITS = 0xb0,
	VPD_BLOCK_DEVICE_CHARACTERISTICS = 0xb1,
	VPD_LOGICAL_BLOCK_PROVISIONING = 0xb2,
};

/* Mode pages. */
enum scsi_mode_page {
	MODE_PAGE_CACHING = 0x08,
	MODE_PAGE_POWER_CONDITION = 0x1a,
};
/* MODE SENSE's PC field (byte 2 bits 7:6): which values of the page come back. */
enum scsi_page_control {
	MODE_CURRENT = 0x00,
	MODE_CHANGEABLE = 0x40,	/* a 1 in each bit MODE SELECT may change */
};
/* Caching page bits (SBC-3 6.4.5): byte 2 WCE and RCD, byte 12 DRA. */
#define CACHING_WCE 0x04
#define CACHING_RCD 0x01
#define CACHING_DRA 0x20
/* Power condition page (SPC-4 7.5.13): byte 3 STANDBY_Z, bytes 8-11 its timer in 100 ms. */
#define POWER_CONDITION_STANDBY_Z 0x01

/* START STOP UNIT's POWER CONDITION field (byte 4 bits 7:4). */
enum scsi_power_condition {
	POWER_CONDITION_START_VALID = 0x0,	/* START and LOEJ decide: stop or start */
	POWER_CONDITION_STANDBY = 0x3,
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

/* The device refused the command as such: an unknown opcode or a field it does not have. */
bool scsi_refused(int err, const struct scsi_result *res);

/* Standard INQUIRY data (SPC-4 6.6.2), strings with trailing blanks removed. */
struct scsi_inquiry {
	uint8_t peripheral_type;	/* 0: disk */
	bool removable;
	uint8_t version;		/* 5: SPC-3, 6: SPC-4, 7: SPC-5 */
	char vendor[9], product[17], revision[5];
};

int scsi_inquiry(struct device *dev, struct scsi_inquiry *inq, struct scsi_result *res);
void scsi_decode_inquiry(const uint8_t *buf, size_t len, struct scsi_inquiry *inq);

/* One VPD page into buf (its 4-byte header included); 0, or an errno. */
int scsi_vpd(struct device *dev, uint8_t page, uint8_t *buf, size_t len, struct scsi_result *res);

/* READ CAPACITY (16) (SBC-3 5.16), or (10) where (16) is refused. */
struct scsi_capacity {
	uint64_t blocks;
	uint32_t block_bytes;
	unsigned int physical_exponent;	/* logical blocks per physical block: 2^this */
	bool lbpme;			/* logical block provisioning management (thin) */
	bool lbprz;			/* unmapped blocks read as zeros */
};

int scsi_read_capacity(struct device *dev, struct scsi_capacity *cap, struct scsi_result *res);
void scsi_decode_capacity16(const uint8_t buf[32], struct scsi_capacity *cap);

/*
 * MODE SENSE (10) of one page, its current or changeable values: *page
 * points into buf at the page (after the header and block descriptors),
 * *page_len its bytes.
 */
int scsi_mode_sense(struct device *dev, uint8_t page_code, enum scsi_page_control pc, uint8_t *buf, size_t len,
		    uint8_t **page, size_t *page_len, struct scsi_result *res);

/*
 * MODE SELECT (10) of the page MODE SENSE left in buf (PF set, not
 * saved): the header's length fields and the PS bit are cleared as the
 * standard asks.
 */
int scsi_mode_select(struct device *dev, uint8_t *buf, size_t len, uint8_t *page, size_t page_len,
		     struct scsi_result *res);

int scsi_synchronize_cache(struct device *dev, struct scsi_result *res);
int scsi_start_stop(struct device *dev, enum scsi_power_condition condition, bool start, struct scsi_result *res);

/* REQUEST SENSE: the sense data the device holds now, normalised into *now. */
int scsi_request_sense(struct device *dev, struct sense *now, struct scsi_result *res);

int scsi_read16(struct device *dev, uint64_t lba, uint32_t blocks, void *buf, size_t len, struct scsi_result *res);

/* UNMAP of the descriptors in param (SBC-3 5.28): 8-byte header, 16 bytes a range. */
int scsi_unmap(struct device *dev, const uint8_t *param, size_t len, struct scsi_result *res);

#endif
