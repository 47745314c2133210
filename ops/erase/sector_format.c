/*
 * --set-sector-size BYTES on a disk that formats itself to another block
 * size: an NVMe namespace (Format NVM to the LBA format of BYTES, no
 * secure erase) or a SCSI disk (MODE SELECT of the block length, then
 * FORMAT UNIT, which runs on in the background and --format-wait
 * follows).  This file lists the formats on offer, picks one, refuses
 * what the disk says it cannot take before anything is sent, and at the
 * end reads the disk again and has the kernel agree: old -> new.  ATA
 * drives keep 9.65's SET SECTOR CONFIGURATION (sectors.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/fs.h>

#include "checks.h"
#include "erasecheck.h"
#include "erase_record.h"
#include "clock.h"
#include "json.h"
#include "progress.h"
#include "report.h"
#include "sector_format.h"
#include "sysfs.h"

static const char *const performance[4] = { "best", "better", "good", "degraded" };

/* "none, 1, 2": the protection types of bits (bit t: type t, bit 0 none). */
static const char *pi_types_text(unsigned int bits, char *buf, size_t size)
{
	static const char *const names[4] = { "none", "type 1", "type 2", "type 3" };

	buf[0] = '\0';
	for (unsigned int t = 0; t < 4; t++)
		if (bits & (1u << t))
			snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", buf[0] ? ", " : "", names[t]);
	return buf[0] ? buf : "not even none";
}

static void list_formats(const struct disk_block_formats *b, int chosen)
{
	char types[32];

	if (b->unlisted) {
		out(" this disk lists no block lengths (no VPD page B4h): %u-byte blocks now; another length is the disk's to"
		    " take or refuse\n", b->f[b->current].data_bytes);
		return;
	}
	out(" formats on offer (* in use, > chosen):\n");
	for (unsigned int i = 0; i < b->n; i++) {
		out("  %c%c %2u: %5u bytes data, ", i == b->current ? '*' : ' ', (int)i == chosen ? '>' : ' ', i,
		    b->f[i].data_bytes);
		if (b->rated)
			out("%3u bytes metadata, relative performance %u (%s)\n", b->f[i].metadata_bytes, b->f[i].performance,
			    performance[b->f[i].performance & 3]);
		else
			out("protection information: %s\n", pi_types_text(b->f[i].pi_types, types, sizeof(types)));
	}
}

/* What --set-sector-size, --protection-info and --lbaf ask for. */
static struct disk_format_request wanted(const struct settings *s, enum opt_id opt)
{
	return (struct disk_format_request){
		.bytes = (uint32_t)s->v[opt].num,
		.pi_type = s->v[OPT_PROTECTION_INFO].given ? (unsigned int)s->v[OPT_PROTECTION_INFO].num : 0,
	};
}

/*
 * The format of r->bytes that takes r->pi_type: the one --lbaf names, else
 * the best performing (with no metadata, or where protection information is
 * asked for, the least that holds it).  -1: none; -2: the disk lists none,
 * and r->bytes is for it to take or refuse.
 */
static int choose(const struct disk_block_formats *b, const struct settings *s, const struct disk_format_request *r)
{
	int best = -1;

	if (s->v[OPT_LBAF].given)
		return s->v[OPT_LBAF].num < b->n ? (int)s->v[OPT_LBAF].num : -1;
	for (unsigned int i = 0; i < b->n; i++) {
		const struct disk_block_format *f = &b->f[i];

		/* An NVMe format keeps protection information in its metadata; a SCSI disk adds 8 bytes a block. */
		if (f->data_bytes != r->bytes || (b->rated && (r->pi_type ? f->metadata_bytes < 8 : f->metadata_bytes != 0)))
			continue;
		if (best < 0 || f->performance < b->f[best].performance ||
		    (f->performance == b->f[best].performance && f->metadata_bytes < b->f[best].metadata_bytes))
			best = (int)i;
	}
	return best < 0 && b->unlisted ? -2 : best;
}

/* The disk's refusal of the request, said; 0 with r->index set when it may be sent. */
static int refusal(const struct disk_block_formats *b, const struct settings *s, enum opt_id opt,
		   struct disk_format_request *r, int chosen)
{
	const char *name = s->v[opt].name;
	char types[32];

	if (s->v[OPT_LBAF].given && !b->rated) {
		complain(" --lbaf: LBA formats are an NVMe namespace's: this disk has none\n");
		return EINVAL;
	}
	if (s->v[OPT_LBAF].given && chosen < 0) {
		complain(" --lbaf: this namespace has no LBA format %llu (0 to %u)\n", (unsigned long long)s->v[OPT_LBAF].num,
			 b->n - 1);
		return EINVAL;
	}
	if (s->v[OPT_LBAF].given && b->f[chosen].data_bytes != r->bytes) {
		complain(" --lbaf: LBA format %d has %u-byte blocks, not %u\n", chosen, b->f[chosen].data_bytes, r->bytes);
		return EINVAL;
	}
	if (chosen == -1) {
		complain(" %s: this disk has no format of %u-byte blocks %s\n", name, r->bytes,
			 !b->rated ? "(see the list above)"
			 : r->pi_type ? "with metadata for protection information"
				      : "without metadata");
		return EINVAL;
	}
	if (r->pi_type && !b->pi_types) {
		complain(" --protection-info %u: this disk cannot be formatted with protection information\n", r->pi_type);
		return EINVAL;
	}
	if (chosen >= 0 && !(b->f[chosen].pi_types & (1u << r->pi_type))) {
		complain(" --protection-info %u: this disk does not take protection type %u with %u-byte blocks (it takes: %s)\n",
			 r->pi_type, r->pi_type, r->bytes, pi_types_text(b->f[chosen].pi_types, types, sizeof(types)));
		return EINVAL;
	}
	r->index = chosen >= 0 ? (unsigned int)chosen : 0;
	return 0;
}

/* The disk's formats, the one chosen, and its refusal, said; nothing sent but what reads them. */
static int check(struct device *dev, const struct settings *s, enum opt_id opt, struct disk_block_formats *b,
		 struct disk_format_request *r, int *chosen)
{
	int err;

	*r = wanted(s, opt);
	*chosen = -1;
	if (!dev->disk->block_formats)
		return refuse_on_this_disk(dev, s->v[opt].name);
	if ((err = dev->disk->block_formats(dev, b)))
		return say_cause_for(&b->cause, err, s->v[opt].name);
	*chosen = choose(b, s, r);
	if (!dev->formats_shown)
		list_formats(b, *chosen);
	dev->formats_shown = true;
	return refusal(b, s, opt, r, *chosen);
}

static struct disk_format_summary summary_of(const struct disk_block_formats *b)
{
	return (struct disk_format_summary){ .block_bytes = b->f[b->current].data_bytes,
					     .metadata_bytes = b->f[b->current].metadata_bytes,
					     .blocks = b->blocks,
					     .pi_type = b->pi_type };
}

static void pi_words(unsigned int type)
{
	if (type)
		out("type %u", type);
	else
		out("none");
}

/* The kernel's block size agrees with the disk's, rescanning where it does not yet; 0, or EIO said. */
static int kernel_agrees(struct device *dev, uint32_t bytes)
{
	char dir[160];
	int kernel = 0;

	/* A SCSI disk is rescanned by itself, an NVMe namespace with its controller. */
	if (!(ioctl(dev->fd, BLKSSZGET, &kernel) == 0 && (uint32_t)kernel == bytes) &&
	    sysfs_disk_dir(dev->fd, dir, sizeof(dir))) {
		(void)sysfs_write_line(dir, "device/rescan", "1");
		(void)sysfs_write_line(dir, "device/rescan_controller", "1");
	}
	/* Then the partition table, read again in the new block size (before the rescan, the old one read it). */
	(void)ioctl(dev->fd, BLKRRPART, NULL);
	if (ioctl(dev->fd, BLKSSZGET, &kernel) == 0 && (uint32_t)kernel == bytes)
		return 0;
	complain(" --set-sector-size: the kernel still has %s's block size as %d bytes, the disk %u: reconnect it, or"
		 " reboot, before using it\n", dev->path, kernel, bytes);
	return EIO;
}

/* The format ended: the disk read again, old -> new, and the kernel made to agree. */
static int after_format(struct device *dev, const char *name, bool known_before)
{
	const struct disk_format_summary *before = &dev->format_before, *want = &dev->format_wanted;
	struct disk_block_formats b = { 0 };
	struct disk_format_summary now;
	int err;

	if ((err = dev->disk->block_formats(dev, &b))) {
		erase_run_format_ended(dev, "ended; the disk could not be read again", known_before ? before : NULL, NULL);
		return say_cause_for(&b.cause, err, name);
	}
	now = summary_of(&b);
	erase_run_format_ended(dev, "completed", known_before ? before : NULL, &now);
	if (known_before) {
		out(" block size: %u -> %u bytes; blocks: %llu -> %llu; protection information: ", before->block_bytes,
		    now.block_bytes, (unsigned long long)before->blocks, (unsigned long long)now.blocks);
		pi_words(before->pi_type);
		out(" -> ");
	} else {
		out(" block size: %u bytes; blocks: %llu; protection information: ", now.block_bytes,
		    (unsigned long long)now.blocks);
	}
	pi_words(now.pi_type);
	out("\n");
	json_object_begin("sector_format");
	if (known_before)
		sector_format_json("before", before);
	sector_format_json("after", &now);
	json_object_end();
	if (known_before && (now.block_bytes != want->block_bytes || now.pi_type != want->pi_type)) {
		complain(" %s: the disk reports %u-byte blocks, protection type %u after the format, not the %u and %u asked"
			 " for\n", name, now.block_bytes, now.pi_type, want->block_bytes, want->pi_type);
		return EIO;
	}
	return kernel_agrees(dev, now.block_bytes);
}

void sector_format_preview(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct disk_block_formats b = { 0 };
	struct disk_format_request r = wanted(s, opt);

	/* Nothing where the disk cannot say: its refusal comes with the step. */
	if (dev->disk->block_formats && !dev->disk->block_formats(dev, &b)) {
		list_formats(&b, choose(&b, s, &r));
		dev->formats_shown = true;
	}
}

int sector_format_check(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct disk_block_formats b = { 0 };
	struct disk_format_request r;
	int chosen = -1, err;

	if ((err = check(dev, s, opt, &b, &r, &chosen)))
		dev->refused = true;
	return err;
}

/*
 * A signal while a format that ends with its command runs in the disk:
 * the record says interrupted, and the JSON's sector_format object says
 * where it stopped (the disk goes on by itself).  From the thread that
 * waits for signals.
 */
static void format_interrupted(void *device, int sig)
{
	struct device *dev = device;

	erase_record_interrupted(dev, sig);
	json_object_begin("sector_format");
	sector_format_json("before", &dev->format_before);
	json_bool("interrupted", true);
	json_bool("drive_continues", true);
	json_uint("signal", (unsigned int)sig);
	json_object_end();
}

int sector_format_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const char *name = s->v[opt].name;
	struct disk_block_formats before = { 0 };
	struct disk_format_request r;
	struct disk_cause cause = { 0 };
	int chosen = -1, err;

	if ((err = check(dev, s, opt, &before, &r, &chosen))) {
		dev->refused = true;
		return err;
	}
	if (before.f[before.current].data_bytes == r.bytes && before.pi_type == r.pi_type &&
	    (chosen < 0 || (unsigned int)chosen == before.current)) {
		out(" already formatted with %u-byte blocks: nothing sent\n", r.bytes);
		return 0;
	}
	{
		char command[96];

		snprintf(command, sizeof(command), "%s %s to %u-byte blocks, protection type %u", dev->disk->kind,
			 before.command ? before.command : "format", r.bytes, r.pi_type);
		dev->format_before = summary_of(&before);
		if ((err = erase_format_about_to_send(dev, command, &dev->format_before)))
			return err;
	}
	if (before.rated)
		out(" formatting to %u-byte blocks (format %u), %s metadata, ", r.bytes, r.index,
		    before.f[r.index].metadata_bytes ? "with" : "no");
	else
		out(" formatting to %u-byte blocks, ", r.bytes);
	if (r.pi_type)
		out("protection information type %u\n", r.pi_type);
	else
		out("no protection information\n");
	fflush(stdout);
	if (dev->disk->block_format_poll) {
		err = dev->disk->block_format_set(dev, &r, &cause);
	} else {
		/* The format ends with its command (NVMe Format NVM): a signal meanwhile is reported, not lost. */
		static char interrupted[512];
		struct long_command lc;

		snprintf(interrupted, sizeof(interrupted), " %s: hdparm was interrupted: the format of %s goes on in the"
			 " disk, which is not usable until it ends\n", name, dev->path);
		long_command_begin(&lc, "formatting", 0, interrupted, false, format_interrupted, dev);
		err = dev->disk->block_format_set(dev, &r, &cause);
		long_command_end(&lc);
	}
	if (err)
		return say_cause_for(&cause, err, name);
	dev->format_wanted = (struct disk_format_summary){ .block_bytes = r.bytes, .pi_type = r.pi_type };
	if (!dev->disk->block_format_poll)
		return after_format(dev, name, true);
	/* It goes on in the disk: --format-wait follows it, as --sanitize-wait follows a sanitize. */
	dev->format_started = true;
	if (s->v[OPT_FORMAT_WAIT].given)
		return 0;
	out("Format started in background: the disk answers NOT READY until it ends\n");
	out("You may use `--format-wait` to follow it, and to have the kernel see the new size\n");
	json_object_begin("sector_format");
	sector_format_json("before", &dev->format_before);
	json_bool("started_in_background", true);
	json_object_end();
	return 0;
}

int sector_format_wait_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const char *name = s->v[opt].name;
	struct disk_format_poll p;
	struct status_line line;
	bool seen_running = false;
	unsigned int from = 0;
	double start = monotonic_seconds();
	int err;

	if (s->v[OPT_SET_SECTOR_SIZE].given && !dev->format_started)
		return 0;	/* nothing started, or a format that ended with its command: said above */
	if (!dev->disk->block_format_poll) {
		if (!dev->disk->block_formats)
			return refuse_on_this_disk(dev, name);
		out("No format in progress (this disk's format ends with its command)\n");
		return 0;
	}
	poll_wait_begin();
	status_begin(&line, !dev->run.json);
	for (;;) {
		p = (struct disk_format_poll){ 0 };
		if ((err = dev->disk->block_format_poll(dev, &p)) || !p.running)
			break;
		if (!seen_running)
			from = p.progress;
		seen_running = true;
		if (poll_wait_interrupted())
			break;
		if (p.has_progress)
			draw_rate_status(&line, "format", p.progress, from, monotonic_seconds() - start);
		sleep(1);
	}
	status_end(&line);
	poll_wait_end();
	if (err)
		return say_cause_for(&p.cause, err, name);
	if (p.running)
		return poll_wait_report_interrupt_of(name, "format", "--format-wait");
	if (p.failed) {
		erase_run_format_ended(dev, p.detail, dev->format_started ? &dev->format_before : NULL, NULL);
		complain(" %s: %s\n", name, p.detail);
		json_object_begin("sector_format");
		json_bool("failed", true);
		json_string("detail", p.detail);
		json_object_end();
		return EIO;
	}
	if (!seen_running && !dev->format_started) {
		out("No format in progress\n");
		return 0;
	}
	out("Format completed\n");
	return after_format(dev, name, dev->format_started);
}
