/*
 * SCSI answers decoded (SPC-4, SBC-3).  No I/O: every function reads the
 * bytes it is given and no further, whatever lengths the bytes claim.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "scsi_pages.h"
#include "unaligned.h"

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
	inq->protect = padded[5] & 0x01;
	inquiry_string(padded + 8, 8, inq->vendor);
	inquiry_string(padded + 16, 16, inq->product);
	inquiry_string(padded + 32, 4, inq->revision);
}

bool scsi_decode_capacity16(const uint8_t *buf, size_t len, struct scsi_capacity *cap)
{
	memset(cap, 0, sizeof(*cap));
	if (len < 12)
		return false;
	cap->blocks = get_be64(buf) + 1;
	cap->block_bytes = get_be32(buf + 8);
	if (len >= 14) {
		/* Byte 12: P_TYPE (3:1, the type less one) and PROT_EN (0); byte 13: P_I_EXPONENT (7:4). */
		cap->prot_known = true;
		cap->prot_type = buf[12] & 0x01 ? ((buf[12] >> 1) & 0x07) + 1u : 0;
		cap->pi_exponent = buf[13] >> 4;
	}
	if (len >= 15) {
		cap->physical_exponent = buf[13] & 0x0f;
		cap->lbpme = buf[14] & 0x80;
		cap->lbprz = buf[14] & 0x40;
	}
	return true;
}

bool scsi_decode_capacity10(const uint8_t *buf, size_t len, struct scsi_capacity *cap)
{
	memset(cap, 0, sizeof(*cap));
	if (len < 8)
		return false;
	cap->blocks = (uint64_t)get_be32(buf) + 1;
	cap->block_bytes = get_be32(buf + 4);
	return true;
}

unsigned int scsi_decode_spt_types(const uint8_t *page, size_t len)
{
	/* SPC-4 7.8.7 table 589: SPT, byte 4 bits 5:3; bit t of each entry is type t. */
	static const uint8_t types[8] = { 0x02, 0x06, 0x04, 0x0a, 0x08, 0x0c, 0x00, 0x0e };

	if (len < 5 || page[1] != VPD_EXTENDED_INQUIRY)
		return 0;
	return types[(page[4] >> 3) & 7];
}

unsigned int scsi_decode_block_lengths(const uint8_t *page, size_t len, struct scsi_block_length *out, unsigned int max)
{
	unsigned int n = 0;

	for (size_t at = 4; at + 8 <= len && n < max; at += 8) {
		out[n].bytes = get_be32(page + at);
		out[n].pi_types = page[at + 5] & 0x0f;
		n++;
	}
	return n;
}

size_t scsi_vpd_length(const uint8_t *page, size_t got)
{
	size_t claimed;

	if (got < 4)
		return 0;
	claimed = 4u + get_be16(page + 2);
	return claimed < got ? claimed : got;
}

bool scsi_vpd_listed(const uint8_t *list, size_t len, uint8_t page)
{
	for (size_t i = 4; i < len; i++)
		if (list[i] == page)
			return true;
	return false;
}

void scsi_decode_serial(const uint8_t *page, size_t len, char *dst, size_t size)
{
	size_t start = 4;

	while (start < len && page[start] == ' ')
		start++;
	device_text(page + start, start < len ? len - start : 0, dst, size);
}

static void hex_string(const uint8_t *p, size_t n, char *dst, size_t size)
{
	size_t k = 0;

	dst[0] = '\0';
	for (size_t i = 0; i < n && k + 3 <= size; i++)
		k += (size_t)snprintf(dst + k, size - k, "%02x", p[i]);
}

/* One designator of the logical unit (association 0) in words, or "" for a kind not shown. */
static void describe_designator(unsigned int type, const uint8_t *p, size_t n, char *dst, size_t size)
{
	char text[96];

	dst[0] = '\0';
	switch (type) {
	case 1:
		device_text(p, n, text, sizeof(text));
		snprintf(dst, size, "T10 vendor ID: %s", text);
		break;
	case 2:
		hex_string(p, n > 32 ? 32 : n, text, sizeof(text));
		snprintf(dst, size, "EUI-64: 0x%s", text);
		break;
	case 3:
		hex_string(p, n > 32 ? 32 : n, text, sizeof(text));
		snprintf(dst, size, "NAA: 0x%s", text);
		break;
	case 8:
		device_text(p, n, text, sizeof(text));
		snprintf(dst, size, "SCSI name: %s", text);
		break;
	default:
		break;
	}
}

void scsi_decode_identification(const uint8_t *page, size_t len, struct scsi_identification *id)
{
	memset(id, 0, sizeof(*id));
	id->protocol = -1;
	for (size_t pos = 4; pos + 4 <= len;) {
		const uint8_t *d = page + pos;
		size_t dlen = d[3];
		unsigned int type = d[1] & 0x0f, assoc = (d[1] >> 4) & 3;

		if (pos + 4 + dlen > len)
			break;
		/* PIV: the protocol identifier names the port's transport. */
		if ((d[1] & 0x80) && assoc != 0 && id->protocol < 0)
			id->protocol = d[0] >> 4;
		if (assoc == 0 && id->count < SCSI_MAX_DESIGNATORS) {
			char *text = id->designators[id->count];

			describe_designator(type, d + 4, dlen, text, sizeof(id->designators[0]));
			if (text[0])
				id->count++;
			if (type == 3 && !id->has_naa && (dlen == 8 || dlen == 16)) {
				id->has_naa = true;
				id->naa_len = (unsigned int)dlen;
				memcpy(id->naa, d + 4, dlen);
			}
		}
		pos += 4 + dlen;
	}
}

void scsi_decode_block_limits(const uint8_t *page, size_t len, struct scsi_block_limits *bl)
{
	memset(bl, 0, sizeof(*bl));
	if (len >= 28) {
		bl->max_unmap_blocks = get_be32(page + 20);
		bl->max_unmap_descriptors = get_be32(page + 24);
	}
}

void scsi_decode_characteristics(const uint8_t *page, size_t len, unsigned int *rotation, unsigned int *form_factor)
{
	*rotation = len >= 6 ? get_be16(page + 4) : 0;
	*form_factor = len >= 8 ? page[7] & 0x0f : 0;
}

bool scsi_decode_provisioning_unmap(const uint8_t *page, size_t len)
{
	return len >= 6 && (page[5] & 0x80);
}

bool scsi_decode_provisioning(const uint8_t *page, size_t len, struct scsi_lbp_commands *lbp)
{
	memset(lbp, 0, sizeof(*lbp));
	if (len < 6)
		return false;
	lbp->lbpu = page[5] & 0x80;
	lbp->lbpws = page[5] & 0x40;
	lbp->lbpws10 = page[5] & 0x20;
	return true;
}

int scsi_find_mode_page(const uint8_t *buf, size_t got, uint8_t code, uint8_t sub, size_t *offset, size_t *page_len,
			char *cause, size_t cause_size)
{
	size_t total, pos;

	if (got < MODE_HEADER_10_LEN) {
		snprintf(cause, cause_size, "mode page 0x%02x not returned", code);
		return EOPNOTSUPP;
	}
	total = 2u + get_be16(buf);
	if (total > got)
		total = got;
	for (pos = MODE_HEADER_10_LEN + (size_t)get_be16(buf + 6); pos + 2 <= total;) {
		bool subpage = buf[pos] & 0x40;
		size_t n = subpage ? (pos + 4 <= total ? 4u + get_be16(buf + pos + 2) : 4) : 2u + buf[pos + 1];

		if ((buf[pos] & 0x3f) == code && (subpage ? sub && buf[pos + 1] == sub : !sub)) {
			if (pos + n > total) {
				snprintf(cause, cause_size,
					 "the disk returned %zu of the %zu bytes of its mode page 0x%02x (not sent back)",
					 total - pos, n, code);
				return EIO;
			}
			*offset = pos;
			*page_len = n;
			return 0;
		}
		pos += n;
	}
	snprintf(cause, cause_size, "mode page 0x%02x not returned", code);
	return EOPNOTSUPP;
}

const char *scsi_power_state(const struct sense *now)
{
	switch (sense_power_condition(now)) {
	case SENSE_POWER_STANDBY:
		return "standby";
	case SENSE_POWER_NONE:
		return "active/idle";
	default:
		return "idle";
	}
}

/*
 * A log page's parameter code, within the page's length and the got bytes
 * that came: its value bytes (*len of them), or NULL.  Each parameter is
 * its code (2 bytes), a control byte, its length, then that many bytes.
 */
static const uint8_t *log_parameter(const uint8_t *buf, size_t got, unsigned int code, size_t *len)
{
	size_t end, pos = 4;

	if (got < 4)
		return NULL;
	end = 4 + (size_t)get_be16(buf + 2);
	if (end > got)
		end = got;
	while (pos + 4 <= end) {
		*len = buf[pos + 3];
		if (pos + 4 + *len > end)
			return NULL;
		if (get_be16(buf + pos) == code)
			return buf + pos + 4;
		pos += 4 + *len;
	}
	return NULL;
}

bool scsi_decode_temperature_page(const uint8_t *buf, size_t got, struct scsi_temperature *t)
{
	const uint8_t *p;
	size_t len;

	*t = (struct scsi_temperature){ false, false, 0, 0 };
	if (got < 4 || (buf[0] & 0x3f) != LOG_PAGE_TEMPERATURE)
		return false;
	/* A temperature's second byte is the value. */
	if ((p = log_parameter(buf, got, 0x0000, &len)) && len >= 2 && p[1] != LOG_TEMPERATURE_NONE) {
		t->has_current = true;
		t->current = p[1];
	}
	if ((p = log_parameter(buf, got, 0x0001, &len)) && len >= 2 && p[1] != LOG_TEMPERATURE_NONE) {
		t->has_reference = true;
		t->reference = p[1];
	}
	return true;
}

bool scsi_decode_uncorrected_errors(const uint8_t *buf, size_t got, uint64_t *errors)
{
	const uint8_t *p;
	size_t len;

	if (got < 4 || (buf[0] & 0x3f) != LOG_PAGE_READ_ERRORS)
		return false;
	if (!(p = log_parameter(buf, got, LOG_TOTAL_UNCORRECTED, &len)) || len < 1 || len > 8)
		return false;
	*errors = 0;
	for (size_t i = 0; i < len; i++)
		*errors = *errors << 8 | p[i];
	return true;
}

bool scsi_decode_grown_defects(const uint8_t *hdr, size_t got, uint64_t *count)
{
	/* The bytes of one descriptor by format: short block, -, -, long block, bytes from index, physical sector. */
	static const uint8_t size[8] = { 4, 0, 0, 8, 8, 8, 0, 0 };

	if (got < 4 || !(hdr[1] & 0x08) || !size[hdr[1] & 0x07])
		return false;
	*count = get_be16(hdr + 2) / size[hdr[1] & 0x07];
	return true;
}

int scsi_verify_outcome(const struct sense *s)
{
	if (s->valid && s->key == SENSE_MEDIUM_ERROR)
		return ENODATA;
	if (s->valid && s->key == SENSE_ILLEGAL_REQUEST && (s->asc == ASC_INVALID_OPCODE || s->asc == ASC_INVALID_FIELD_IN_CDB))
		return EOPNOTSUPP;
	return EREMOTEIO;
}

bool scsi_decode_power_on_minutes(const uint8_t *buf, size_t got, uint32_t *minutes)
{
	const uint8_t *p;
	size_t len;

	if (got < 4 || (buf[0] & 0x3f) != LOG_PAGE_BACKGROUND_SCAN)
		return false;
	if (!(p = log_parameter(buf, got, 0x0000, &len)) || len < 4)
		return false;
	*minutes = get_be32(p);
	return true;
}

bool scsi_decode_log_counter(const uint8_t *buf, size_t got, uint8_t page, unsigned int code, uint64_t *value)
{
	const uint8_t *p;
	size_t len;

	if (got < 4 || (buf[0] & 0x3f) != page)
		return false;
	if (!(p = log_parameter(buf, got, code, &len)) || len < 1 || len > 8)
		return false;
	*value = 0;
	for (size_t i = 0; i < len; i++)
		*value = *value << 8 | p[i];
	return true;
}

bool scsi_decode_percentage_used(const uint8_t *buf, size_t got, unsigned int *percent)
{
	const uint8_t *p;
	size_t len;

	if (got < 4 || (buf[0] & 0x3f) != LOG_PAGE_SOLID_STATE)
		return false;
	if (!(p = log_parameter(buf, got, 0x0001, &len)) || len < 1)
		return false;
	*percent = p[len - 1];
	return true;
}

bool scsi_decode_ie_asc(const uint8_t *buf, size_t got, unsigned int *asc)
{
	const uint8_t *p;
	size_t len;

	if (got < 4 || (buf[0] & 0x3f) != LOG_PAGE_INFORMATIONAL)
		return false;
	if (!(p = log_parameter(buf, got, 0x0000, &len)) || len < 1)
		return false;
	*asc = p[0];
	return true;
}

int scsi_decode_self_tests(const uint8_t *buf, size_t got, struct scsi_self_test *t, unsigned int max)
{
	unsigned int n = 0;

	if (got < 4 || (buf[0] & 0x3f) != LOG_PAGE_SELF_TEST)
		return -1;
	for (unsigned int code = 1; code <= SCSI_SELF_TESTS && n < max; code++) {
		size_t len;
		const uint8_t *p = log_parameter(buf, got, code, &len);

		/* An entry the page's length holds that did not come whole: the page was cut short. */
		if ((!p || len < 12) && (size_t)4 + get_be16(buf + 2) > got)
			return -2;
		/* One never used (all zero), or the page's end, ends the list. */
		if (!p || len < 12 || (!p[0] && !p[1] && !get_be16(p + 2)))
			break;
		t[n].code = p[0] >> 5;
		t[n].result = p[0] & 0x0f;
		t[n].number = p[1];
		t[n].hours = get_be16(p + 2);
		t[n].first_failure = get_be64(p + 4);
		n++;
	}
	return (int)n;
}

#define FARM_VALID 0xc0
#define FARM_SIGNATURE 0x00004641524d4552ULL
#define FARM_POH_FIELD 19

enum farm_reading scsi_decode_farm_hours(const uint8_t *buf, size_t got, uint64_t *hours)
{
	const uint8_t *p;
	size_t len;
	uint64_t field;

	if (got < 4 || (buf[0] & 0x3f) != LOG_PAGE_FARM || buf[1] != LOG_SUBPAGE_FARM)
		return FARM_NOT_FARM;
	if (!(p = log_parameter(buf, got, 0x0000, &len)) || len < 8)
		return FARM_CUT;
	field = get_be64(p);
	if (field >> 56 != FARM_VALID || (field & 0x00ffffffffffffffULL) != FARM_SIGNATURE)
		return FARM_NOT_FARM;
	if (!(p = log_parameter(buf, got, 0x0001, &len)) || len < 8 * (FARM_POH_FIELD + 1))
		return FARM_CUT;
	field = get_be64(p + 8 * FARM_POH_FIELD);
	if (field >> 56 != FARM_VALID)
		return FARM_NO_HOURS;
	*hours = field & 0x00ffffffffffffffULL;
	return FARM_READ;
}
