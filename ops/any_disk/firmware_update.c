/*
 * --fwdownload on a disk that is not ATA (ATA keeps 9.65's DOWNLOAD
 * MICROCODE: ops/ata/firmware.c): the image checked against what the disk
 * takes and the slot chosen before anything is sent, then sent in pieces,
 * committed, and read back: a commit that says success while the slot log
 * or the revision read afterwards says otherwise is a failure.  SIGINT,
 * SIGTERM and SIGHUP (a many-disk run's member gets SIGTERM when its parent
 * dies) stop it before the next piece and before the commit.
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
	uint32_t sent;		/* bytes the disk took */
	bool commit_sent;
};

/* A regular file of 1 byte to IMAGE_MAX (st: what path is), else refused in words; 0 or an errno. */
static int image_file_kind(const char *option, const char *path, const struct stat *st)
{
	if (S_ISREG(st->st_mode) && st->st_size > 0 && st->st_size <= IMAGE_MAX)
		return 0;
	complain(" %s: %s is not a firmware image (a regular file of 1 byte to %u MiB): refused, nothing sent\n", option,
		 path, IMAGE_MAX >> 20);
	return EINVAL;
}

/*
 * Before any command: the path names a regular file.  stat(), not open(): open() waits on a FIFO
 * for a writer, and opening a device node may act (a watchdog starts, a tape rewinds).
 */
static int check_image_path(const char *option, const char *path)
{
	struct stat st;

	if (stat(path, &st) == -1) {
		int err = errno;

		complain_errno(path);
		return err;
	}
	return image_file_kind(option, path, &st);
}

/* An image of size bytes as the disk downloads: whole dwords, whole pieces, in its one piece; else refused in words. */
static int image_fits(const char *option, const char *path, long long size, const struct disk_firmware *fw)
{
	if (fw->granularity == 4 && size % 4)
		complain(" %s: %s is %lld bytes, not whole dwords (4 bytes): refused, nothing sent\n", option, path, size);
	else if (fw->granularity > 1 && size % fw->granularity)
		complain(" %s: %s is %lld bytes, not whole pieces of the %u bytes the disk downloads by: refused, nothing sent\n",
			 option, path, size, fw->granularity);
	else if (fw->image_max && size > fw->image_max)
		complain(" %s: %s is %lld bytes; the disk's download command reaches %u bytes at most: refused, nothing sent\n",
			 option, path, size, fw->image_max);
	else if (fw->one_piece && size > fw->piece)
		complain(" %s: %s is %lld bytes; the disk takes an image in one piece (no offsets) of at most %u bytes: refused, nothing sent\n",
			 option, path, size, fw->piece);
	else
		return 0;
	return EINVAL;
}

/* The image, whole, in p: a regular file of whole dwords (and whole pieces where the disk asks); else said. */
static int read_image(const char *option, const char *path, struct fw_plan *p)
{
	struct stat st;
	/* Not waiting: whatever the path was when it was checked, a FIFO now is refused, not waited on. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), err;

	if (fd == -1 || fstat(fd, &st) == -1) {
		err = errno;
		complain_errno(path);
		if (fd != -1)
			close(fd);
		return err;
	}
	if (!(err = image_file_kind(option, path, &st)))
		err = image_fits(option, path, (long long)st.st_size, &p->fw);
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
	if ((err = check_image_path(option, s->v[opt].str)))
		return err;
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

/* The firmware object: status the commit's outcome or why it ended before; after: read again (NULL: not); verified -1: unchecked. */
static void json_firmware(const struct fw_plan *p, const char *status, const struct disk_firmware *after, int verified)
{
	json_object_begin("firmware");
	if (p->slot)
		json_uint("slot", p->slot);
	else
		json_null("slot");
	json_string("action", p->fw.activated_with_download ? "saved_and_activated"
			      : p->now				 ? "replace_and_activate_now"
								 : "replace_activate_at_reset");
	json_string("status", status);
	json_uint("image_bytes", p->size);
	json_uint("bytes_sent", p->sent);
	json_string("revision_before", p->fw.revision);
	json_string("revision_after", after ? after->revision : NULL);
	if (after && p->slot)
		json_string("slot_revision", after->slots_read ? after->slot_revision[p->slot] : NULL);
	if (verified < 0)
		json_null("verified");
	else
		json_bool("verified", verified);
	json_object_end();
}

/* The pieces, with a look for a signal before each; where it stopped said, and the object written. */
static int send_pieces(struct device *dev, const char *option, struct fw_plan *p)
{
	uint32_t pieces = (p->size + p->fw.piece - 1) / p->fw.piece, done = 0;
	struct disk_cause c = { 0 };
	struct status_line line;
	int err = 0;

	status_begin(&line, !dev->run.json && pieces > 1);
	while (p->sent < p->size) {
		uint32_t len = p->size - p->sent < p->fw.piece ? p->size - p->sent : p->fw.piece;

		if (poll_wait_interrupted())
			err = EINTR;
		else
			err = dev->disk->firmware_piece(dev, &p->fw, p->image + p->sent, len, p->sent, p->now, &c);
		if (err)
			break;
		p->sent += len;
		done++;
		if (line.shown) {
			char text[100];

			snprintf(text, sizeof(text), "firmware: %u%% sent (%u of %u bytes)",
				 (unsigned int)((uint64_t)p->sent * 100 / p->size), p->sent, p->size);
			status_draw(&line, text);
		}
	}
	status_end(&line);
	if (!err)
		return 0;
	if (err == EINTR)
		complain(" %s: interrupted: the download stopped at byte %u of %u (%u of %u pieces sent): nothing was committed; the drive runs its old firmware\n",
			 option, p->sent, p->size, done, pieces);
	else {
		say_cause(&c, err);
		complain(" the download stopped at byte %u of %u: nothing was committed; the drive runs its old firmware\n",
			 p->sent, p->size);
	}
	json_firmware(p, err == EINTR ? "interrupted" : "download_failed", NULL, -1);
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

/* The commit sends a command: always on NVMe; on SCSI, whose last piece saved the image, only to activate it now. */
static bool commit_sends(const struct fw_plan *p)
{
	return !p->fw.saved_as_sent || (p->now && !p->fw.activated_with_download);
}

/* A signal after the last piece, before the commit: what the disk has, said; the object written. */
static int interrupted_before_commit(const char *option, const struct fw_plan *p)
{
	if (p->fw.saved_as_sent)
		complain(" %s: interrupted before the activation: the disk saved the image (%u bytes) and runs it after its next reset\n",
			 option, p->size);
	else
		complain(" %s: interrupted before the commit: all %u bytes were sent, nothing was committed; the drive runs its old firmware\n",
			 option, p->size);
	json_firmware(p, "interrupted", NULL, -1);
	return EINTR;
}

/*
 * What was read again against what was asked; why ("" where it agrees).  With slots: the target
 * holds an image, runs after the next reset where a reset activates it (0: the log does not say),
 * and is the active slot, holding the revision running, where it was activated now (the image may
 * have the old revision: the active slot tells, not old != new).  Without: the revision has changed.
 */
static void disagreement(const struct fw_plan *p, bool at_reset, const struct disk_firmware *now, char *why, size_t size)
{
	const char *held = p->slot ? now->slot_revision[p->slot] : "";
	bool slots = p->slot && now->slots_read;

	*why = '\0';
	if (slots && !*held)
		snprintf(why, size, "the disk took the commit to slot %u, but the slot reads back empty", p->slot);
	else if (slots && at_reset && now->next_slot && now->next_slot != p->slot)
		snprintf(why, size, "the disk took the commit to slot %u, but its slot log says slot %u runs after the next reset",
			 p->slot, now->next_slot);
	else if (at_reset)
		return;
	else if (slots && now->active_slot != p->slot)
		snprintf(why, size, "the disk said the new firmware is active, but slot %u is active, running %s, not slot %u",
			 now->active_slot, now->revision, p->slot);
	else if (slots && strcmp(now->revision, held) != 0)
		snprintf(why, size, "slot %u is active, but the controller runs %s, not the slot's %s", p->slot, now->revision,
			 held);
	else if (!slots && strcmp(now->revision, p->fw.revision) == 0)
		snprintf(why, size, "the disk said the new firmware is active, but it still runs %s", now->revision);
}

/* After the commit: the slots and the revision read again, and held against what was asked. */
static int read_back(struct device *dev, const struct fw_plan *p, enum firmware_commit outcome)
{
	bool at_reset = outcome != FW_COMMITTED || !(p->now || p->fw.activated_with_download);
	struct disk_firmware now;
	char why[200];
	int err = dev->disk->firmware(dev, &now);

	if (err) {
		say_cause(&now.cause, err);
		json_firmware(p, outcome_names[outcome], NULL, -1);
		return err;
	}
	if (p->slot && now.slots_read)
		out(" slot %u now holds: %s%s\n", p->slot, *now.slot_revision[p->slot] ? now.slot_revision[p->slot] : "(empty)",
		    now.next_slot == p->slot ? "; it runs after the next reset" : "");
	else if (p->slot)
		out(" slot %u now holds: unknown (the slot log could not be read)\n", p->slot);
	disagreement(p, at_reset, &now, why, sizeof(why));
	json_firmware(p, outcome_names[outcome], &now,
		      (p->slot && now.slots_read) || !at_reset ? !*why : -1);
	if (!at_reset)
		out(" firmware revision: %s -> %s\n", p->fw.revision, now.revision);
	if (*why) {
		complain(" %s: %s: not updated\n", p->now ? "--fw-activate-now" : "--fwdownload", why);
		return EIO;
	}
	return 0;
}

/* The image sent, committed and read back; a signal stops it before a piece or the commit. */
static int download(struct device *dev, const char *option, struct fw_plan *p)
{
	struct disk_cause c = { 0 };
	enum firmware_commit outcome;
	int err;

	if ((err = send_pieces(dev, option, p)))
		return err;
	if (commit_sends(p) && poll_wait_interrupted())
		return interrupted_before_commit(option, p);
	p->commit_sent = true;
	outcome = dev->disk->firmware_commit(dev, &p->fw, p->slot, p->now, &c);
	if (outcome == FW_COMMIT_FAILED) {
		say_cause(&c, EIO);
		json_firmware(p, outcome_names[outcome], NULL, -1);
		return EIO;
	}
	if (outcome != FW_COMMITTED)
		out(" the image is in its slot; it becomes active after %s\n", reset_words[outcome]);
	else if (p->fw.activated_with_download)
		out(" the disk has no deferred activation: it activated the firmware as it saved it\n");
	else
		out(p->now ? " committed and activated\n" : " committed: it becomes active at the next reset\n");
	if ((err = read_back(dev, p, outcome)))
		return err;
	out("Done.\n");
	return 0;
}

int firmware_update_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct fw_plan p;
	int err = plan(dev, s, opt, &p);

	if (err) {
		free(p.image);
		return err;
	}
	if (p.size <= p.fw.piece)
		out(" firmware %s: sending %u bytes in one piece", p.fw.revision, p.size);
	else
		out(" firmware %s: sending %u bytes in pieces of %u", p.fw.revision, p.size, p.fw.piece);
	if (p.slot)
		out(", to slot %u", p.slot);
	out("\n");
	fflush(stdout);
	/* SIGINT, SIGTERM, SIGHUP: noted, and looked for before each piece and the commit. */
	poll_wait_begin();
	err = download(dev, s->v[opt].name, &p);
	/* A signal while the commit was under way: too late to stop it, and said rather than lost. */
	if (p.commit_sent && poll_wait_interrupted())
		complain(" %s: interrupted once the commit was sent: too late to stop it; what it did is said above\n",
			 s->v[opt].name);
	poll_wait_end();
	free(p.image);
	return err;
}
