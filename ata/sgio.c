/*
 * Every ATA command goes through ata_exec(): SAT ATA PASS-THROUGH (16-byte
 * CDB, or 12-byte when asked or when the 16-byte one is refused), and the
 * legacy HDIO_DRIVE_CMD ioctl for drivers that have no SG_IO.  Sense data
 * is decoded in both descriptor (0x72) and fixed (0x70) format: libata
 * answers in fixed format unless D_SENSE is set, which hdparm 9.65 misread
 * as "bad/missing sense data".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/hdreg.h>

#include "identify.h"
#include "array.h"
#include "sense.h"
#include "sg.h"
#include "sgio.h"
#include "report.h"
#include "unaligned.h"

#define SAT_ATA_16 0x85
#define SAT_ATA_12 0xa1

#define ATA_STATUS_ERR 0x01
#define ATA_STATUS_DF 0x20
#define ATA_STATUS_BSY 0x80

/* ATA commands that give no timeout of their own get this many seconds (hdparm 9.65's). */
#define ATA_DEFAULT_TIMEOUT_S 15

static enum sg_dir transfer_direction(const struct ata_cmd *cmd)
{
	if (!cmd->len)
		return SG_NO_DATA;
	return cmd->data_out ? SG_DATA_OUT : SG_DATA_IN;
}

unsigned int sat_build_cdb(const struct ata_cmd *cmd, bool twelve, uint8_t cdb[16])
{
	const struct ata_regs *tf = &cmd->tf;
	uint8_t flags = 0;
	uint8_t device = tf->device;

	memset(cdb, 0, 16);
	if (cmd->len) {
		/* Length in the sector count field, counted in 512-byte blocks. */
		flags = 0x04 | 0x02;
		if (!cmd->data_out)
			flags |= 0x08;
	}
	if (cmd->want_regs)
		flags |= 0x20;
	if (!tf->lba48 && (device & 0x40))
		device |= (tf->lba >> 24) & 0x0f;

	if (twelve) {
		cdb[0] = SAT_ATA_12;
		cdb[1] = (uint8_t)(cmd->protocol << 1);
		cdb[2] = flags;
		cdb[3] = (uint8_t)tf->feature;
		cdb[4] = (uint8_t)tf->count;
		cdb[5] = (uint8_t)tf->lba;
		cdb[6] = (uint8_t)(tf->lba >> 8);
		cdb[7] = (uint8_t)(tf->lba >> 16);
		cdb[8] = device;
		cdb[9] = tf->command;
		return 12;
	}
	cdb[0] = SAT_ATA_16;
	cdb[1] = (uint8_t)(cmd->protocol << 1 | (tf->lba48 ? 1 : 0));
	cdb[2] = flags;
	if (tf->lba48) {
		cdb[3] = (uint8_t)(tf->feature >> 8);
		cdb[5] = (uint8_t)(tf->count >> 8);
		cdb[7] = (uint8_t)(tf->lba >> 24);
		cdb[9] = (uint8_t)(tf->lba >> 32);
		cdb[11] = (uint8_t)(tf->lba >> 40);
	}
	cdb[4] = (uint8_t)tf->feature;
	cdb[6] = (uint8_t)tf->count;
	cdb[8] = (uint8_t)tf->lba;
	cdb[10] = (uint8_t)(tf->lba >> 8);
	cdb[12] = (uint8_t)(tf->lba >> 16);
	cdb[13] = device;
	cdb[14] = tf->command;
	return 16;
}

/* ---- sense data ---- */

/* Descriptor format: find the ATA Status Return descriptor (code 0x09). */
static void decode_descriptor_sense(const uint8_t *s, unsigned int len, struct ata_result *res)
{
	unsigned int end, pos = 8;

	if (len < 8)
		return;
	end = 8u + s[7];
	if (end > len)
		end = len;
	while (pos + 2 <= end) {
		const uint8_t *d = s + pos;
		unsigned int dlen = 2u + d[1];

		if (d[0] == 0x09 && d[1] >= 0x0c && pos + 14 <= end) {
			res->have_regs = true;
			res->error = d[3];
			res->out.lba48 = d[2] & 1;
			res->out.count = (uint16_t)(d[4] << 8 | d[5]);
			res->out.lba = (uint64_t)d[10] << 40 | (uint64_t)d[8] << 32 | (uint64_t)d[6] << 24 |
				       (uint64_t)d[11] << 16 | (uint64_t)d[9] << 8 | d[7];
			res->out.device = d[12];
			res->status = d[13];
			return;
		}
		pos += dlen;
	}
}

/*
 * Fixed format: SAT puts the registers in the INFORMATION (bytes 3-6) and
 * COMMAND-SPECIFIC INFORMATION (bytes 8-11) fields.  Older Linux kernels
 * (Debian 12's 6.1 among them) wrote them five bytes late instead, from
 * byte 8 on, without the VALID bit: that layout is recognised too.
 */
static void decode_fixed_sense(const uint8_t *s, unsigned int len, struct ata_result *res)
{
	bool pass_through_info = res->asc == 0x00 && res->ascq == 0x1d;
	bool late_layout = !(s[0] & 0x80) && len >= 12 && !s[3] && !s[4] && !s[5] && !s[6] && s[9] &&
			   !(s[9] & 0x80);

	if (late_layout) {
		res->have_regs = true;
		res->error = s[8];
		res->status = s[9];
		res->out.device = s[10];
		res->out.count = s[11];
		res->out.lba = (len > 17 ? s[17] : 0) | (uint64_t)(len > 18 ? s[18] : 0) << 8 |
			       (uint64_t)(len > 19 ? s[19] : 0) << 16;
		res->lba_incomplete = len < 20;
	} else if (len >= 12 && ((s[0] & 0x80) || pass_through_info || s[4])) {
		res->have_regs = true;
		res->error = s[3];
		res->status = s[4];
		res->out.device = s[5];
		res->out.count = s[6];
		res->out.lba48 = s[8] & 0x80;
		res->lba_incomplete = s[8] & 0x20;
		res->out.lba = (uint64_t)s[11] << 16 | (uint64_t)s[10] << 8 | s[9];
	}
}

void sense_decode(const uint8_t *sense, unsigned int len, struct ata_result *res)
{
	struct sense s;

	if (!sense_normalise(sense, len, &s))
		return;
	res->sense_valid = true;
	res->sense_key = s.key;
	res->asc = s.asc;
	res->ascq = s.ascq;
	if (s.descriptor)
		decode_descriptor_sense(sense, len, res);
	else
		decode_fixed_sense(sense, len, res);
}

/* Name the ATA error register bits that are set. */
static void describe_ata_error(uint8_t error, char *buf, size_t size)
{
	static const char *const bits[8] = { "AMNF", "TK0NF", "ABRT", "MCR", "IDNF", "MC", "UNC", "ICRC" };
	size_t n = 0;

	buf[0] = '\0';
	for (int b = 7; b >= 0; b--)
		if (error & (1u << b))
			n += (size_t)snprintf(buf + n, n < size ? size - n : 0, "%s%s", n ? " " : "", bits[b]);
}

/* Fill res->cause; returns the errno the failure maps to (0: none). */
static int judge(struct ata_result *res, const struct sg_reply *r, bool data_in, size_t len)
{
	char regs[80] = "";
	int n;

	if (res->have_regs) {
		char errbits[48];

		describe_ata_error(res->error, errbits, sizeof(errbits));
		snprintf(regs, sizeof(regs), " (ATA status 0x%02x, error 0x%02x%s%s)", res->status, res->error,
			 errbits[0] ? ": " : "", errbits);
	}
	switch (r->cat) {
	case SG_CAT_IOCTL:
		snprintf(res->cause, sizeof(res->cause), "%s", strerror(r->err));
		return r->err;
	case SG_CAT_TIMEOUT:
		snprintf(res->cause, sizeof(res->cause), "command timed out");
		return ETIMEDOUT;
	case SG_CAT_HOST_ERROR:
		snprintf(res->cause, sizeof(res->cause), "host error 0x%02x", r->host_status);
		return EIO;
	case SG_CAT_SENSE: {
		bool recovered = res->sense_key == SENSE_RECOVERED_ERROR || res->sense_key == 0;

		if (r->sense_len == 0) {
			snprintf(res->cause, sizeof(res->cause), "bad/missing sense data");
			return EIO;
		}
		if (!res->sense_valid) {
			snprintf(res->cause, sizeof(res->cause), "unreadable sense data (%u bytes)", r->sense_len);
			return EIO;
		}
		if (recovered && !(res->have_regs && (res->status & (ATA_STATUS_ERR | ATA_STATUS_DF))))
			return 0;
		sense_describe(&(struct sense){ .valid = true, .key = res->sense_key, .asc = res->asc, .ascq = res->ascq },
			       res->cause, sizeof(res->cause));
		n = (int)strlen(res->cause);
		snprintf(res->cause + n, sizeof(res->cause) - (size_t)n, "%s", regs);
		return EIO;
	}
	case SG_CAT_STATUS:
		snprintf(res->cause, sizeof(res->cause), "SCSI status 0x%02x", r->status);
		return EIO;
	case SG_CAT_GOOD:
		break;
	}
	/* An ATA command moves whole 512-byte blocks: less than asked is a failure, not a short answer. */
	if (data_in && r->got < len) {
		snprintf(res->cause, sizeof(res->cause), "short transfer: %zu of %zu bytes", r->got, len);
		return EIO;
	}
	return 0;
}

static int sg_exec(struct device *dev, const struct ata_cmd *cmd, bool twelve, struct ata_result *res)
{
	uint8_t cdb[16];
	unsigned int cdb_len = sat_build_cdb(cmd, twelve, cdb);
	struct sg_reply r;

	memset(res, 0, sizeof(*res));
	sg_send(dev, cdb, cdb_len, transfer_direction(cmd), cmd->data, cmd->len,
		cmd->timeout_s ? cmd->timeout_s : ATA_DEFAULT_TIMEOUT_S, &r);
	if (r.cat != SG_CAT_IOCTL) {
		res->sense_len = r.sense_len;
		memcpy(res->sense, r.sense, r.sense_len);
		sense_decode(res->sense, res->sense_len, res);
	}
	return judge(res, &r, cmd->len && !cmd->data_out, cmd->len);
}

/*
 * HDIO_DRIVE_CMD carries command, count, feature and a data length in
 * sectors: enough for non-data commands and PIO reads without an LBA.
 */
static int hdio_exec(struct device *dev, const struct ata_cmd *cmd, struct ata_result *res)
{
	uint8_t buf[4 + 512];
	size_t sectors = cmd->len / 512;

	memset(res, 0, sizeof(*res));
	if (cmd->tf.lba || cmd->tf.lba48 || sectors > 1 || cmd->data_out || cmd->protocol == ATA_PROTO_DMA) {
		snprintf(res->cause, sizeof(res->cause), "%s", strerror(ENOTTY));
		return ENOTTY;
	}
	memset(buf, 0, sizeof(buf));
	buf[0] = cmd->tf.command;
	buf[1] = (uint8_t)cmd->tf.count;
	buf[2] = (uint8_t)cmd->tf.feature;
	buf[3] = (uint8_t)sectors;
	if (ioctl(dev->fd, HDIO_DRIVE_CMD, buf) == -1) {
		int err = errno;

		snprintf(res->cause, sizeof(res->cause), "%s", strerror(err));
		return err;
	}
	res->have_regs = true;
	res->status = buf[0];
	res->error = buf[1];
	res->out.count = buf[2];
	if (sectors)
		memcpy(cmd->data, buf + 4, 512);
	return 0;
}

/* The transport refused the CDB itself, not the drive the command. */
static bool cdb_refused(int err, const struct ata_result *res)
{
	if (err == EINVAL || err == ENOTTY || err == EOPNOTSUPP)
		return true;
	return err == EIO && !res->have_regs && res->sense_key == SENSE_ILLEGAL_REQUEST &&
	       res->asc == 0x20;
}

int ata_exec(struct device *dev, const struct ata_cmd *cmd, struct ata_result *res)
{
	bool fits12 = !cmd->tf.lba48;
	int err;

	if (dev->run.prefer_ata12 && fits12) {
		err = sg_exec(dev, cmd, true, res);
		if (!cdb_refused(err, res))
			return err;
	}
	err = sg_exec(dev, cmd, false, res);
	if (cdb_refused(err, res) && fits12 && !dev->run.prefer_ata12) {
		int err12 = sg_exec(dev, cmd, true, res);

		if (!cdb_refused(err12, res))
			return err12;
	}
	if (err == ENOTTY || err == EINVAL || err == EOPNOTSUPP) {
		struct ata_result legacy;
		int err2 = hdio_exec(dev, cmd, &legacy);

		if (err2 != ENOTTY && err2 != EINVAL) {
			*res = legacy;
			return err2;
		}
	}
	return err;
}

static void page_to_host(uint16_t *w, const uint8_t *raw)
{
	for (int i = 0; i < IDENTIFY_WORDS; i++)
		w[i] = (uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8);
}

const uint16_t *ata_identify(struct device *dev, int *err, struct ata_result *res)
{
	static const uint8_t ops[2] = { ATA_OP_IDENTIFY, ATA_OP_IDENTIFY_PACKET };
	uint8_t raw[512];

	*err = 0;
	if (dev->id_valid)
		return dev->id;
	if (dev->id_failed) {
		*err = dev->id_error;
		memset(res, 0, sizeof(*res));
		snprintf(res->cause, sizeof(res->cause), "%s", dev->id_cause);
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
		if (!*err) {
			page_to_host(dev->id, raw);
			dev->id_valid = true;
			dev->identify_op = ops[i];
			return dev->id;
		}
		/* Only an ATAPI device (which aborts IDENTIFY DEVICE) gets the second try. */
		if (*err != EIO)
			break;
	}
	dev->id_failed = true;
	dev->id_error = *err;
	snprintf(dev->id_cause, sizeof(dev->id_cause), "%s", res->cause);
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

int ata_read_log_page(struct device *dev, uint8_t log, uint8_t page, uint8_t buf[512])
{
	int err;

	if (!dev->id_valid || dev->id[ATA_ID_COMMAND_SET_EXT] == 0)
		return ENOENT;
	if (!dev->log_dir_valid) {
		uint8_t raw[512];

		if (dev->log_dir_failed)
			return ENOENT;
		err = read_log(dev, 0, 0, raw);
		if (err) {
			dev->log_dir_failed = true;
			complain("READ_LOG_EXT(0,0) failed: %s\n", strerror(err));
			return ENOENT;
		}
		page_to_host(dev->log_dir, raw);
		dev->log_dir_valid = true;
	}
	if (dev->log_dir[log] <= page)
		return ENOENT;
	err = read_log(dev, log, page, buf);
	if (err) {
		complain("READ_LOG_EXT(0x%02x, %u) failed: %s\n", log, page, strerror(err));
		return ENOENT;
	}
	return 0;
}

bool ata_pass_through_refused(struct device *dev)
{
	uint8_t raw[512] = { 0 };
	struct ata_result res;
	struct ata_cmd cmd = {
		.tf = { .command = ATA_OP_IDENTIFY, .count = 1 },
		.protocol = ATA_PROTO_PIO_IN,
		.data = raw,
		.len = sizeof(raw),
	};
	bool verbose = dev->run.verbose;
	int err;

	/* A probe: its sense data is no news, even with --verbose. */
	dev->run.verbose = false;
	err = ata_exec(dev, &cmd, &res);
	dev->run.verbose = verbose;
	if (!err) {
		page_to_host(dev->id, raw);
		dev->id_valid = true;
		dev->identify_op = ATA_OP_IDENTIFY;
		return false;
	}
	if (err != EIO || res.have_regs || !res.sense_valid || res.sense_key != SENSE_ILLEGAL_REQUEST ||
	    (res.asc != ASC_INVALID_OPCODE && res.asc != ASC_INVALID_FIELD_IN_CDB))
		return false;
	/* No IDENTIFY is sent again: what asks for the page gets this answer. */
	dev->id_failed = true;
	dev->id_error = EOPNOTSUPP;
	snprintf(dev->id_cause, sizeof(dev->id_cause), "a SCSI disk without ATA pass-through has no IDENTIFY page");
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

int ata_sector_io(struct device *dev, uint64_t lba, bool lba48, bool write, void *buf, size_t len,
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
		.tf = { .command = dev->identify_op },
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
