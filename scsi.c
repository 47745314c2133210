/*
 * SCSI commands through SG_IO.  Each command builds its CDB from the
 * named opcodes and fields of scsi.h, and each answer is decoded by a
 * function of its bytes alone.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include <scsi/sg.h>

#include "report.h"
#include "scsi.h"

#define SCSI_STATUS_CHECK_CONDITION 0x02
#define SG_DID_TIME_OUT 0x03
#define SG_DRIVER_TIMEOUT 0x06
#define SG_DRIVER_SENSE 0x08

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t be64(const uint8_t *p)
{
	return (uint64_t)be32(p) << 32 | be32(p + 4);
}

int scsi_exec(struct device *dev, const uint8_t *cdb, unsigned int cdb_len, enum scsi_dir dir, void *buf,
	      size_t len, unsigned int timeout_s, struct scsi_result *res)
{
	static const int directions[] = {
		[SCSI_NO_DATA] = SG_DXFER_NONE, [SCSI_DATA_IN] = SG_DXFER_FROM_DEV, [SCSI_DATA_OUT] = SG_DXFER_TO_DEV,
	};
	uint8_t sense[32] = { 0 };
	struct sg_io_hdr io;

	memset(res, 0, sizeof(*res));
	memset(&io, 0, sizeof(io));
	io.interface_id = 'S';
	io.cmd_len = (unsigned char)cdb_len;
	io.cmdp = (unsigned char *)cdb;
	io.mx_sb_len = sizeof(sense);
	io.sbp = sense;
	io.dxfer_direction = len ? directions[dir] : SG_DXFER_NONE;
	io.dxferp = buf;
	io.dxfer_len = (unsigned int)len;
	io.timeout = (timeout_s ? timeout_s : 30) * 1000u;
	if (ioctl(dev->fd, SG_IO, &io) == -1) {
		int err = errno;

		snprintf(res->cause, sizeof(res->cause), "%s", strerror(err));
		return err;
	}
	res->status = io.status;
	if (dir == SCSI_DATA_IN && io.resid >= 0 && (size_t)io.resid <= len)
		res->got = len - (size_t)io.resid;
	if (dev->run.verbose && io.sb_len_wr) {
		complain("SG_IO: sense data:");
		for (unsigned int i = 0; i < io.sb_len_wr; i++)
			complain(" %02x", sense[i]);
		complain("%c", '\n');
	}
	if (io.host_status == SG_DID_TIME_OUT || (io.driver_status & 0x0f) == SG_DRIVER_TIMEOUT) {
		snprintf(res->cause, sizeof(res->cause), "command timed out");
		return ETIMEDOUT;
	}
	if (io.host_status) {
		snprintf(res->cause, sizeof(res->cause), "host error 0x%02x", io.host_status);
		return EIO;
	}
	if (io.status == SCSI_STATUS_CHECK_CONDITION || (io.driver_status & SG_DRIVER_SENSE)) {
		if (!sense_normalise(sense, io.sb_len_wr, &res->sense)) {
			snprintf(res->cause, sizeof(res->cause), "bad/missing sense data");
			return EIO;
		}
		if (res->sense.key == SENSE_RECOVERED_ERROR || res->sense.key == SENSE_NO_SENSE)
			return 0;
		sense_describe(&res->sense, res->cause, sizeof(res->cause));
		return EIO;
	}
	if (io.status) {
		snprintf(res->cause, sizeof(res->cause), "SCSI status 0x%02x", io.status);
		return EIO;
	}
	return 0;
}

bool scsi_refused(int err, const struct scsi_result *res)
{
	return err == EIO && res->sense.valid && res->sense.key == SENSE_ILLEGAL_REQUEST &&
	       (res->sense.asc == ASC_INVALID_OPCODE || res->sense.asc == ASC_INVALID_FIELD_IN_CDB);
}

/* A fixed-width INQUIRY string: printable ASCII, trailing blanks removed. */
static void inquiry_string(const uint8_t *p, size_t width, char *dst)
{
	size_t n = 0;

	for (size_t i = 0; i < width; i++)
		dst[n++] = (char)((p[i] >= 0x20 && p[i] < 0x7f) ? p[i] : ' ');
	while (n > 0 && dst[n - 1] == ' ')
		n--;
	dst[n] = '\0';
}

void scsi_decode_inquiry(const uint8_t *buf, size_t len, struct scsi_inquiry *inq)
{
	uint8_t padded[36] = { 0 };

	memcpy(padded, buf, len < sizeof(padded) ? len : sizeof(padded));
	inq->peripheral_type = padded[0] & 0x1f;
	inq->removable = padded[1] & 0x80;
	inq->version = padded[2];
	inquiry_string(padded + 8, 8, inq->vendor);
	inquiry_string(padded + 16, 16, inq->product);
	inquiry_string(padded + 32, 4, inq->revision);
}

static int inquiry(struct device *dev, bool evpd, uint8_t page, uint8_t *buf, size_t len, struct scsi_result *res)
{
	uint8_t cdb[6] = { SCSI_INQUIRY, evpd ? 1 : 0, evpd ? page : 0, (uint8_t)(len >> 8), (uint8_t)len, 0 };

	memset(buf, 0, len);
	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_IN, buf, len, 0, res);
}

int scsi_inquiry(struct device *dev, struct scsi_inquiry *inq, struct scsi_result *res)
{
	uint8_t buf[96];
	int err = inquiry(dev, false, 0, buf, sizeof(buf), res);

	if (!err)
		scsi_decode_inquiry(buf, res->got ? res->got : sizeof(buf), inq);
	return err;
}

int scsi_vpd(struct device *dev, uint8_t page, uint8_t *buf, size_t len, struct scsi_result *res)
{
	int err = inquiry(dev, true, page, buf, len, res);

	if (!err && buf[1] != page) {
		snprintf(res->cause, sizeof(res->cause), "VPD page 0x%02x came back as page 0x%02x", page, buf[1]);
		return EIO;
	}
	return err;
}

void scsi_decode_capacity16(const uint8_t buf[32], struct scsi_capacity *cap)
{
	cap->blocks = be64(buf) + 1;
	cap->block_bytes = be32(buf + 8);
	cap->physical_exponent = buf[13] & 0x0f;
	cap->lbpme = buf[14] & 0x80;
	cap->lbprz = buf[14] & 0x40;
}

int scsi_read_capacity(struct device *dev, struct scsi_capacity *cap, struct scsi_result *res)
{
	uint8_t buf[32] = { 0 };
	uint8_t cdb16[16] = { SCSI_SERVICE_ACTION_IN_16, SAI_READ_CAPACITY_16 };
	uint8_t cdb10[10] = { SCSI_READ_CAPACITY_10 };
	int err;

	put_be32(cdb16 + 10, sizeof(buf));
	err = scsi_exec(dev, cdb16, sizeof(cdb16), SCSI_DATA_IN, buf, sizeof(buf), 0, res);
	if (!err) {
		scsi_decode_capacity16(buf, cap);
		return 0;
	}
	if (!scsi_refused(err, res))
		return err;
	/* An old disk: READ CAPACITY (10), which knows neither physical blocks nor provisioning. */
	memset(buf, 0, sizeof(buf));
	err = scsi_exec(dev, cdb10, sizeof(cdb10), SCSI_DATA_IN, buf, 8, 0, res);
	if (!err)
		*cap = (struct scsi_capacity){ .blocks = (uint64_t)be32(buf) + 1, .block_bytes = be32(buf + 4) };
	return err;
}

int scsi_mode_sense(struct device *dev, uint8_t page_code, enum scsi_page_control pc, uint8_t *buf, size_t len,
		    uint8_t **page, size_t *page_len, struct scsi_result *res)
{
	/* DBD: no block descriptors. */
	uint8_t cdb[10] = { SCSI_MODE_SENSE_10, 0x08, (uint8_t)(pc | (page_code & 0x3f)), 0, 0, 0, 0, (uint8_t)(len >> 8),
			    (uint8_t)len, 0 };
	size_t total, offset;
	int err;

	memset(buf, 0, len);
	err = scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_IN, buf, len, 0, res);
	if (err)
		return err;
	total = 2u + (size_t)(buf[0] << 8 | buf[1]);
	offset = 8u + (size_t)(buf[6] << 8 | buf[7]);
	if (total > len)
		total = len;
	if (offset + 2 > total || (buf[offset] & 0x3f) != page_code || offset + 2u + buf[offset + 1] > total) {
		snprintf(res->cause, sizeof(res->cause), "mode page 0x%02x not returned", page_code);
		return EOPNOTSUPP;
	}
	*page = buf + offset;
	*page_len = 2u + buf[offset + 1];
	return 0;
}

int scsi_mode_select(struct device *dev, uint8_t *buf, size_t len, uint8_t *page, size_t page_len,
		     struct scsi_result *res)
{
	size_t total = (size_t)(page - buf) + page_len;
	uint8_t cdb[10] = { SCSI_MODE_SELECT_10, 0x10, 0, 0, 0, 0, 0, (uint8_t)(total >> 8), (uint8_t)total, 0 };

	if (total > len)
		return EINVAL;
	/* MODE DATA LENGTH is reserved in MODE SELECT, and so is the page's PS bit. */
	buf[0] = buf[1] = 0;
	page[0] &= 0x7f;
	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_OUT, buf, total, 0, res);
}

int scsi_synchronize_cache(struct device *dev, struct scsi_result *res)
{
	uint8_t cdb[10] = { SCSI_SYNCHRONIZE_CACHE_10 };

	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_NO_DATA, NULL, 0, 60, res);
}

int scsi_start_stop(struct device *dev, enum scsi_power_condition condition, bool start, struct scsi_result *res)
{
	uint8_t cdb[6] = { SCSI_START_STOP_UNIT, 0, 0, 0, (uint8_t)(condition << 4 | (start ? 1 : 0)), 0 };

	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_NO_DATA, NULL, 0, 60, res);
}

int scsi_request_sense(struct device *dev, struct sense *now, struct scsi_result *res)
{
	uint8_t buf[32];
	uint8_t cdb[6] = { SCSI_REQUEST_SENSE, 0, 0, 0, sizeof(buf), 0 };
	int err;

	memset(buf, 0, sizeof(buf));
	err = scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_IN, buf, sizeof(buf), 0, res);
	if (err)
		return err;
	if (!sense_normalise(buf, (unsigned int)(res->got ? res->got : sizeof(buf)), now)) {
		snprintf(res->cause, sizeof(res->cause), "REQUEST SENSE returned no sense data");
		return EIO;
	}
	return 0;
}

int scsi_read16(struct device *dev, uint64_t lba, uint32_t blocks, void *buf, size_t len, struct scsi_result *res)
{
	uint8_t cdb[16] = { SCSI_READ_16 };

	put_be64(cdb + 2, lba);
	put_be32(cdb + 10, blocks);
	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_IN, buf, len, 60, res);
}

int scsi_unmap(struct device *dev, const uint8_t *param, size_t len, struct scsi_result *res)
{
	uint8_t cdb[10] = { SCSI_UNMAP, 0, 0, 0, 0, 0, 0, (uint8_t)(len >> 8), (uint8_t)len, 0 };

	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_OUT, (void *)param, len, 300, res);
}
