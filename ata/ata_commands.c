/*
 * One call per ATA command this program sends, each built as ACS lays it
 * out and sent through ata_exec() (sat.c); the IDENTIFY page and the
 * General Purpose Log directory are read once per device and kept.
 * Nothing here words a failure: the caller gets the result.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "identify.h"
#include "sense.h"
#include "ata_commands.h"
#include "unaligned.h"

/* What the ATA commands keep of one drive, read once (dev->ata_state, made on first use). */
struct ata_state {
	bool id_valid;		/* id[] holds the drive's IDENTIFY page */
	bool id_failed;		/* IDENTIFY was tried and failed: do not retry */
	int id_error;		/* ... with this errno */
	char id_cause[160];	/* ... and this explanation */
	uint8_t identify_op;	/* 0xec (ATA) or 0xa1 (ATAPI) */
	uint16_t id[IDENTIFY_WORDS];
	bool log_dir_valid;	/* log_dir holds the General Purpose Log directory */
	bool log_dir_failed;
	uint16_t log_dir[256];
};

/* Where memory ran out: nothing is kept, and what needs the state fails with ENOMEM. */
static struct ata_state *state_of(struct device *dev)
{
	if (!dev->ata_state)
		dev->ata_state = calloc(1, sizeof(*dev->ata_state));
	return dev->ata_state;
}

bool ata_identify_failed_before(const struct device *dev)
{
	return dev->ata_state && dev->ata_state->id_failed;
}

static void page_to_host(uint16_t *w, const uint8_t *raw)
{
	for (int i = 0; i < IDENTIFY_WORDS; i++)
		w[i] = (uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8);
}

/* 512 bytes of zeros: no drive sends that page (word 0 at least has a bit), a bridge with nothing to pass does. */
static bool all_zeros(const uint8_t page[512])
{
	for (unsigned int i = 0; i < 512; i++)
		if (page[i])
			return false;
	return true;
}

const uint16_t *ata_identify(struct device *dev, int *err, struct ata_result *res)
{
	static const uint8_t ops[2] = { ATA_OP_IDENTIFY, ATA_OP_IDENTIFY_PACKET };
	struct ata_state *st = state_of(dev);
	uint8_t raw[512];

	*err = 0;
	if (!st) {
		*err = ENOMEM;
		memset(res, 0, sizeof(*res));
		return NULL;
	}
	if (st->id_valid)
		return st->id;
	if (st->id_failed) {
		*err = st->id_error;
		memset(res, 0, sizeof(*res));
		snprintf(res->cause, sizeof(res->cause), "%s", st->id_cause);
		return NULL;
	}
	for (int i = 0; i < 2; i++) {
		struct ata_cmd cmd = {
			.tf = { .command = ops[i], .count = 1 },
			.protocol = ATA_PROTO_PIO_IN,
			.data = raw,
			.len = sizeof(raw),
		};

		memset(raw, 0, sizeof(raw));
		*err = ata_exec(dev, &cmd, res);
		/* Behind a USB bridge, a page of zeros is the bridge's answer, not the drive's: said so, not decoded. */
		if (!*err && dev->usb_driver && all_zeros(raw)) {
			snprintf(dev->bridge_nothing, sizeof(dev->bridge_nothing), "IDENTIFY DEVICE with 512 bytes of zeros");
			snprintf(res->cause, sizeof(res->cause),
				 "the USB bridge answered IDENTIFY DEVICE with 512 bytes of zeros: the bridge's limit, not the drive's");
			*err = EIO;
			break;
		}
		if (!*err) {
			page_to_host(st->id, raw);
			st->id_valid = true;
			st->identify_op = ops[i];
			return st->id;
		}
		/* Only an ATAPI device (which aborts IDENTIFY DEVICE) gets the second try. */
		if (*err != EIO)
			break;
	}
	st->id_failed = true;
	st->id_error = *err;
	snprintf(st->id_cause, sizeof(st->id_cause), "%s", res->cause);
	return NULL;
}

static int read_log(struct device *dev, uint8_t log, uint8_t page, void *buf)
{
	struct ata_result res;
	struct ata_cmd cmd = {
		.tf = { .command = ATA_OP_READ_LOG_EXT, .count = 1, .lba = (uint64_t)log | (uint64_t)page << 8,
			.lba48 = true, .device = ATA_DEVICE_LBA },
		.protocol = ATA_PROTO_PIO_IN,
		.data = buf,
		.len = 512,
	};

	return ata_exec(dev, &cmd, &res);
}

void ata_identify_forget(struct device *dev)
{
	if (dev->ata_state)
		dev->ata_state->id_valid = dev->ata_state->id_failed = false;
}

/* The General Purpose Log directory, read once: 0, or ENOENT (no GPL, or its read failed: *c says which, once). */
static int log_directory(struct device *dev, struct disk_cause *c)
{
	struct ata_state *st = dev->ata_state;
	uint8_t raw[512];
	int err;

	if (!st || !st->id_valid || st->id[ATA_ID_COMMAND_SET_EXT] == 0)
		return ENOENT;
	if (st->log_dir_valid)
		return 0;
	if (st->log_dir_failed)
		return ENOENT;
	err = read_log(dev, 0, 0, raw);
	if (err) {
		st->log_dir_failed = true;
		c->whole_line = true;
		if (dev->ata12_only)
			snprintf(c->why, sizeof(c->why),
				 "READ_LOG_EXT(0,0) not sent: the USB bridge passes only the 12-byte ATA PASS-THROUGH");
		else
			snprintf(c->why, sizeof(c->why), "READ_LOG_EXT(0,0) failed: %s", strerror(err));
		return ENOENT;
	}
	page_to_host(st->log_dir, raw);
	st->log_dir_valid = true;
	return 0;
}

unsigned int ata_log_pages(struct device *dev, uint8_t log, struct disk_cause *c)
{
	return log_directory(dev, c) ? 0 : dev->ata_state->log_dir[log];
}

int ata_read_log_page(struct device *dev, uint8_t log, uint8_t page, uint8_t buf[512], struct disk_cause *c)
{
	int err;

	if (log_directory(dev, c) || dev->ata_state->log_dir[log] <= page)
		return ENOENT;
	err = read_log(dev, log, page, buf);
	if (err) {
		c->whole_line = true;
		snprintf(c->why, sizeof(c->why), "READ_LOG_EXT(0x%02x, %u) failed: %s", log, page, strerror(err));
		return ENOENT;
	}
	return 0;
}

/* A bridge's answer to ATA PASS-THROUGH that is no answer (see ata_pass_through_refused()); NULL: a real one. */
static const char *empty_answer(int err, const struct ata_result *res, const uint8_t page[512], char *text, size_t size)
{
	if (!err)
		return all_zeros(page) ? "IDENTIFY DEVICE with 512 bytes of zeros" : NULL;
	/* SAT's own failures: the command refused, the drive not ready, a medium error; an ATA error carries registers. */
	if (err != EIO || !res->check_condition || res->have_regs ||
	    (res->sense_valid && (res->sense_key == SENSE_ILLEGAL_REQUEST || res->sense_key == SENSE_NOT_READY ||
				  res->sense_key == SENSE_UNIT_ATTENTION || res->sense_key == SENSE_MEDIUM_ERROR)))
		return NULL;
	snprintf(text, size, "IDENTIFY DEVICE with a CHECK CONDITION that SAT does not define (%.60s)", res->cause);
	return text;
}

bool ata_pass_through_refused(struct device *dev, char *nothing, size_t size)
{
	char text[200];
	const char *empty;
	uint8_t raw[512] = { 0 };
	struct ata_result res;
	struct ata_cmd cmd = {
		.tf = { .command = ATA_OP_IDENTIFY, .count = 1 },
		.protocol = ATA_PROTO_PIO_IN,
		.data = raw,
		.len = sizeof(raw),
	};
	bool verbose = dev->run.verbose;
	struct ata_state *st = state_of(dev);
	int err;

	if (!st)
		return false;
	/* A probe: its sense data is no news, even with --verbose. */
	dev->run.verbose = false;
	err = ata_exec(dev, &cmd, &res);
	dev->run.verbose = verbose;
	if (nothing && (empty = empty_answer(err, &res, raw, text, sizeof(text)))) {
		/* No IDENTIFY is sent again: what asks for the page gets this answer. */
		snprintf(nothing, size, "%s", empty);
		st->id_failed = true;
		st->id_error = EOPNOTSUPP;
		snprintf(st->id_cause, sizeof(st->id_cause), "the USB bridge answered %.130s", empty);
		return true;
	}
	if (!err) {
		page_to_host(st->id, raw);
		st->id_valid = true;
		st->identify_op = ATA_OP_IDENTIFY;
		return false;
	}
	if (err != EIO || res.have_regs || !res.sense_valid || res.sense_key != SENSE_ILLEGAL_REQUEST ||
	    (res.asc != ASC_INVALID_OPCODE && res.asc != ASC_INVALID_FIELD_IN_CDB))
		return false;
	/* No IDENTIFY is sent again: what asks for the page gets this answer. */
	st->id_failed = true;
	st->id_error = EOPNOTSUPP;
	snprintf(st->id_cause, sizeof(st->id_cause), "a SCSI disk without ATA pass-through has no IDENTIFY page");
	return true;
}

int ata_nondata(struct device *dev, uint8_t command, uint16_t feature, uint16_t count, uint64_t lba,
		bool want_regs, struct ata_result *res, unsigned int timeout_s)
{
	struct ata_cmd cmd = {
		.tf = { .command = command, .feature = feature, .count = count, .lba = lba,
			.device = lba ? ATA_DEVICE_LBA : 0 },
		.protocol = ATA_PROTO_NONDATA,
		.want_regs = want_regs,
		.timeout_s = timeout_s,
	};

	return ata_exec(dev, &cmd, res);
}

int ata_trusted_receive(struct device *dev, bool dma, uint8_t protocol, uint16_t sp_specific, void *buf, size_t len,
			struct ata_result *res)
{
	/* ACS-3 7.57: the protocol in FEATURE, the length in 512-byte blocks in COUNT and LBA 7:0, SP SPECIFIC in LBA 23:8. */
	uint16_t blocks = (uint16_t)(len / 512);
	struct ata_cmd cmd = {
		.tf = { .command = dma ? ATA_OP_TRUSTED_RECEIVE_DMA : ATA_OP_TRUSTED_RECEIVE, .feature = protocol,
			.count = blocks & 0xff, .lba = (uint64_t)(blocks >> 8) | (uint64_t)sp_specific << 8 },
		.protocol = dma ? ATA_PROTO_DMA : ATA_PROTO_PIO_IN,
		.data = buf,
		.len = len,
	};

	memset(buf, 0, len);
	return ata_exec(dev, &cmd, res);
}

int ata_trusted_send(struct device *dev, bool dma, uint8_t protocol, uint16_t sp_specific, const void *buf, size_t len,
		     struct ata_result *res)
{
	/* ACS-3 7.59: the fields of TRUSTED RECEIVE, data the other way. */
	uint16_t blocks = (uint16_t)(len / 512);
	struct ata_cmd cmd = {
		.tf = { .command = dma ? ATA_OP_TRUSTED_SEND_DMA : ATA_OP_TRUSTED_SEND, .feature = protocol,
			.count = blocks & 0xff, .lba = (uint64_t)(blocks >> 8) | (uint64_t)sp_specific << 8 },
		.protocol = dma ? ATA_PROTO_DMA : ATA_PROTO_PIO_OUT,
		.data = (void *)(uintptr_t)buf,
		.len = len,
		.data_out = true,
	};

	return ata_exec(dev, &cmd, res);
}

int ata_set_feature(struct device *dev, uint8_t subcommand, uint16_t count, struct ata_result *res)
{
	return ata_nondata(dev, ATA_OP_SET_FEATURES, subcommand, count, 0, false, res, 0);
}

int ata_set_epc(struct device *dev, uint32_t lba, uint8_t condition, struct ata_result *res)
{
	return ata_nondata(dev, ATA_OP_SET_FEATURES, ATA_SF_EPC, condition, lba, false, res, 0);
}

int ata_flush_cache(struct device *dev, bool ext, struct ata_result *res)
{
	return ata_nondata(dev, ext ? ATA_OP_FLUSH_CACHE_EXT : ATA_OP_FLUSH_CACHE, 0, 0, 0, false, res, 60);
}

int ata_check_power_mode(struct device *dev, struct ata_result *res)
{
	int err = ata_nondata(dev, ATA_OP_CHECK_POWER_MODE, 0, 0, 0, true, res, 0);

	if (err == EIO) /* very old drives know only the ATA-1 opcode */
		err = ata_nondata(dev, ATA_OP_CHECK_POWER_MODE_OLD, 0, 0, 0, true, res, 0);
	return err;
}

/* READ or WRITE SECTORS (EXT with lba48), PIO, of the sector at lba: len bytes. */
static int ata_sector_io(struct device *dev, uint64_t lba, bool lba48, bool write, void *buf, size_t len,
			 struct ata_result *res)
{
	struct ata_cmd cmd = {
		.tf = { .command = (uint8_t)(write ? (lba48 ? ATA_OP_WRITE_SECTORS_EXT : ATA_OP_WRITE_SECTORS)
					    : (lba48 ? ATA_OP_READ_SECTORS_EXT : ATA_OP_READ_SECTORS)),
			.count = 1, .lba = lba, .lba48 = lba48, .device = ATA_DEVICE_LBA },
		.protocol = write ? ATA_PROTO_PIO_OUT : ATA_PROTO_PIO_IN,
		.data = buf,
		.len = len,
		.data_out = write,
		.timeout_s = 60,
	};

	return ata_exec(dev, &cmd, res);
}

int ata_read_verify(struct device *dev, uint64_t lba, uint32_t sectors, bool lba48, struct ata_result *res)
{
	/*
	 * ACS-4 7.34 and 7.35: READ VERIFY SECTORS (EXT), non-data; COUNT 0 means 256 (28-bit) or 65536 (48-bit),
	 * which the 8 or 16 bits the pass-through carries give of themselves.
	 */
	struct ata_cmd cmd = {
		.tf = { .command = lba48 ? ATA_OP_READ_VERIFY_SECTORS_EXT : ATA_OP_READ_VERIFY_SECTORS,
			.count = (uint16_t)sectors, .lba = lba, .lba48 = lba48, .device = ATA_DEVICE_LBA },
		.protocol = ATA_PROTO_NONDATA,
		.timeout_s = 60,
	};

	return ata_exec(dev, &cmd, res);
}

int ata_write_uncorrectable(struct device *dev, uint64_t lba, bool flagged, struct ata_result *res)
{
	struct ata_cmd cmd = {
		.tf = { .command = ATA_OP_WRITE_UNCORRECTABLE_EXT,
			.feature = flagged ? ATA_WRITE_UNC_FLAGGED : ATA_WRITE_UNC_PSEUDO,
			.count = 1, .lba = lba, .lba48 = true, .device = ATA_DEVICE_LBA },
		.protocol = ATA_PROTO_NONDATA,
		.timeout_s = 60,
	};

	return ata_exec(dev, &cmd, res);
}

int ata_set_sector_configuration(struct device *dev, uint16_t check, uint16_t index, struct ata_result *res)
{
	struct ata_cmd cmd = {
		.tf = { .command = ATA_OP_SET_SECTOR_CONFIGURATION_EXT, .feature = check, .count = index, .lba48 = true,
			.device = ATA_DEVICE_LBA },
		.protocol = ATA_PROTO_NONDATA,
		.timeout_s = 60,
	};

	return ata_exec(dev, &cmd, res);
}

int ata_identify_without_data(struct device *dev, struct ata_result *res)
{
	struct ata_cmd cmd = {
		.tf = { .command = dev->ata_state ? dev->ata_state->identify_op : 0 },
		.protocol = ATA_PROTO_NONDATA,
		.timeout_s = 60,
	};

	return ata_exec(dev, &cmd, res);
}

int ata_dco_identify(struct device *dev, uint8_t raw[512], struct ata_result *res)
{
	struct ata_cmd cmd = {
		.tf = { .command = ATA_OP_DEVICE_CONFIGURATION, .feature = ATA_DCO_IDENTIFY, .count = 1 },
		.protocol = ATA_PROTO_PIO_IN,
		.data = raw,
		.len = 512,
	};

	return ata_exec(dev, &cmd, res);
}

int ata_dco_set(struct device *dev, const uint8_t raw[512], struct ata_result *res)
{
	struct ata_cmd cmd = {
		.tf = { .command = ATA_OP_DEVICE_CONFIGURATION, .feature = ATA_DCO_SET, .count = 1 },
		.protocol = ATA_PROTO_PIO_OUT,
		.data = (void *)raw,
		.len = 512,
		.data_out = true,
	};

	return ata_exec(dev, &cmd, res);
}

int ata_download_microcode(struct device *dev, unsigned int mode, size_t offset, const void *data, size_t bytes,
			   struct ata_result *res)
{
	unsigned int blocks = (unsigned int)(bytes / 512);
	/* Blocks in COUNT 7:0 and LBA 7:0 (15:8 of the count), the offset in blocks from LBA 8 up. */
	struct ata_cmd cmd = {
		.tf = { .command = ATA_OP_DOWNLOAD_MICROCODE, .feature = (uint16_t)mode, .count = (uint16_t)(blocks & 0xff),
			.lba = (uint64_t)(offset / 512) << 8 | ((blocks >> 8) & 0xff) },
		.protocol = ATA_PROTO_PIO_OUT,
		.data = (void *)data,
		.len = bytes,
		.data_out = true,
		.timeout_s = 30,
		.want_regs = mode == 0x03 || mode == 0x0e,
	};

	return ata_exec(dev, &cmd, res);
}

int ata_sanitize(struct device *dev, uint16_t feature, uint64_t lba, uint16_t count,
		 bool want_regs, struct ata_result *res)
{
	struct ata_cmd cmd = {
		.tf = { .command = ATA_OP_SANITIZE, .feature = feature, .count = count, .lba = lba, .lba48 = true,
			.device = ATA_DEVICE_LBA },
		.protocol = ATA_PROTO_NONDATA,
		.want_regs = want_regs,
	};

	return ata_exec(dev, &cmd, res);
}

int ata_sector(struct device *dev, uint64_t lba, bool write, void *buf, size_t len, struct ata_result *res)
{
	return ata_sector_io(dev, lba, lba >= ATA_LBA28_LIMIT, write, buf, len, res);
}

void ata_sector_failure(const struct ata_result *res, int err, char *buf, size_t size)
{
	snprintf(buf, size, "%s", res->cause[0] ? res->cause : strerror(err));
	if (res->have_regs && !res->lba_incomplete && (res->status & 0x01) && (res->error & 0x40 || res->error & 0x10))
		snprintf(buf + strlen(buf), size - strlen(buf), ", LBA %llu", (unsigned long long)res->out.lba);
}

int ata_dsm_trim(struct device *dev, const struct sector_range *pieces, unsigned int n, struct ata_result *res)
{
	unsigned int blocks = (n + ATA_DSM_RANGES_PER_BLOCK - 1) / ATA_DSM_RANGES_PER_BLOCK;
	uint8_t *buf = calloc(blocks ? blocks : 1, 512);
	struct ata_cmd cmd = {
		.tf = { .command = ATA_OP_DATA_SET_MANAGEMENT, .feature = ATA_DSM_TRIM, .count = (uint16_t)blocks,
			.lba48 = true, .device = ATA_DEVICE_LBA },
		.protocol = ATA_PROTO_DMA,
		.data = buf,
		.len = (size_t)blocks * 512,
		.data_out = true,
		.timeout_s = 300,
	};
	int err;

	if (!buf)
		return ENOMEM;
	/* A range entry: bits 47:0 the LBA, 63:48 the count, little-endian; unused entries stay zero. */
	for (unsigned int i = 0; i < n; i++)
		put_le64(buf + 8 * (size_t)i, pieces[i].count << 48 | pieces[i].lba);
	err = ata_exec(dev, &cmd, res);
	free(buf);
	return err;
}

int ata_security_data(struct device *dev, uint8_t command, const struct ata_security_block *block,
		      unsigned int timeout_s, struct ata_result *res)
{
	struct ata_cmd cmd = {
		.tf = { .command = command, .count = 1 },
		.protocol = ATA_PROTO_PIO_OUT,
		.data = (void *)block,
		.len = sizeof(*block),
		.data_out = true,
		.timeout_s = timeout_s,
	};

	return ata_exec(dev, &cmd, res);
}

enum ata_max_command ata_native_max_command(const uint16_t *id)
{
	return ata_id_has_amax(id) ? ATA_MAX_ACCESSIBLE : ata_id_lba48_enabled(id) ? ATA_MAX_EXT : ATA_MAX_28;
}

uint64_t ata_native_max_sectors(const struct ata_result *res, enum ata_max_command kind)
{
	/* READ NATIVE MAX ADDRESS puts LBA bits 27:24 in DEVICE 3:0. */
	if (kind == ATA_MAX_28)
		return (((uint64_t)res->out.device & 0x0f) << 24 | (res->out.lba & 0xffffff)) + 1;
	return res->out.lba + 1;
}

int ata_read_native_max(struct device *dev, enum ata_max_command kind, struct ata_result *res)
{
	static const uint8_t ops[] = {
		[ATA_MAX_ACCESSIBLE] = ATA_OP_ACCESSIBLE_MAX_ADDRESS,	/* FEATURE 0: GET NATIVE MAX ADDRESS EXT */
		[ATA_MAX_EXT] = ATA_OP_READ_NATIVE_MAX_EXT,
		[ATA_MAX_28] = ATA_OP_READ_NATIVE_MAX,
	};
	struct ata_cmd cmd = {
		.tf = { .command = ops[kind], .feature = kind == ATA_MAX_ACCESSIBLE ? ATA_AMAX_GET_NATIVE : 0,
			.lba48 = kind != ATA_MAX_28, .device = ATA_DEVICE_LBA },
		.protocol = ATA_PROTO_NONDATA,
		.want_regs = true,
	};

	return ata_exec(dev, &cmd, res);
}

int ata_set_max(struct device *dev, enum ata_max_command kind, uint64_t max_lba, bool permanent,
		struct ata_result *res)
{
	static const uint8_t ops[] = {
		[ATA_MAX_ACCESSIBLE] = ATA_OP_ACCESSIBLE_MAX_ADDRESS,	/* FEATURE 1: SET ACCESSIBLE MAX ADDRESS EXT */
		[ATA_MAX_EXT] = ATA_OP_SET_MAX_EXT,
		[ATA_MAX_28] = ATA_OP_SET_MAX,
	};
	struct ata_cmd cmd = {
		.tf = { .command = ops[kind], .feature = kind == ATA_MAX_ACCESSIBLE ? ATA_AMAX_SET : 0,
			.count = permanent ? 1 : 0, .lba = max_lba, .lba48 = kind != ATA_MAX_28, .device = ATA_DEVICE_LBA },
		.protocol = ATA_PROTO_NONDATA,
	};

	return ata_exec(dev, &cmd, res);
}

int ata_smart_log(struct device *dev, bool write, uint8_t log, uint8_t data[512],
		  struct ata_result *res)
{
	struct ata_cmd cmd = {
		.tf = { .command = ATA_OP_SMART, .feature = write ? ATA_SMART_WRITE_LOG : ATA_SMART_READ_LOG, .count = 1,
			.lba = ATA_SMART_LBA_SIGNATURE | log, .device = ATA_DEVICE_OBSOLETE },
		.protocol = write ? ATA_PROTO_PIO_OUT : ATA_PROTO_PIO_IN,
		.data = data,
		.len = 512,
		.data_out = write,
		.timeout_s = 12,
	};

	return ata_exec(dev, &cmd, res);
}

int ata_smart_read_data(struct device *dev, uint8_t data[512], struct ata_result *res)
{
	return ata_smart_read_table(dev, false, data, res);
}

int ata_smart_read_table(struct device *dev, bool thresholds, uint8_t data[512], struct ata_result *res)
{
	struct ata_cmd cmd = {
		.tf = { .command = ATA_OP_SMART, .feature = thresholds ? ATA_SMART_READ_THRESHOLDS : ATA_SMART_READ_DATA, .count = 1, .lba = ATA_SMART_LBA_SIGNATURE,
			.device = ATA_DEVICE_OBSOLETE },
		.protocol = ATA_PROTO_PIO_IN,
		.data = data,
		.len = 512,
		.timeout_s = 12,
	};

	return ata_exec(dev, &cmd, res);
}

int ata_smart_return_status(struct device *dev, struct ata_result *res)
{
	return ata_nondata(dev, ATA_OP_SMART, ATA_SMART_RETURN_STATUS, 0, ATA_SMART_LBA_SIGNATURE, true, res, 12);
}

/* An off-line test started is the drive's to run: the command itself ends at once (captive modes are not sent). */
int ata_smart_execute_offline(struct device *dev, uint8_t subcommand, struct ata_result *res)
{
	return ata_nondata(dev, ATA_OP_SMART, ATA_SMART_EXECUTE_OFFLINE, 0, ATA_SMART_LBA_SIGNATURE | subcommand, false,
			   res, 12);
}

/*
 * SCT Status (log E0h, ACS-3 8.3.2) after an SCT command, as smartctl reads
 * it: the last command was Error Recovery Control (action code, bytes
 * 16-17), this function (18-19), and ended without error (extended status,
 * 14-15).  A pass-through that lost the command, or another command that
 * ran in between, is said in res->cause: EIO.
 */
static int sct_completed(struct device *dev, uint16_t function, struct ata_result *res)
{
	uint8_t status[512];
	struct ata_result read;
	uint16_t ext, action, done;
	int err = ata_smart_log(dev, false, ATA_SCT_LOG, status, &read);

	if (err) {
		*res = read;
		return err;
	}
	ext = get_le16(status + 14);
	action = get_le16(status + 16);
	done = get_le16(status + 18);
	if (ext == 0 && action == ATA_SCT_ACTION_ERC && done == function)
		return 0;
	snprintf(res->cause, sizeof(res->cause), "SCT Status after it says extended status %04Xh, action %u, function"
		 " %u, not Error Recovery Control's %u completed", ext, action, done, function);
	return EIO;
}

int ata_sct_erc(struct device *dev, bool set, uint16_t selection, uint16_t *value, struct ata_result *res)
{
	uint8_t block[512] = { 0 };
	struct ata_cmd cmd = {
		.tf = { .command = ATA_OP_SMART, .feature = ATA_SMART_WRITE_LOG, .count = 1,
			.lba = ATA_SMART_LBA_SIGNATURE | ATA_SCT_LOG, .device = ATA_DEVICE_OBSOLETE },
		.protocol = ATA_PROTO_PIO_OUT,
		.data = block,
		.len = sizeof(block),
		.data_out = true,
		.timeout_s = 12,
		.want_regs = !set,
	};
	int err;

	put_le16(block, ATA_SCT_ACTION_ERC);
	put_le16(block + 2, set ? ATA_SCT_ERC_SET : ATA_SCT_ERC_RETURN);
	put_le16(block + 4, selection);
	put_le16(block + 6, set ? *value : 0);
	err = ata_exec(dev, &cmd, res);
	if (!err)
		err = sct_completed(dev, set ? ATA_SCT_ERC_SET : ATA_SCT_ERC_RETURN, res);
	if (!err && !set && !res->have_regs) {
		snprintf(res->cause, sizeof(res->cause), "the drive's answer did not come back");
		err = EIO;
	}
	/* COUNT and LBA 7:0 as they were sent (E001h, 5734.5 s): a pass-through that echoes them, as smartctl finds. */
	if (!err && !set && (res->out.count & 0xff) == cmd.tf.count && (res->out.lba & 0xff) == ATA_SCT_LOG) {
		snprintf(res->cause, sizeof(res->cause), "COUNT and LBA came back as they were sent (%02Xh, %02Xh): not the"
			 " drive's answer (a bridge that echoes the registers?)", cmd.tf.count, ATA_SCT_LOG);
		err = EIO;
	}
	if (!err && !set)
		*value = (uint16_t)((res->out.count & 0xff) | (res->out.lba & 0xff) << 8);
	return err;
}

int ata_wd_vendor_commands(struct device *dev, bool enable, struct ata_result *res)
{
	struct ata_cmd cmd = {
		.tf = { .command = ATA_OP_VENDOR_WD, .feature = enable ? 'E' : 'D', .lba = 'W' << 16 | 'D' << 8,
			.device = ATA_DEVICE_OBSOLETE },
		.protocol = ATA_PROTO_NONDATA,
		.timeout_s = 12,
	};

	return ata_exec(dev, &cmd, res);
}
