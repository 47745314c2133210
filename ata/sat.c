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

#include <string.h>
#include <sys/ioctl.h>

#include <linux/hdreg.h>

#include "sense.h"
#include "sg.h"
#include "ata_commands.h"

#define SAT_ATA_16 0x85
#define SAT_ATA_12 0xa1

#define ATA_STATUS_ERR 0x01
#define ATA_ERROR_UNC 0x40
#define ATA_ERROR_IDNF 0x10
#define ATA_ERROR_ABRT 0x04
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

int ata_verify_outcome(const struct ata_result *res, bool *by_bridge)
{
	bool failed = res->have_regs && (res->status & ATA_STATUS_ERR);

	*by_bridge = false;
	if (res->sense_key == SENSE_MEDIUM_ERROR || (failed && (res->error & (ATA_ERROR_UNC | ATA_ERROR_IDNF))))
		return ENODATA;
	if (failed && (res->error & ATA_ERROR_ABRT))
		return EOPNOTSUPP;
	/* No registers, and the SCSI layer in front refused the ATA PASS-THROUGH itself. */
	if (!res->have_regs && res->sense_key == SENSE_ILLEGAL_REQUEST) {
		*by_bridge = true;
		return EOPNOTSUPP;
	}
	return EREMOTEIO;
}

void sat_result_from_sense(const uint8_t *sense, unsigned int len, struct ata_result *res)
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
	res->check_condition = r.cat == SG_CAT_SENSE;
	if (r.cat != SG_CAT_IOCTL) {
		res->sense_len = r.sense_len;
		memcpy(res->sense, r.sense, r.sense_len);
		sat_result_from_sense(res->sense, res->sense_len, res);
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

	/* A bridge that passes only ATA_12 (the bridge table's): a 48-bit command is not sent at all. */
	if (dev->ata12_only) {
		if (fits12)
			return sg_exec(dev, cmd, true, res);
		memset(res, 0, sizeof(*res));
		snprintf(res->cause, sizeof(res->cause),
			 "the USB bridge passes only the 12-byte ATA PASS-THROUGH, which cannot carry a 48-bit command");
		return EOPNOTSUPP;
	}
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

const char *sat_low_power_state(struct device *dev)
{
	struct sg_reply r;
	struct sense now;

	if (!dev->usb_driver)
		return NULL;
	if (!sg_request_sense(dev, ATA_DEFAULT_TIMEOUT_S, &now, &r) || r.cat != SG_CAT_GOOD)
		return NULL;
	/* "Low power condition on" alone does not say which: CHECK POWER MODE may. */
	switch (sense_power_condition(&now)) {
	case SENSE_POWER_STANDBY:
		return "standby";
	case SENSE_POWER_IDLE:
		return "idle";
	default:
		return NULL;
	}
}
