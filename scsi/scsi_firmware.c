/*
 * SCSI firmware (SPC-4 6.49 WRITE BUFFER, 6.37 READ BUFFER): the image in
 * pieces of WRITE BUFFER mode 0Eh (download with offsets, save, defer
 * activation), each a multiple of the offset boundary and at most the
 * buffer's capacity (READ BUFFER descriptor mode 03h), or whole in one
 * piece where the boundary is FFh (no offsets); activated by mode 0Fh, or
 * by the next reset.  A disk without the deferred mode (ILLEGAL REQUEST on
 * the first piece) gets mode 07h, which activates as it saves, only where
 * activation now was asked.  The revision is INQUIRY's.  Nothing is printed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "scsi.h"
#include "scsi_firmware.h"

/* The largest piece sent, whatever the buffer holds: what the kernel passes in one command everywhere. */
#define PIECE_MAX (64u * 1024u)
/* The smallest: a buffer said to hold less is a descriptor not to be believed (1 byte: 20,480 commands). */
#define PIECE_MIN 512u
/* WRITE BUFFER (10)'s BUFFER OFFSET is 3 bytes: a piece past 16 MiB would wrap onto the image's start. */
#define IMAGE_REACH (1u << 24)
/* OFFSET BOUNDARY FFh: the buffer takes offset 0 only. */
#define BOUNDARY_NO_OFFSETS 0xffu

int scsi_firmware(struct device *dev, struct disk_firmware *fw)
{
	struct scsi_inquiry inq;
	struct scsi_result res;
	uint32_t capacity, boundary;
	uint8_t shift;
	int err;

	memset(fw, 0, sizeof(*fw));
	if ((err = scsi_inquiry(dev, &inq, &res)))
		return scsi_cause(&fw->cause, "INQUIRY", &res, err);
	snprintf(fw->revision, sizeof(fw->revision), "%s", inq.revision);
	fw->granularity = 1;
	fw->activate_now = true;
	fw->kind_plan = WB_MODE_OFFSETS_SAVE_DEFER;
	fw->saved_as_sent = true;
	fw->image_max = IMAGE_REACH;
	if (scsi_read_buffer_descriptor(dev, &shift, &capacity, &res)) {
		snprintf(fw->cause.why, sizeof(fw->cause.why),
			 "the disk gave no download buffer (READ BUFFER descriptor: %s)", res.cause);
		return 0;
	}
	/* FFh: no offsets, so the whole image at offset 0, where the buffer holds it (read_image checks the size). */
	if (shift == BOUNDARY_NO_OFFSETS) {
		fw->one_piece = true;
		fw->piece = capacity;
	} else if (shift > 16) {
		snprintf(fw->cause.why, sizeof(fw->cause.why),
			 "the disk's download buffer takes no pieces (offset boundary %02xh, capacity %u bytes)", shift,
			 capacity);
		return 0;
	} else {
		boundary = 1u << shift;
		fw->piece = (capacity < PIECE_MAX ? capacity : PIECE_MAX) / boundary * boundary;
	}
	if (fw->piece < PIECE_MIN) {
		snprintf(fw->cause.why, sizeof(fw->cause.why),
			 "the disk's download buffer would take pieces below 512 bytes (READ BUFFER descriptor: capacity "
			 "%u, offset boundary %02xh)",
			 capacity, shift);
		return 0;
	}
	fw->can_download = true;
	return 0;
}

/* The deferred mode refused as such: ILLEGAL REQUEST, invalid field in CDB. */
static bool mode_refused(int err, const struct scsi_result *res)
{
	return err == EIO && res->sense.key == SENSE_ILLEGAL_REQUEST && res->sense.asc == ASC_INVALID_FIELD_IN_CDB;
}

int scsi_firmware_piece(struct device *dev, struct disk_firmware *fw, const uint8_t *buf, uint32_t len, uint32_t offset,
			bool now, struct disk_cause *c)
{
	struct scsi_result res;
	int err = scsi_write_buffer(dev, (uint8_t)fw->kind_plan, offset, buf, len, &res);
	bool deferred_refused = err && offset == 0 && fw->kind_plan == WB_MODE_OFFSETS_SAVE_DEFER && mode_refused(err, &res);

	/* Mode 07h activates the image as its last piece saves it: only what --fw-activate-now asked. */
	if (deferred_refused && !now) {
		c->what = "WRITE BUFFER";
		snprintf(c->why, sizeof(c->why),
			 "the disk refused mode 0Eh (download, save, defer activation): %s; its mode 07h would activate "
			 "the firmware at once, which only --fw-activate-now asks for",
			 res.cause);
		return EOPNOTSUPP;
	}
	if (deferred_refused) {
		fw->kind_plan = WB_MODE_OFFSETS_SAVE_ACTIVATE;
		fw->activated_with_download = true;
		err = scsi_write_buffer(dev, (uint8_t)fw->kind_plan, offset, buf, len, &res);
	}
	return scsi_cause(c, "WRITE BUFFER", &res, err);
}

enum firmware_commit scsi_firmware_commit(struct device *dev, const struct disk_firmware *fw, unsigned int slot, bool now,
					  struct disk_cause *c)
{
	struct scsi_result res;
	int err;

	(void)slot;
	/* Saved and active already (mode 07h), or saved and deferred to the next reset as asked. */
	if (fw->activated_with_download || !now)
		return FW_COMMITTED;
	err = scsi_write_buffer(dev, WB_MODE_ACTIVATE_DEFERRED, 0, NULL, 0, &res);
	return scsi_cause(c, "WRITE BUFFER (activate deferred microcode)", &res, err) ? FW_COMMIT_FAILED : FW_COMMITTED;
}
