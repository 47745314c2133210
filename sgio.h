/* ATA commands through SG_IO (SAT ATA PASS-THROUGH) with HDIO_* fall-backs. */
#ifndef HDPARM_SGIO_H
#define HDPARM_SGIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ata.h"
#include "device.h"

enum ata_protocol {
	ATA_PROTO_NONDATA = 3,
	ATA_PROTO_PIO_IN = 4,
	ATA_PROTO_PIO_OUT = 5,
	ATA_PROTO_DMA = 6,
};

/* The registers of one command, or of its completion. */
struct ata_regs {
	uint8_t command;	/* on completion: the status register */
	uint16_t feature;	/* on completion: the error register (low byte) */
	uint16_t count;
	uint64_t lba;
	uint8_t device;
	bool lba48;
};

struct ata_cmd {
	const char *name;	/* for messages, e.g. "IDENTIFY DEVICE" */
	struct ata_regs tf;
	enum ata_protocol protocol;
	void *data;
	size_t len;
	bool data_out;		/* data goes to the drive */
	unsigned int timeout_s;	/* 0: 15 s */
	bool want_regs;		/* ask for the completion registers (CK_COND) */
};

/* How a command ended. */
struct ata_result {
	bool have_regs;
	uint8_t status, error;
	struct ata_regs out;
	bool lba_incomplete;	/* fixed-format sense: LBA bits 47:24 were not returned */
	uint8_t sense_key, asc, ascq;
	bool sense_valid;	/* the sense data was long enough to hold a sense key */
	uint8_t sense[32];
	unsigned int sense_len;
	char cause[160];	/* the failure in words, empty on success */
};

/*
 * Issue one ATA command.  Returns 0 on success, else an errno value
 * (EIO when the drive reported an error) with res->cause filled in.
 */
int ata_exec(struct device *dev, const struct ata_cmd *cmd, struct ata_result *res);

/*
 * A command without data; *res has the completion registers when
 * want_regs (CK_COND).  The DEVICE register's LBA bit is set with an LBA.
 */
int ata_nondata(struct device *dev, const char *name, uint8_t command, uint16_t feature, uint16_t count, uint64_t lba,
		bool want_regs, struct ata_result *res, unsigned int timeout_s);

/* The same without an LBA, and on failure " WHAT failed: why" on stderr. */
int ata_command(struct device *dev, const char *what, uint8_t command, uint16_t feature, uint16_t count);

/* SET FEATURES: subcommand (ata.h's enum ata_set_features) in FEATURE, its value in COUNT; reported as what. */
int ata_set_features(struct device *dev, const char *what, uint8_t subcommand, uint16_t count);

/* FLUSH CACHE, or FLUSH CACHE EXT; a failure is reported as report_as, or not at all when it is NULL. */
int ata_flush_cache(struct device *dev, bool ext, const char *report_as);

/* CHECK POWER MODE (E5h, then ATA-1's 98h), the registers in *res; not reported. */
int ata_check_power_mode(struct device *dev, struct ata_result *res);

/* Print " <what> failed: <cause>" on stderr for a failed command. */
void ata_report(const char *what, const struct ata_result *res, int err);

/*
 * The drive's IDENTIFY page (IDENTIFY DEVICE, then IDENTIFY PACKET DEVICE),
 * read once per device.  Returns NULL and sets *err on failure.
 */
const uint16_t *ata_identify(struct device *dev, int *err, struct ata_result *res);

/*
 * IDENTIFY through ATA pass-through was refused as a command the device
 * does not know (ATA_16 and ATA_12 both): a SCSI disk without a SAT layer.
 * The page is kept when it comes back.
 */
bool ata_pass_through_refused(struct device *dev);

/* One 512-byte page of a General Purpose log; 0 on success. */
int ata_read_log_page(struct device *dev, uint8_t log, uint8_t page, uint8_t buf[512]);

/* Decode SCSI sense data into res (registers when present). Exposed for tests. */
void sense_decode(const uint8_t *sense, unsigned int len, struct ata_result *res);

/* Build the SAT CDB for cmd: 16 or 12 bytes; returns the length used. */
unsigned int sat_build_cdb(const struct ata_cmd *cmd, bool twelve, uint8_t cdb[16]);

#endif
