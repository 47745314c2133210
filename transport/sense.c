/* SCSI sense data: one normalised form, and the words for it. */
#include <stdio.h>

#include "array.h"
#include "sense.h"

static const char *const key_texts[16] = {
	"no sense", "recovered error", "not ready", "medium error", "hardware error",
	"illegal request", "unit attention", "data protect", "blank check", "vendor specific",
	"copy aborted", "aborted command", "reserved sense key 0xc", "volume overflow", "miscompare",
	"reserved sense key 0xf",
};

static const struct {
	uint8_t asc, ascq;
	const char *text;
} asc_texts[] = {
	{ 0x00, 0x00, "no additional sense information" },
	{ 0x00, 0x1d, "ATA pass through information available" },
	{ 0x04, 0x00, "logical unit not ready" },
	{ 0x04, 0x02, "logical unit not ready, initializing command required" },
	{ 0x04, 0x04, "logical unit not ready, format in progress" },
	{ 0x04, 0x1b, "logical unit not ready, sanitize in progress" },
	{ 0x0c, 0x00, "write error" },
	{ 0x0c, 0x02, "write error, auto reallocation failed" },
	{ 0x11, 0x00, "unrecovered read error" },
	{ 0x11, 0x04, "unrecovered read error, auto reallocate failed" },
	{ 0x14, 0x01, "record not found" },
	{ 0x1a, 0x00, "parameter list length error" },
	{ 0x20, 0x00, "invalid command operation code" },
	{ 0x20, 0x02, "access denied - no access rights" },
	{ 0x21, 0x00, "logical block address out of range" },
	{ 0x24, 0x00, "invalid field in CDB" },
	{ 0x26, 0x00, "invalid field in parameter list" },
	{ 0x29, 0x00, "power on, reset, or bus device reset occurred" },
	{ 0x31, 0x00, "medium format corrupted" },
	{ 0x31, 0x01, "format command failed" },
	{ 0x31, 0x03, "sanitize command failed" },
	{ 0x3a, 0x00, "medium not present" },
	{ 0x44, 0x00, "internal target failure" },
	{ 0x47, 0x00, "SCSI parity error" },
	{ 0x5e, 0x00, "low power condition on" },
};

/* The three SENSE KEY SPECIFIC bytes at p (SKSV in bit 7): a progress indication where the key says so. */
static void take_progress(const uint8_t *p, struct sense *s)
{
	if ((p[0] & 0x80) && (s->key == SENSE_NO_SENSE || s->key == SENSE_NOT_READY)) {
		s->has_progress = true;
		s->progress = (uint16_t)(p[1] << 8 | p[2]);
	}
}

/* Descriptor format: the sense key specific descriptor (02h), within the bytes that came. */
static void descriptor_progress(const uint8_t *buf, unsigned int len, struct sense *s)
{
	unsigned int end = len >= 8 && 8u + buf[7] < len ? 8u + buf[7] : len;

	for (unsigned int at = 8; at + 2 <= end; at += 2u + buf[at + 1])
		if (buf[at] == 0x02 && buf[at + 1] >= 6 && at + 7 <= end) {
			take_progress(buf + at + 4, s);
			return;
		}
}

bool sense_normalise(const uint8_t *buf, unsigned int len, struct sense *s)
{
	uint8_t code = len ? buf[0] & 0x7f : 0;

	*s = (struct sense){ 0 };
	if ((code == 0x72 || code == 0x73) && len >= 4) {
		s->descriptor = true;
		s->key = buf[1] & 0x0f;
		s->asc = buf[2];
		s->ascq = buf[3];
		s->valid = true;
		descriptor_progress(buf, len, s);
	} else if ((code == 0x70 || code == 0x71) && len >= 3) {
		/* ASC and ASCQ only where both the bytes that came and the ADDITIONAL SENSE LENGTH reach them. */
		if (len >= 8 && 8u + buf[7] < len)
			len = 8u + buf[7];
		s->key = buf[2] & 0x0f;
		if (len >= 14) {
			s->asc = buf[12];
			s->ascq = buf[13];
		}
		if (len >= 18)
			take_progress(buf + 15, s);
		s->valid = true;
	}
	return s->valid;
}

const char *sense_key_text(uint8_t key)
{
	return key_texts[key & 0x0f];
}

const char *sense_asc_text(uint8_t asc, uint8_t ascq)
{
	for (size_t i = 0; i < ARRAY_SIZE(asc_texts); i++)
		if (asc_texts[i].asc == asc && asc_texts[i].ascq == ascq)
			return asc_texts[i].text;
	return NULL;
}

char *sense_describe(const struct sense *s, char *buf, unsigned int size)
{
	const char *what = sense_asc_text(s->asc, s->ascq);

	if (what && (s->asc || s->ascq))
		snprintf(buf, size, "%s (%s)", sense_key_text(s->key), what);
	else if (s->asc || s->ascq)
		snprintf(buf, size, "%s (asc 0x%02x, ascq 0x%02x)", sense_key_text(s->key), s->asc, s->ascq);
	else
		snprintf(buf, size, "%s", sense_key_text(s->key));
	return buf;
}

enum sense_power sense_power_condition(const struct sense *s)
{
	if (s->key == SENSE_NOT_READY && s->asc == ASC_NOT_READY && s->ascq == 0x02)
		return SENSE_POWER_STANDBY;	/* stopped: it waits for START STOP UNIT */
	if (s->key != SENSE_NO_SENSE || s->asc != ASC_LOW_POWER_CONDITION_ON)
		return SENSE_POWER_NONE;
	switch (s->ascq) {
	case 0x00:
		return SENSE_POWER_LOW;
	case 0x02: case 0x04: case 0x09: case 0x0a:
		return SENSE_POWER_STANDBY;
	default:
		return SENSE_POWER_IDLE;
	}
}
