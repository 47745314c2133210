/* ATA commands: one typed call per command (ata_commands.c), sent as SAT ATA PASS-THROUGH on the one SG_IO sender, or through HDIO_* where a driver has no SG_IO (sat.c). */
#ifndef HDPARM_ATA_COMMANDS_H
#define HDPARM_ATA_COMMANDS_H

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
	bool check_condition;	/* the reply was CHECK CONDITION (its sense data may be missing) */
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
int ata_nondata(struct device *dev, uint8_t command, uint16_t feature, uint16_t count, uint64_t lba,
		bool want_regs, struct ata_result *res, unsigned int timeout_s);

/* SET FEATURES: subcommand (ata.h's enum ata_set_features) in FEATURE, its value in COUNT; the outcome in *res. */
int ata_set_feature(struct device *dev, uint8_t subcommand, uint16_t count, struct ata_result *res);

/* SET FEATURES EPC: the subcommand and its bits in lba (ata.h's ATA_EPC_*), the power condition in COUNT. */
int ata_set_epc(struct device *dev, uint32_t lba, uint8_t condition, struct ata_result *res);

/* FLUSH CACHE, or FLUSH CACHE EXT; nothing said. */
int ata_flush_cache(struct device *dev, bool ext, struct ata_result *res);

/* CHECK POWER MODE (E5h, then ATA-1's 98h), the registers in *res; not reported. */
int ata_check_power_mode(struct device *dev, struct ata_result *res);

/* The same, 28-bit below LBA 2^28 - 1 and 48-bit above, as 9.65 chooses. */
#define ATA_LBA28_LIMIT ((1ULL << 28) - 1)
int ata_sector(struct device *dev, uint64_t lba, bool write, void *buf, size_t len, struct ata_result *res);

/* Why a sector command failed, and where the drive says the error is: "medium error (...), LBA 204800". */
void ata_sector_failure(const struct ata_result *res, int err, char *buf, size_t size);

/* READ VERIFY SECTORS (EXT with lba48) of sectors (1 to 256, or 65536 with lba48) at lba: checked, nothing sent; the registers in *res. */
int ata_read_verify(struct device *dev, uint64_t lba, uint32_t sectors, bool lba48, struct ata_result *res);

/* WRITE UNCORRECTABLE EXT of the sector at lba: a flagged or a pseudo-uncorrectable error. */
int ata_write_uncorrectable(struct device *dev, uint64_t lba, bool flagged, struct ata_result *res);

/* SET SECTOR CONFIGURATION EXT: the descriptor index and its check word. */
int ata_set_sector_configuration(struct device *dev, uint16_t check, uint16_t index, struct ata_result *res);

/* IDENTIFY (DEVICE or PACKET, as the drive answered) sent without its data: --drq-hsm-error. */
int ata_identify_without_data(struct device *dev, struct ata_result *res);

/* DEVICE CONFIGURATION IDENTIFY and SET: the 512-byte overlay. */
int ata_dco_identify(struct device *dev, uint8_t raw[512], struct ata_result *res);
int ata_dco_set(struct device *dev, const uint8_t raw[512], struct ata_result *res);

/* DOWNLOAD MICROCODE of bytes (512-byte blocks) at offset, in mode (FEATURE); the registers for modes 3 and Eh. */
int ata_download_microcode(struct device *dev, unsigned int mode, size_t offset, const void *data, size_t bytes,
			   struct ata_result *res);

/* SANITIZE (B4h): the subcommand in FEATURE, its key or pattern in LBA, overwrite passes in COUNT. */
int ata_sanitize(struct device *dev, uint16_t feature, uint64_t lba, uint16_t count,
		 bool want_regs, struct ata_result *res);

/* SANITIZE STATUS EXT's bits are in COUNT 15:8, which fixed-format sense does not carry. */
static inline bool ata_sanitize_status_returned(const struct ata_result *res)
{
	return res->have_regs && !(!res->out.lba48 && res->sense[0] == 0x70);
}

/*
 * DATA SET MANAGEMENT with TRIM of n ranges, each at most ATA_DSM_MAX_COUNT
 * sectors: 8-byte entries, ATA_DSM_RANGES_PER_BLOCK to a 512-byte block.
 */
#define ATA_DSM_RANGES_PER_BLOCK 64
#define ATA_DSM_MAX_COUNT 0xffffu
int ata_dsm_trim(struct device *dev, const struct sector_range *pieces, unsigned int n, struct ata_result *res);

/* A Security command with its data block (SET PASSWORD, UNLOCK, ERASE UNIT, DISABLE PASSWORD). */
int ata_security_data(struct device *dev, uint8_t command, const struct ata_security_block *block,
		      unsigned int timeout_s, struct ata_result *res);

/* Which max-address commands a drive takes: ACCESSIBLE MAX ADDRESS (ACS-3), the 48-bit or the 28-bit ones. */
enum ata_max_command { ATA_MAX_ACCESSIBLE, ATA_MAX_EXT, ATA_MAX_28 };

/* GET NATIVE MAX ADDRESS EXT, READ NATIVE MAX ADDRESS (EXT): the answer in res->out.lba. */
int ata_read_native_max(struct device *dev, enum ata_max_command kind, struct ata_result *res);

/* The command that reads a drive's native max (its IDENTIFY page): AMAC's, else 48-bit where enabled, else 28-bit. */
enum ata_max_command ata_native_max_command(const uint16_t *id);

/* The sectors below the native max address, from the registers of the kind of command that read it. */
uint64_t ata_native_max_sectors(const struct ata_result *res, enum ata_max_command kind);

/* SET ACCESSIBLE MAX ADDRESS EXT, SET MAX ADDRESS (EXT) to max_lba, volatile or not. */
int ata_set_max(struct device *dev, enum ata_max_command kind, uint64_t max_lba, bool permanent,
		struct ata_result *res);

/* SMART READ LOG or WRITE LOG of one 512-byte page of log. */
/* SMART READ DATA (B0h D0h): the attribute table (ATA/ATAPI-7 and vendors' common layout). */
int ata_smart_read_data(struct device *dev, uint8_t data[512], struct ata_result *res);
/* The same, or SMART READ ATTRIBUTE THRESHOLDS (D1h, obsolete since ACS but what smartctl shows as THRESH). */
int ata_smart_read_table(struct device *dev, bool thresholds, uint8_t data[512], struct ata_result *res);

int ata_smart_log(struct device *dev, bool write, uint8_t log, uint8_t data[512],
		  struct ata_result *res);

/* WD's vendor-specific commands, switched on or off. */
/*
 * SCT Error Recovery Control: set (value in) or return (value out) the
 * timer selection names (ATA_SCT_ERC_READ_TIMER or _WRITE_TIMER), in 100 ms.
 */
int ata_sct_erc(struct device *dev, bool set, uint16_t selection, uint16_t *value, struct ata_result *res);

int ata_wd_vendor_commands(struct device *dev, bool enable, struct ata_result *res);

/*
 * The drive's IDENTIFY page (IDENTIFY DEVICE, then IDENTIFY PACKET DEVICE),
 * read once per device.  Returns NULL and sets *err on failure.
 */
const uint16_t *ata_identify(struct device *dev, int *err, struct ata_result *res);

/*
 * IDENTIFY through ATA pass-through was refused as a command the device
 * does not know (ATA_16 and ATA_12 both): a SCSI disk without a SAT layer.
 * The page is kept when it comes back.  With nothing (a USB bridge's
 * disk), an answer that is no answer counts as refused too, and nothing
 * says which: a page of zeros, or a CHECK CONDITION that SAT does not
 * define (no sense data, or no ATA registers under a key SAT gives no
 * such failure).
 */
bool ata_pass_through_refused(struct device *dev, char *nothing, size_t size);

/* The drive has changed (a setting, a firmware, a DCO): IDENTIFY is read afresh, a failure tried again. */
void ata_identify_forget(struct device *dev);

/* IDENTIFY was sent and failed (its failure is not sent again, nor said again). */
bool ata_identify_failed_before(const struct device *dev);

/*
 * One 512-byte page of a General Purpose log, where the log directory
 * lists it: 0, or ENOENT (not listed, or a read that failed: *c says which,
 * as 9.65 words it; nothing said).
 */
/*
 * TRUSTED RECEIVE (5Ch, PIO) or TRUSTED RECEIVE DMA (5Dh) of one security
 * protocol's data: len a multiple of 512 bytes, buf zeroed first.
 */
int ata_trusted_receive(struct device *dev, bool dma, uint8_t protocol, uint16_t sp_specific, void *buf, size_t len,
			struct ata_result *res);
/* TRUSTED SEND (5Eh, PIO) or TRUSTED SEND DMA (5Fh): len bytes (a multiple of 512) to protocol and SP SPECIFIC. */
int ata_trusted_send(struct device *dev, bool dma, uint8_t protocol, uint16_t sp_specific, const void *buf, size_t len,
		     struct ata_result *res);

int ata_read_log_page(struct device *dev, uint8_t log, uint8_t page, uint8_t buf[512], struct disk_cause *c);

/* The pages of log the General Purpose Log directory lists (0: none, or no directory: *c may say why). */
unsigned int ata_log_pages(struct device *dev, uint8_t log, struct disk_cause *c);

/* SMART RETURN STATUS (B0h DAh): the registers it ends with in *res (LBA 23:8 the verdict). */
int ata_smart_return_status(struct device *dev, struct ata_result *res);

/* SMART EXECUTE OFF-LINE IMMEDIATE (B0h D4h): subcommand in LBA 7:0 (1 short, 2 extended, 7Fh abort). */
int ata_smart_execute_offline(struct device *dev, uint8_t subcommand, struct ata_result *res);

/* Decode SCSI sense data into res (registers when present). Exposed for tests. */
void sat_result_from_sense(const uint8_t *sense, unsigned int len, struct ata_result *res);

/*
 * --scan-verify: a READ VERIFY SECTORS (EXT) that failed (EIO), sorted by
 * what came back (pure): ENODATA a medium error (UNC or IDNF with ERR, or
 * sense key MEDIUM ERROR), EOPNOTSUPP a command the drive aborted
 * (*by_bridge false) or the SCSI layer in front refused without registers
 * (ILLEGAL REQUEST, *by_bridge true), EREMOTEIO any other end: not the
 * medium's, and not a missing command.
 */
int ata_verify_outcome(const struct ata_result *res, bool *by_bridge);

/*
 * Behind a USB bridge: REQUEST SENSE through it, which wakes nothing
 * (SAT translates it without spinning the drive up): "standby" or "idle"
 * where it reports a low power condition; else NULL (active, or not said),
 * and CHECK POWER MODE may ask.  NULL without asking where no bridge is.
 */
const char *sat_low_power_state(struct device *dev);

/* Build the SAT CDB for cmd: 16 or 12 bytes; returns the length used. */
unsigned int sat_build_cdb(const struct ata_cmd *cmd, bool twelve, uint8_t cdb[16]);

#endif
