/*
 * --fwdownload on a disk that is not ATA (ATA keeps 9.65's DOWNLOAD
 * MICROCODE: ops/ata/firmware.c): the image checked against what the disk
 * takes and the slot chosen before anything is sent, then sent in pieces,
 * committed, and read back: a commit that says success while the drive
 * still runs the old firmware is a failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checks.h"
#include "commands.h"
#include "files.h"
#include "firmware_update.h"
#include "inuse.h"
#include "json.h"
#include "progress.h"
#include "report.h"

/* Larger images than this are no firmware (the largest seen are tens of MiB). */
#define IMAGE_MAX (256u << 20)

struct fw_plan {
	struct disk_firmware fw;
	unsigned int slot;	/* 0: the disk has no slots */
	bool now;
	uint8_t *image;
	uint32_t size;
};

/* The image, whole, in p: a regular file of whole dwords (and whole pieces where the disk asks); else said. */
static int read_image(const char *option, const char *path, struct fw_plan *p)
{
	struct stat st;
	int fd = open_with_stat(path, &st), err = 0;

	if (fd < 0)
		return -fd;
	if (!S_ISREG(st.st_mode) || st.st_size == 0 || st.st_size > IMAGE_MAX) {
		complain(" %s: %s is not a firmware image (a regular file of 1 byte to %u MiB): refused, nothing sent\n",
			 option, path, IMAGE_MAX >> 20);
		err = EINVAL;
	} else if (p->fw.granularity == 4 && st.st_size % 4) {
		complain(" %s: %s is %lld bytes, not whole dwords (4 bytes): refused, nothing sent\n", option, path,
			 (long long)st.st_size);
		err = EINVAL;
	} else if (p->fw.granularity > 1 && st.st_size % p->fw.granularity) {
		complain(" %s: %s is %lld bytes, not whole pieces of the %u bytes the disk downloads by: refused, nothing sent\n",
			 option, path, (long long)st.st_size, p->fw.granularity);
		err = EINVAL;
	}
	p->size = (uint32_t)st.st_size;
	if (!err && !(p->image = malloc(p->size)))
		err = ENOMEM;
	if (!err && read(fd, p->image, p->size) != (ssize_t)p->size) {
		complain("%s: %s\n", path, strerror(errno ? errno : EIO));
		err = EIO;
	}
	close(fd);
	return err;
}

/* A slot that may be written: it exists, and is not slot 1 where slot 1 is read only. */
static bool writable(const struct disk_firmware *fw, unsigned int slot)
{
	return slot >= 1 && slot <= fw->slots && !(slot == 1 && fw->slot1_read_only);
}

/* --fw-slot's, or the first writable slot that is not the active one, else the active one where it is writable. */
static int choose_slot(const char *option, const struct settings *s, struct fw_plan *p)
{
	const struct disk_firmware *fw = &p->fw;

	if (!fw->slots) {
		if (s->v[OPT_FW_SLOT].given) {
			complain(" --fw-slot: this disk has no firmware slots: refused, nothing sent\n");
			return EINVAL;
		}
		return 0;
	}
	if (s->v[OPT_FW_SLOT].given) {
		p->slot = (unsigned int)s->v[OPT_FW_SLOT].num;
		if (writable(fw, p->slot))
			return 0;
		complain(" --fw-slot %u: %s: refused, nothing sent\n", p->slot,
			 p->slot > fw->slots ? "the controller has fewer slots" : "slot 1 is read only");
		return EINVAL;
	}
	for (unsigned int slot = 1; slot <= fw->slots; slot++)
		if (writable(fw, slot) && slot != fw->active_slot) {
			p->slot = slot;
			return 0;
		}
	if (writable(fw, fw->active_slot)) {
		p->slot = fw->active_slot;
		return 0;
	}
	complain(" %s: the controller has no writable firmware slot (%u slot%s, slot 1 read only): refused, nothing sent\n",
		 option, fw->slots, fw->slots == 1 ? "" : "s");
	return EOPNOTSUPP;
}

/* Everything checked, nothing sent but reads: the plan, or a refusal said. */
static int plan(struct device *dev, const struct settings *s, enum opt_id opt, struct fw_plan *p)
{
	const char *option = s->v[opt].name;
	int err;

	memset(p, 0, sizeof(*p));
	if (!dev->disk->firmware || !dev->disk->firmware_piece || !dev->disk->firmware_commit)
		return refuse_missing_command(dev, option);
	/* The whole controller runs the new firmware: every namespace of it must be free. */
	err = dev->disk->erase_scope ? need_disk_unused(dev, option, dev->disk->erase_scope(dev, ERASE_BY_SANITIZE))
				     : need_disk_unused(dev, option, REACH_NAMED);
	if (err)
		return err;
	if ((err = dev->disk->firmware(dev, &p->fw)))
		return say_cause_for(&p->fw.cause, err, option);
	if (!p->fw.can_download) {
		complain(" %s: %s: refused, nothing sent\n", option, p->fw.cause.why);
		return EOPNOTSUPP;
	}
	p->now = s->v[OPT_FW_ACTIVATE_NOW].given;
	if (p->now && !p->fw.activate_now) {
		complain(" --fw-activate-now: this disk cannot activate firmware without a reset: refused, nothing sent\n");
		return EOPNOTSUPP;
	}
	return (err = choose_slot(option, s, p)) ? err : read_image(option, s->v[opt].str, p);
}

int firmware_update_check(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct fw_plan p;
	int err = plan(dev, s, opt, &p);

	free(p.image);
	return err;
}

static int send_pieces(struct device *dev, struct fw_plan *p)
{
	uint32_t pieces = (p->size + p->fw.piece - 1) / p->fw.piece;
	struct status_line line;
	int err = 0;

	status_begin(&line, !dev->run.json && pieces > 1);
	for (uint32_t offset = 0; offset < p->size && !err; offset += p->fw.piece) {
		uint32_t len = p->size - offset < p->fw.piece ? p->size - offset : p->fw.piece;
		struct disk_cause c = { 0 };

		if ((err = dev->disk->firmware_piece(dev, &p->fw, p->image + offset, len, offset, &c))) {
			status_end(&line);
			say_cause(&c, err);
			complain(" the download stopped at byte %u of %u: nothing was committed; the drive runs its old firmware\n",
				 offset, p->size);
			break;
		}
		if (line.shown) {
			char text[100];

			snprintf(text, sizeof(text), "firmware: %u%% sent (%u of %u bytes)",
				 (unsigned int)((uint64_t)(offset + len) * 100 / p->size), offset + len, p->size);
			status_draw(&line, text);
		}
	}
	status_end(&line);
	return err;
}

static const char *const outcome_names[] = {
	[FW_COMMITTED] = "committed",
	[FW_NEEDS_CONVENTIONAL_RESET] = "needs_conventional_reset",
	[FW_NEEDS_SUBSYSTEM_RESET] = "needs_subsystem_reset",
	[FW_NEEDS_CONTROLLER_RESET] = "needs_controller_reset",
	[FW_COMMIT_FAILED] = "failed",
};

static const char *const reset_words[] = {
	[FW_NEEDS_CONVENTIONAL_RESET] = "a conventional reset (power the drive off and on)",
	[FW_NEEDS_SUBSYSTEM_RESET] = "an NVM subsystem reset (nvme subsystem-reset, or a power cycle)",
	[FW_NEEDS_CONTROLLER_RESET] = "a controller level reset (nvme reset, or a reboot)",
};

/* The record of it: revision_after is the firmware running afterwards (null: unread), slot_revision the slot's image. */
static void json_firmware(const struct fw_plan *p, enum firmware_commit outcome, const struct disk_firmware *after)
{
	json_object_begin("firmware");
	if (p->slot)
		json_uint("slot", p->slot);
	else
		json_null("slot");
	json_string("action", p->fw.activated_with_download ? "saved_and_activated"
			      : p->now				 ? "replace_and_activate_now"
								 : "replace_activate_at_reset");
	json_string("status", outcome_names[outcome]);
	json_string("revision_before", p->fw.revision);
	if (after)
		json_string("revision_after", after->revision);
	else
		json_null("revision_after");
	if (after && p->slot)
		json_string("slot_revision", after->slot_revision[p->slot]);
	json_object_end();
}

/* After the commit: the slots read again; activated now, the revision running must be the new one. */
static int read_back(struct device *dev, const struct fw_plan *p, enum firmware_commit outcome)
{
	struct disk_firmware now;
	int err = dev->disk->firmware(dev, &now);

	if (err) {
		say_cause(&now.cause, err);
		json_firmware(p, outcome, NULL);
		return err;
	}
	if (p->slot)
		out(" slot %u now holds: %s%s\n", p->slot, *now.slot_revision[p->slot] ? now.slot_revision[p->slot] : "(empty)",
		    now.next_slot == p->slot ? "; it runs after the next reset" : "");
	json_firmware(p, outcome, &now);
	if (!(p->now || p->fw.activated_with_download) || outcome != FW_COMMITTED)
		return 0;
	out(" firmware revision: %s -> %s\n", p->fw.revision, now.revision);
	if (strcmp(now.revision, p->fw.revision) == 0) {
		complain(" %s: the disk said the new firmware is active, but it still runs %s: not updated\n",
			 p->now ? "--fw-activate-now" : "--fwdownload", now.revision);
		return EIO;
	}
	return 0;
}

int firmware_update_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct disk_cause c = { 0 };
	enum firmware_commit outcome;
	struct fw_plan p;
	int err = plan(dev, s, opt, &p);

	if (err) {
		free(p.image);
		return err;
	}
	out(" firmware %s: sending %u bytes in pieces of %u", p.fw.revision, p.size, p.fw.piece);
	if (p.slot)
		out(", to slot %u", p.slot);
	out("\n");
	fflush(stdout);
	if ((err = send_pieces(dev, &p))) {
		free(p.image);
		return err;
	}
	free(p.image);
	outcome = dev->disk->firmware_commit(dev, &p.fw, p.slot, p.now, &c);
	if (outcome == FW_COMMIT_FAILED) {
		say_cause(&c, EIO);
		json_firmware(&p, outcome, NULL);
		return EIO;
	}
	if (outcome != FW_COMMITTED)
		out(" the image is in its slot; it becomes active after %s\n", reset_words[outcome]);
	else if (p.fw.activated_with_download)
		out(" the disk has no deferred activation: it activated the firmware as it saved it\n");
	else
		out(p.now ? " committed and activated\n" : " committed: it becomes active at the next reset\n");
	if ((err = read_back(dev, &p, outcome)))
		return err;
	out("Done.\n");
	return 0;
}
