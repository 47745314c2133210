/*
 * SCSI commands through SG_IO.  Each command builds its CDB from the
 * named opcodes and fields of scsi.h, and each answer is decoded by a
 * function of its bytes alone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "scsi.h"
#include "sg.h"
#include "unaligned.h"

/* How a command ended, as the SCSI kind's callers read it: 0, or an errno with res->cause. */
static int result_of_reply(const struct sg_reply *r, struct scsi_result *res)
{
	memset(res, 0, sizeof(*res));
	res->status = r->status;
	res->got = r->got;
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
	case SG_CAT_SENSE:
		if (!sense_normalise(r->sense, r->sense_len, &res->sense)) {
			snprintf(res->cause, sizeof(res->cause), "bad/missing sense data");
			return EIO;
		}
		if (res->sense.key == SENSE_RECOVERED_ERROR || res->sense.key == SENSE_NO_SENSE)
			return 0;
		sense_describe(&res->sense, res->cause, sizeof(res->cause));
		return EIO;
	case SG_CAT_STATUS:
		snprintf(res->cause, sizeof(res->cause), "SCSI status 0x%02x", r->status);
		return EIO;
	case SG_CAT_GOOD:
		break;
	}
	return 0;
}

int scsi_exec(struct device *dev, const uint8_t *cdb, unsigned int cdb_len, enum scsi_dir dir, void *buf,
	      size_t len, unsigned int timeout_s, struct scsi_result *res)
{
	static const enum sg_dir directions[] = {
		[SCSI_NO_DATA] = SG_NO_DATA, [SCSI_DATA_IN] = SG_DATA_IN, [SCSI_DATA_OUT] = SG_DATA_OUT,
	};
	struct sg_reply r;

	sg_send(dev, cdb, cdb_len, directions[dir], buf, len, timeout_s, &r);
	return result_of_reply(&r, res);
}

int scsi_request_sense(struct device *dev, struct sense *now, struct scsi_result *res)
{
	struct sg_reply r;
	bool got = sg_request_sense(dev, 0, now, &r);
	int err = result_of_reply(&r, res);

	if (err)
		return err;
	if (!got) {
		snprintf(res->cause, sizeof(res->cause), "REQUEST SENSE returned no sense data");
		return EIO;
	}
	return 0;
}

int scsi_cause(struct disk_cause *c, const char *what, const struct scsi_result *res, int err)
{
	if (err) {
		c->what = what;
		snprintf(c->why, sizeof(c->why), "%s", res->cause);
	}
	return err;
}

bool scsi_refused(int err, const struct scsi_result *res)
{
	return err == EIO && res->sense.valid && res->sense.key == SENSE_ILLEGAL_REQUEST &&
	       (res->sense.asc == ASC_INVALID_OPCODE || res->sense.asc == ASC_INVALID_FIELD_IN_CDB);
}

static int inquiry(struct device *dev, bool evpd, uint8_t page, uint8_t *buf, size_t len, struct scsi_result *res)
{
	uint8_t cdb[6] = { SCSI_INQUIRY, evpd ? 1 : 0, evpd ? page : 0, (uint8_t)(len >> 8), (uint8_t)len, 0 };

	memset(buf, 0, len);
	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_IN, buf, len, 0, res);
}

int scsi_security_protocol_out(struct device *dev, uint8_t protocol, uint16_t sp_specific, const uint8_t *buf, size_t len,
			       struct scsi_result *res)
{
	/* INC_512 clear: the transfer length counts bytes. */
	uint8_t cdb[12] = { SCSI_SECURITY_PROTOCOL_OUT, protocol, (uint8_t)(sp_specific >> 8), (uint8_t)sp_specific };

	put_be32(cdb + 6, (uint32_t)len);
	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_OUT, (void *)(uintptr_t)buf, len, 0, res);
}

int scsi_inquiry(struct device *dev, struct scsi_inquiry *inq, struct scsi_result *res)
{
	uint8_t buf[96];
	int err = inquiry(dev, false, 0, buf, sizeof(buf), res);

	if (!err)
		scsi_decode_inquiry(buf, res->got, inq);
	return err;
}

int scsi_write_buffer(struct device *dev, uint8_t mode, uint32_t offset, const void *buf, uint32_t len,
		      struct scsi_result *res)
{
	/* Bytes 3-5: the buffer offset; 6-8: the parameter list length.  A drive may take minutes to save. */
	uint8_t cdb[10] = { SCSI_WRITE_BUFFER, mode, 0 };

	put_be24(cdb + 3, offset);
	put_be24(cdb + 6, len);
	return scsi_exec(dev, cdb, sizeof(cdb), len ? SCSI_DATA_OUT : SCSI_NO_DATA, (void *)(uintptr_t)buf, len, 600,
			 res);
}

int scsi_read_buffer_descriptor(struct device *dev, uint8_t *boundary, uint32_t *capacity, struct scsi_result *res)
{
	uint8_t cdb[10] = { SCSI_READ_BUFFER, RB_MODE_DESCRIPTOR, 0, 0, 0, 0, 0, 0, 4, 0 };
	uint8_t desc[4] = { 0 };
	int err = scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_IN, desc, sizeof(desc), 0, res);

	if (!err && res->got < sizeof(desc)) {
		snprintf(res->cause, sizeof(res->cause), "READ BUFFER's descriptor came back as %zu bytes", res->got);
		err = EIO;
	}
	*boundary = desc[0];
	*capacity = get_be24(desc + 1);
	return err;
}

int scsi_vpd(struct device *dev, uint8_t page, uint8_t *buf, size_t len, size_t *page_len, struct scsi_result *res)
{
	int err = inquiry(dev, true, page, buf, len, res);

	*page_len = err ? 0 : scsi_vpd_length(buf, res->got);
	if (!err && (*page_len < 4 || buf[1] != page)) {
		snprintf(res->cause, sizeof(res->cause), "VPD page 0x%02x came back as %zu bytes of page 0x%02x", page,
			 res->got, res->got > 1 ? buf[1] : 0);
		*page_len = 0;
		return EIO;
	}
	return err;
}

static int read_capacity16(struct device *dev, struct scsi_capacity *cap, struct scsi_result *res)
{
	uint8_t buf[32] = { 0 };
	uint8_t cdb[16] = { SCSI_SERVICE_ACTION_IN_16, SAI_READ_CAPACITY_16 };
	int err;

	put_be32(cdb + 10, sizeof(buf));
	err = scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_IN, buf, sizeof(buf), 0, res);
	if (!err && !scsi_decode_capacity16(buf, res->got, cap)) {
		snprintf(res->cause, sizeof(res->cause), "READ CAPACITY (16) returned %zu bytes", res->got);
		return EIO;
	}
	return err;
}

int scsi_read_capacity16(struct device *dev, struct scsi_capacity *cap, struct scsi_result *res)
{
	return read_capacity16(dev, cap, res);
}

static int read_capacity10(struct device *dev, struct scsi_capacity *cap, struct scsi_result *res)
{
	uint8_t buf[8] = { 0 };
	uint8_t cdb[10] = { SCSI_READ_CAPACITY_10 };
	int err = scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_IN, buf, sizeof(buf), 0, res);

	if (!err && !scsi_decode_capacity10(buf, res->got, cap)) {
		snprintf(res->cause, sizeof(res->cause), "READ CAPACITY (10) returned %zu bytes", res->got);
		return EIO;
	}
	return err;
}

/* The supported VPD pages (page 00h) into list; its readable length, 0 when the disk has none. */
size_t scsi_vpd_list(struct device *dev, uint8_t list[256])
{
	struct scsi_result res;
	size_t len;

	return scsi_vpd(dev, VPD_SUPPORTED_PAGES, list, 256, &len, &res) ? 0 : len;
}

/* One VPD page the disk lists in page 00h (list, list_len bytes of it); its readable length, 0 when none. */
size_t scsi_listed_vpd(struct device *dev, const uint8_t *list, size_t list_len, uint8_t code, uint8_t *page,
		       size_t size)
{
	struct scsi_result res;
	size_t len;

	if (!scsi_vpd_listed(list, list_len, code) || scsi_vpd(dev, code, page, size, &len, &res))
		return 0;
	return len;
}

int scsi_read_capacity(struct device *dev, struct scsi_capacity *cap, struct scsi_result *res)
{
	int err;

	/*
	 * Behind a USB bridge, as the sd driver does there: (10) first, and
	 * (16) only for a disk too large for (10) to say.  Elsewhere (16),
	 * and (10) for an old disk that refuses it.
	 */
	if (scsi_cautious(dev)) {
		err = read_capacity10(dev, cap, res);
		if (err || cap->blocks != (uint64_t)READ_CAPACITY_10_TOO_LARGE + 1)
			return err;
		return read_capacity16(dev, cap, res);
	}
	err = read_capacity16(dev, cap, res);
	if (err && scsi_refused(err, res))
		err = read_capacity10(dev, cap, res);
	return err;
}

int scsi_mode_sense(struct device *dev, uint8_t page_code, uint8_t sub, enum scsi_page_control pc, uint8_t *buf,
		    size_t len, uint8_t **page, size_t *page_len, struct scsi_result *res)
{
	/*
	 * DBD: no block descriptors.  Behind a USB bridge, what the sd
	 * driver asks there at every probe: all pages, 192 bytes at most.
	 */
	bool all = scsi_cautious(dev) && !sub;
	uint8_t ask = all ? MODE_PAGE_ALL : page_code & 0x3f;
	size_t alloc = all ? 192 : 128;
	uint8_t cdb[10] = { SCSI_MODE_SENSE_10, 0x08, (uint8_t)(pc | ask), sub };
	size_t offset;
	int err;

	if (len < alloc)
		return EINVAL;
	put_be16(cdb + 7, (uint16_t)alloc);
	memset(buf, 0, len);
	err = scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_IN, buf, alloc, 0, res);
	if (err)
		return err;
	err = scsi_find_mode_page(buf, res->got, page_code, sub, &offset, page_len, res->cause, sizeof(res->cause));
	if (!err)
		*page = buf + offset;
	return err;
}

int scsi_mode_select(struct device *dev, const uint8_t *header, const uint8_t *page, size_t page_len, bool save,
		     struct scsi_result *res)
{
	uint8_t param[MODE_HEADER_10_LEN + 2 + 255] = { 0 };
	size_t total = MODE_HEADER_10_LEN + page_len;
	/* PF: the pages are SPC's; SP: saved as well. */
	uint8_t cdb[10] = { SCSI_MODE_SELECT_10, (uint8_t)(0x10 | (save ? 0x01 : 0)) };

	if (page_len < 2 || total > sizeof(param))
		return EINVAL;
	/*
	 * A fresh header, as the sd driver builds one: MODE DATA LENGTH
	 * reserved, the medium type kept, the device-specific byte (WP,
	 * DPOFUA) and LONGLBA cleared, no block descriptors.  Then the page
	 * with its PS bit cleared, exactly as many bytes as the disk gave.
	 */
	param[2] = header[2];
	memcpy(param + MODE_HEADER_10_LEN, page, page_len);
	param[MODE_HEADER_10_LEN] &= 0x7f;
	put_be16(cdb + 7, (uint16_t)total);
	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_OUT, param, total, 0, res);
}

/* The block descriptor that came with a MODE SENSE (10): its bytes within got, and whether it is long. */
static void block_descriptor(uint8_t *buf, size_t got, uint8_t **bd, size_t *bd_len)
{
	size_t n = got >= MODE_HEADER_10_LEN ? get_be16(buf + 6) : 0;

	*bd = buf + MODE_HEADER_10_LEN;
	*bd_len = n >= MODE_BLOCK_DESCRIPTOR_LEN && MODE_HEADER_10_LEN + n <= got ? n : 0;
}

static int mode_sense_blocks(struct device *dev, uint8_t page_code, bool llbaa, uint8_t *buf, size_t len,
			     struct scsi_result *res)
{
	uint8_t cdb[10] = { SCSI_MODE_SENSE_10, llbaa ? MODE_SENSE_LLBAA : 0, (uint8_t)(page_code & 0x3f) };

	put_be16(cdb + 7, (uint16_t)len);
	memset(buf, 0, len);
	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_IN, buf, len, 0, res);
}

int scsi_mode_sense_blocks(struct device *dev, uint8_t page_code, uint8_t *buf, size_t len, uint8_t **bd,
			   size_t *bd_len, uint8_t **page, size_t *page_len, struct scsi_result *res)
{
	size_t offset;
	int err = mode_sense_blocks(dev, page_code, false, buf, len, res);

	if (err)
		return err;
	block_descriptor(buf, res->got, bd, bd_len);
	/* A short descriptor's count of all ones: too many blocks for it, as sg_format asks again. */
	if (*bd_len == MODE_BLOCK_DESCRIPTOR_LEN && get_be32(*bd) == 0xffffffffu) {
		if ((err = mode_sense_blocks(dev, page_code, true, buf, len, res)))
			return err;
		block_descriptor(buf, res->got, bd, bd_len);
	}
	*page = NULL;
	*page_len = 0;
	if (!scsi_find_mode_page(buf, res->got, page_code, 0, &offset, page_len, res->cause, sizeof(res->cause)))
		*page = buf + offset;
	res->cause[0] = '\0';
	return 0;
}

int scsi_mode_select_block_length(struct device *dev, const uint8_t *header, size_t bd_len, uint32_t bytes,
				  const uint8_t *page, size_t page_len, struct scsi_result *res)
{
	uint8_t param[MODE_HEADER_10_LEN + MODE_LONG_BLOCK_DESCRIPTOR_LEN + 2 + 255] = { 0 };
	uint8_t *bd = param + MODE_HEADER_10_LEN;
	bool longlba = bd_len == MODE_LONG_BLOCK_DESCRIPTOR_LEN;
	size_t total = MODE_HEADER_10_LEN + (longlba ? MODE_LONG_BLOCK_DESCRIPTOR_LEN : MODE_BLOCK_DESCRIPTOR_LEN) + page_len;
	uint8_t cdb[10] = { SCSI_MODE_SELECT_10, 0x11 };	/* PF, SP */

	if (total > sizeof(param) || (page_len && page_len < 2))
		return EINVAL;
	/* The header as scsi_mode_select() makes it, with LONGLBA and the descriptor's length. */
	param[2] = header[2];
	param[4] = longlba ? MODE_LONGLBA : 0;
	put_be16(param + 6, (uint16_t)(longlba ? MODE_LONG_BLOCK_DESCRIPTOR_LEN : MODE_BLOCK_DESCRIPTOR_LEN));
	/* NUMBER OF LOGICAL BLOCKS 0: all the new length holds; the length in its last bytes. */
	if (longlba)
		put_be32(bd + 12, bytes);
	else
		put_be24(bd + 5, bytes);
	if (page_len) {
		uint8_t *p = param + total - page_len;

		memcpy(p, page, page_len);
		p[0] &= 0x7f;
	}
	put_be16(cdb + 7, (uint16_t)total);
	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_OUT, param, total, 0, res);
}

int scsi_format_unit(struct device *dev, unsigned int pi_type, struct scsi_result *res)
{
	/* SBC-3 table 38: type 1 FMTPINFO 10b; types 2 and 3 11b, with PROTECTION FIELD USAGE 0 and 1. */
	static const uint8_t fmtpinfo[4] = { 0, 2, 3, 3 }, pfu[4] = { 0, 0, 0, 1 };
	uint8_t cdb[6] = { SCSI_FORMAT_UNIT, (uint8_t)(fmtpinfo[pi_type & 3] << 6 | FORMAT_FMTDATA | FORMAT_CMPLST) };
	uint8_t header[4] = { pfu[pi_type & 3], FORMAT_IMMED };

	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_OUT, header, sizeof(header), 60, res);
}

int scsi_security_protocol_in(struct device *dev, uint8_t protocol, uint16_t sp_specific, uint8_t *buf, size_t len,
			      struct scsi_result *res)
{
	/* INC_512 clear: the allocation length counts bytes. */
	uint8_t cdb[12] = { SCSI_SECURITY_PROTOCOL_IN, protocol, (uint8_t)(sp_specific >> 8), (uint8_t)sp_specific };

	put_be32(cdb + 6, (uint32_t)len);
	memset(buf, 0, len);
	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_IN, buf, len, 0, res);
}

int scsi_synchronize_cache(struct device *dev, struct scsi_result *res)
{
	uint8_t cdb[10] = { SCSI_SYNCHRONIZE_CACHE_10 };

	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_NO_DATA, NULL, 0, 60, res);
}

int scsi_start_stop(struct device *dev, enum scsi_power_condition condition, uint8_t modifier, bool start,
		    struct scsi_result *res)
{
	uint8_t cdb[6] = { SCSI_START_STOP_UNIT, 0, 0, (uint8_t)(modifier & 0x0f), (uint8_t)(condition << 4 | (start ? 1 : 0)), 0 };

	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_NO_DATA, NULL, 0, 60, res);
}

int scsi_log_sense(struct device *dev, uint8_t page, uint8_t *buf, size_t len, struct scsi_result *res)
{
	return scsi_log_sense_sub(dev, page, 0, buf, len, res);
}

int scsi_log_sense_sub(struct device *dev, uint8_t page, uint8_t sub, uint8_t *buf, size_t len, struct scsi_result *res)
{
	/* Byte 2: PC 01b (cumulative values) in bits 7:6, the page code in 5:0; byte 3 the subpage. */
	uint8_t cdb[10] = { SCSI_LOG_SENSE, 0, (uint8_t)(0x40 | (page & 0x3f)), sub };

	put_be16(cdb + 7, (uint16_t)len);
	memset(buf, 0, len);
	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_IN, buf, len, 0, res);
}

int scsi_sanitize(struct device *dev, uint8_t action, const uint8_t *param, size_t len, struct scsi_result *res)
{
	uint8_t cdb[10] = { SCSI_SANITIZE, action };

	put_be16(cdb + 7, (uint16_t)len);	/* PARAMETER LIST LENGTH */
	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_OUT, (void *)param, len, 60, res);
}

int scsi_supports(struct device *dev, uint8_t opcode, uint16_t sa, bool *supported, struct scsi_result *res)
{
	/* REPORTING OPTIONS 010b: the one command named by opcode and service action. */
	uint8_t cdb[12] = { SCSI_MAINTENANCE_IN, MI_REPORT_SUPPORTED_OPCODES, 0x02, opcode };
	uint8_t buf[64] = { 0 };
	int err;

	put_be16(cdb + 4, sa);
	put_be32(cdb + 6, sizeof(buf));
	err = scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_IN, buf, sizeof(buf), 0, res);
	if (err)
		return err;
	/* SUPPORT (byte 1 bits 2:0): 001b not supported, 011b and 101b supported, 000b no data. */
	switch (res->got >= 2 ? buf[1] & 7 : 0) {
	case 1:
		*supported = false;
		return 0;
	case 3:
	case 5:
		*supported = true;
		return 0;
	default:
		snprintf(res->cause, sizeof(res->cause), "no data about that command");
		return ENODATA;
	}
}

int scsi_read16(struct device *dev, uint64_t lba, uint32_t blocks, void *buf, size_t len, struct scsi_result *res)
{
	uint8_t cdb[16] = { SCSI_READ_16 };

	int err;

	put_be64(cdb + 2, lba);
	put_be32(cdb + 10, blocks);
	err = scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_IN, buf, len, 60, res);
	if (!err && res->got != len) {
		snprintf(res->cause, sizeof(res->cause), "short read: %zu of %zu bytes", res->got, len);
		return EIO;
	}
	return err;
}

int scsi_verify16(struct device *dev, uint64_t lba, uint32_t blocks, struct scsi_result *res)
{
	/* SBC-4 5.35: VRPROTECT 0, DPO 0, BYTCHK 0 (byte 1: the medium is checked, no data goes out), the LBA, the length. */
	uint8_t cdb[16] = { SCSI_VERIFY_16 };

	put_be64(cdb + 2, lba);
	put_be32(cdb + 10, blocks);
	return scsi_exec(dev, cdb, sizeof(cdb), SCSI_NO_DATA, NULL, 0, 60, res);
}

int scsi_unmap(struct device *dev, const struct sector_range *pieces, unsigned int n, struct scsi_result *res)
{
	size_t len = 8 + 16 * (size_t)n;
	uint8_t cdb[10] = { SCSI_UNMAP };
	uint8_t *param = calloc(1, len);
	int err;

	if (!param)
		return ENOMEM;
	/* UNMAP DATA LENGTH counts the bytes after itself; the descriptors' length after the header. */
	put_be16(param, (uint16_t)(len - 2));
	put_be16(param + 2, (uint16_t)(len - 8));
	for (unsigned int i = 0; i < n; i++) {
		put_be64(param + 8 + 16 * i, pieces[i].lba);
		put_be32(param + 8 + 16 * i + 8, (uint32_t)pieces[i].count);
	}
	put_be16(cdb + 7, (uint16_t)len);
	err = scsi_exec(dev, cdb, sizeof(cdb), SCSI_DATA_OUT, param, len, 300, res);
	free(param);
	return err;
}
