/*
 * NVMe firmware (NVMe Base 1.4, 5.11 and 5.12): the slots from Identify
 * Controller (FRMW, FWUG, MDTS) and the Firmware Slot Information log; an
 * image sent by Firmware Image Download in pieces of the controller's
 * granularity; Firmware Commit, whose statuses are sorted here into what the
 * operation words.  Nothing is printed.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvme.h"
#include "nvme_firmware.h"
#include "nvme_spec.h"

/* Without a granularity (FWUG 0: not said), pieces of 4 KiB, as nvme-cli sends; with none needed (FFh), 64 KiB. */
#define PIECE_UNSAID 4096u
#define PIECE_FREE 65536u

static void slot_text(char *dst, size_t size, const char *src, size_t n)
{
	size_t len = 0;

	while (len < n && src[len] >= 0x20 && src[len] < 0x7f)
		len++;
	while (len && src[len - 1] == ' ')
		len--;
	snprintf(dst, size, "%.*s", (int)len, src);
}

/* The slots from Identify Controller's FRMW and the Firmware Slot Information log (pure). */
static void nvme_firmware_slots(const struct nvme_id_ctrl *ctrl, const struct nvme_fw_slot_log *log,
				struct disk_firmware *fw)
{
	fw->slots = NVME_FRMW_SLOTS(ctrl->frmw);
	fw->slot1_read_only = ctrl->frmw & NVME_FRMW_SLOT1_RO;
	fw->activate_now = ctrl->frmw & NVME_FRMW_ACTIVATE_NOW;
	slot_text(fw->revision, sizeof(fw->revision), ctrl->fr, sizeof(ctrl->fr));
	if (!log)
		return;
	fw->slots_read = true;
	fw->active_slot = log->afi & 7;
	fw->next_slot = (log->afi >> 4) & 7;
	for (unsigned int s = 1; s <= fw->slots && s <= DISK_FW_SLOTS; s++)
		slot_text(fw->slot_revision[s], sizeof(fw->slot_revision[s]), log->frs[s - 1], sizeof(log->frs[s - 1]));
}

/*
 * The largest transfer the controller takes: MDTS, a power of two in units of the controller's minimum
 * memory page size (CAP.MPSMIN, a register the kernel does not pass on), taken here as 4 KiB, the
 * smallest CAP.MPSMIN can say: where the controller's pages are larger, its limit is too, and a piece
 * held to this one is never too large; 0: no limit.
 */
static uint32_t max_transfer(const struct nvme_id_ctrl *ctrl)
{
	return ctrl->mdts && ctrl->mdts < 20 ? (uint32_t)4096 << ctrl->mdts : 0;
}

int nvme_firmware(struct device *dev, struct disk_firmware *fw)
{
	struct nvme_fw_slot_log *log = NULL;
	struct nvme_id_ctrl *ctrl;
	uint32_t most;
	int err;

	memset(fw, 0, sizeof(*fw));
	if (!(ctrl = nvme_identify_controller(dev, &err, &fw->cause)))
		return err;
	log = malloc(sizeof(*log));
	err = log ? nvme_admin_get_log(dev, NVME_LOG_FW_SLOT, log, sizeof(*log), &fw->cause) : ENOMEM;
	if (err && log) {
		/* The log is mandatory; a controller that fails it still says its revision and slots. */
		free(log);
		log = NULL;
		err = 0;
		memset(&fw->cause, 0, sizeof(fw->cause));
	}
	nvme_firmware_slots(ctrl, log, fw);
	most = max_transfer(ctrl);
	/* NUMD and OFST count dwords: an image of whole dwords at least, whole pieces of FWUG where it is given. */
	if (ctrl->fwug && ctrl->fwug != NVME_FWUG_NONE) {
		fw->granularity = ctrl->fwug * NVME_FWUG_UNIT;
		fw->piece = fw->granularity;
	} else {
		fw->granularity = 4;
		fw->piece = ctrl->fwug == NVME_FWUG_NONE ? PIECE_FREE : PIECE_UNSAID;
	}
	/* MDTS caps every piece; a granularity above it is refused below. */
	if (most && fw->piece > most)
		fw->piece = most;
	/* OACS is little-endian on the wire, as every multi-byte field of the page. */
	if (!(le16toh(ctrl->oacs) & NVME_OACS_FIRMWARE))
		snprintf(fw->cause.why, sizeof(fw->cause.why),
			 "this NVMe controller has no Firmware Image Download and Commit (OACS bit 2)");
	else if (most && fw->granularity > most)
		snprintf(fw->cause.why, sizeof(fw->cause.why),
			 "the controller's download granularity (%u KiB) exceeds its largest transfer (%u KiB)",
			 fw->granularity / 1024, most / 1024);
	else
		fw->can_download = true;
	free(log);
	free(ctrl);
	return err;
}

int nvme_firmware_piece(struct device *dev, struct disk_firmware *fw, const uint8_t *buf, uint32_t len, uint32_t offset,
			bool now, struct disk_cause *c)
{
	(void)fw;
	(void)now;
	return nvme_admin_fw_download(dev, buf, len, offset, c);
}

/* A commit's status, in words with what to do; FW_COMMIT_FAILED unless it is a reset still needed. */
static enum firmware_commit commit_status(unsigned int slot, struct disk_cause *c)
{
	static const struct {
		unsigned int status;
		enum firmware_commit outcome;
		const char *why;
	} known[] = {
		{ NVME_SC_FW_NEEDS_CONVENTIONAL_RESET, FW_NEEDS_CONVENTIONAL_RESET, NULL },
		{ NVME_SC_FW_NEEDS_SUBSYSTEM_RESET, FW_NEEDS_SUBSYSTEM_RESET, NULL },
		{ NVME_SC_FW_NEEDS_CONTROLLER_RESET, FW_NEEDS_CONTROLLER_RESET, NULL },
		{ NVME_SC_INVALID_FW_SLOT, FW_COMMIT_FAILED,
		  "invalid firmware slot %u (status 0x106): the controller does not have it, or it is read only; name another with --fw-slot" },
		{ NVME_SC_INVALID_FW_IMAGE, FW_COMMIT_FAILED,
		  "invalid firmware image (status 0x107): not one for this controller, or cut short; nothing was activated" },
		{ NVME_SC_FW_NEEDS_MAX_TIME_VIOLATION, FW_COMMIT_FAILED,
		  "activating now would take longer than the controller allows (status 0x112, MTFA): commit without --fw-activate-now, then reset" },
		{ NVME_SC_FW_ACTIVATION_PROHIBITED, FW_COMMIT_FAILED,
		  "the controller prohibits activating this image (status 0x113: a downgrade, or its security policy); nothing was activated" },
		{ NVME_SC_OVERLAPPING_RANGE, FW_COMMIT_FAILED,
		  "the image's pieces overlapped (status 0x114): download it again, whole" },
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (c->status == known[i].status) {
			if (known[i].why)
				snprintf(c->why, sizeof(c->why), known[i].why, slot);
			return known[i].outcome;
		}
	return FW_COMMIT_FAILED;
}

enum firmware_commit nvme_firmware_commit(struct device *dev, const struct disk_firmware *fw, unsigned int slot, bool now,
					  struct disk_cause *c)
{
	(void)fw;
	int err = nvme_admin_fw_commit(dev, slot, now ? NVME_COMMIT_REPLACE_NOW : NVME_COMMIT_REPLACE_AT_RESET, c);

	return err ? commit_status(slot, c) : FW_COMMITTED;
}
