/*
 * A SCSI disk formatted to another block length or protection type (SBC-3
 * 4.6, 5.3): the lengths it takes come from the Supported Block Lengths
 * and Protection Types VPD page (B4h) where it has one, the types from
 * INQUIRY's PROTECT bit.  The new length goes out in MODE SELECT's block
 * descriptor, with the Read-Write Error Recovery page as the disk gave it
 * (what sg_format sends), then FORMAT UNIT with IMMED: the disk formats
 * in the background, for hours, and REQUEST SENSE says how far it is
 * (NOT READY, FORMAT IN PROGRESS, with a progress indication).
 */
#include <errno.h>
#include <stdio.h>

#include "array.h"
#include "scsi.h"
#include "scsi_format.h"
#include "unaligned.h"

/* Every protection type's bit (bit t: type t) but none's. */
#define PI_TYPES_ANY 0x0eu

static int cannot_format(struct disk_cause *c, const char *why)
{
	c->about_option = true;
	snprintf(c->why, sizeof(c->why), "%s", why);
	return EOPNOTSUPP;
}

/* The lengths B4h lists into b (0: the page is not there). */
static unsigned int listed_lengths(struct device *dev, struct disk_block_formats *b)
{
	struct scsi_block_length lengths[ARRAY_SIZE(b->f)];
	uint8_t list[256], page[256];
	size_t len = scsi_listed_vpd(dev, list, scsi_vpd_list(dev, list), VPD_SUPPORTED_BLOCK_LENGTHS, page, sizeof(page));
	unsigned int n = scsi_decode_block_lengths(page, len, lengths, ARRAY_SIZE(lengths));

	for (unsigned int i = 0; i < n; i++)
		b->f[i] = (struct disk_block_format){ .data_bytes = lengths[i].bytes, .pi_types = lengths[i].pi_types };
	return n;
}

/* The types the Extended INQUIRY Data page's SPT names; every type where the disk has no such page. */
static unsigned int supported_types(struct device *dev)
{
	uint8_t list[256], page[64];
	size_t len = scsi_listed_vpd(dev, list, scsi_vpd_list(dev, list), VPD_EXTENDED_INQUIRY, page, sizeof(page));
	unsigned int types = scsi_decode_spt_types(page, len);

	return types ? types : PI_TYPES_ANY;
}

int scsi_block_formats(struct device *dev, struct disk_block_formats *b)
{
	struct scsi_capacity cap;
	struct scsi_inquiry inq;
	struct scsi_result res;
	int err;

	if (scsi_cautious(dev))
		return cannot_format(&b->cause, "not sent through a USB bridge: what it makes of FORMAT UNIT is its own");
	if ((err = scsi_inquiry(dev, &inq, &res)))
		return scsi_cause(&b->cause, "INQUIRY", &res, err);
	if ((err = scsi_read_capacity(dev, &cap, &res)))
		return scsi_cause(&b->cause, "READ CAPACITY", &res, err);
	b->command = "FORMAT UNIT";
	b->blocks = cap.blocks;
	b->pi_type = cap.prot_type;
	b->n = listed_lengths(dev, b);
	b->unlisted = !b->n;
	for (b->current = 0; b->current < b->n && b->f[b->current].data_bytes != cap.block_bytes; b->current++)
		;
	/* The length in use, where the page leaves it out (or there is none): a format of its own. */
	if (b->current == b->n && b->n < ARRAY_SIZE(b->f))
		b->f[b->n++] = (struct disk_block_format){ .data_bytes = cap.block_bytes,
							   .pi_types = 1u | (inq.protect ? supported_types(dev) : 0) };
	for (unsigned int i = 0; i < b->n; i++) {
		/* Without PROTECT no type is taken, whatever the page says. */
		if (!inq.protect)
			b->f[i].pi_types &= ~PI_TYPES_ANY;
		b->pi_types |= b->f[i].pi_types >> 1;
	}
	return 0;
}

int scsi_block_format_set(struct device *dev, const struct disk_format_request *r, struct disk_cause *c)
{
	uint8_t mode[252], *bd, *page;
	size_t bd_len, page_len;
	struct scsi_result res;
	int err = scsi_mode_sense_blocks(dev, MODE_PAGE_RW_ERROR_RECOVERY, mode, sizeof(mode), &bd, &bd_len, &page,
					 &page_len, &res);

	if (err)
		return scsi_cause(c, "MODE SENSE (block descriptor)", &res, err);
	if (!bd_len)
		return cannot_format(c, "this SCSI disk returns no block descriptor: its block length cannot be set");
	err = scsi_mode_select_block_length(dev, mode, bd_len, r->bytes, page, page_len, &res);
	if (err && (scsi_refused(err, &res) || res.sense.key == SENSE_ILLEGAL_REQUEST)) {
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "this SCSI disk refused a block length of %u bytes: %s", r->bytes, res.cause);
		return EOPNOTSUPP;
	}
	if (err)
		return scsi_cause(c, "MODE SELECT (block descriptor)", &res, err);
	err = scsi_format_unit(dev, r->pi_type, &res);
	if (err && scsi_refused(err, &res)) {
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "this SCSI disk refused FORMAT UNIT%s: %s",
			 r->pi_type ? " with protection information" : "", res.cause);
		return EOPNOTSUPP;
	}
	return scsi_cause(c, "FORMAT UNIT", &res, err);
}

int scsi_block_format_poll(struct device *dev, struct disk_format_poll *p)
{
	struct scsi_result res;
	struct sense now;
	const char *asc;
	int err = scsi_request_sense(dev, &now, &res);

	if (err)
		return scsi_cause(&p->cause, "REQUEST SENSE", &res, err);
	p->running = now.key == SENSE_NOT_READY && now.asc == ASC_NOT_READY && now.ascq == ASCQ_FORMAT_IN_PROGRESS;
	p->has_progress = p->running && now.has_progress;
	p->progress = now.progress;
	/* A format that failed: MEDIUM ERROR, or the medium's format corrupted (SBC-3 5.3.1). */
	p->failed = now.key == SENSE_MEDIUM_ERROR || now.asc == ASC_MEDIUM_FORMAT_CORRUPTED;
	if (p->failed) {
		asc = sense_asc_text(now.asc, now.ascq);
		snprintf(p->detail, sizeof(p->detail), "the format failed: %s, %s (ASC %02xh, ASCQ %02xh)",
			 sense_key_text(now.key), asc ? asc : "no text for it", now.asc, now.ascq);
	}
	return 0;
}
