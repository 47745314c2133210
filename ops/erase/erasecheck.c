/*
 * What a disk reads after an erase, from a sample of its blocks: the
 * standards let a block erase leave zeros, ones or anything the drive
 * likes, and a cryptographic erase leave what the old data decrypts to
 * under a new key; the user is told which, from the disk itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/fs.h>

#include "array.h"
#include "erase_verify.h"
#include "erasecheck.h"
#include "inuse.h"
#include "reach.h"
#include "sysfs.h"
#include "json.h"
#include "largefile.h"
#include "report.h"
#include "tcg_locked.h"
#include "unaligned.h"

static const char *const sanitize_actions[] = {
	[SANITIZE_BLOCK_ERASE] = "block_erase",
	[SANITIZE_CRYPTO_ERASE] = "crypto_erase",
	[SANITIZE_OVERWRITE] = "overwrite",
	[SANITIZE_EXIT_FAILURE] = "exit_failure_mode",
};

void erase_json_sanitize(enum sanitize_action action, int err)
{
	if ((size_t)action >= ARRAY_SIZE(sanitize_actions))
		return;
	json_object_begin("sanitize");
	json_string("action", sanitize_actions[action]);
	json_string("outcome", err ? "failed" : action == SANITIZE_EXIT_FAILURE ? "done" : "started");
	json_object_end();
}

void erase_json_sanitize_interrupted(enum sanitize_action action, int sig)
{
	if ((size_t)action >= ARRAY_SIZE(sanitize_actions))
		return;
	json_object_begin("sanitize");
	json_string("action", sanitize_actions[action]);
	json_string("outcome", "interrupted");
	json_bool("interrupted", true);
	json_bool("drive_continues", true);
	json_uint("signal", (unsigned int)sig);
	json_object_end();
}

void erase_json_sanitize_status(const struct sanitize_poll *p)
{
	static const char *const keys[] = { "overwrite", "block_erase", "crypto_erase" };

	json_object_begin("sanitize_status");
	json_string("status", p->status);
	if (p->has_progress)
		json_uint("progress", p->progress);
	if (p->has_log) {
		json_uint("overwrite_passes_done", p->passes);
		json_bool("global_data_erased", p->global_erased);
		json_object_begin("estimated_seconds");
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			if (p->estimates[i] == UINT32_MAX)
				json_null(keys[i]);
			else
				json_uint(keys[i], p->estimates[i]);
		json_object_end();
	}
	json_object_end();
}


/* The disks to sample: those the erase reached (the preflight found them), else the disk named. */
static const struct reach *disks_of(struct device *dev)
{
	if (!dev->reach_valid) {
		disk_reach(dev, REACH_NAMED, &dev->reach);
		dev->reach_valid = true;
	}
	return &dev->reach;
}

/* The node to read disk d through: the one the user named where it is that disk. */
static const char *node_of(const struct device *dev, const struct reached_disk *d)
{
	return d->devnum == block_device_of(dev->fd) ? dev->path : d->node;
}

/*
 * The page cache of every disk reached: written out before the erase, so
 * that no dirty page (a mkfs that never synced) lands on the disk after
 * it, and dropped after it, so that nothing stale is read back.
 */
static void flush_caches(const struct device *dev, const struct reach *r)
{
	sync();
	for (unsigned int i = 0; i < r->n; i++) {
		const char *path = node_of(dev, &r->disk[i]);
		int fd = path[0] ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;

		if (fd < 0)
			continue;
		fsync(fd);
		ioctl(fd, BLKFLSBUF, NULL);
		close(fd);
	}
}

/* A disk open for its sample: O_DIRECT, its size in blocks and its block size. */
struct sample_disk {
	int fd;
	uint64_t blocks;
	unsigned int lbs;
	void *buf;
};

/* 0, or an errno with why in *why (nothing said). */
static int sample_open(const char *path, struct sample_disk *sd, const char **why)
{
	unsigned long long size = 0;
	struct stat st;
	int lbs = 0;

	sd->buf = NULL;
	sd->fd = path[0] ? open(path, O_RDONLY | O_DIRECT | O_CLOEXEC) : -1;
	if (sd->fd < 0) {
		*why = path[0] ? "could not be opened" : "has no node in /dev";
		return path[0] ? errno : ENOENT;
	}
	if (fstat(sd->fd, &st) || !S_ISBLK(st.st_mode) || ioctl(sd->fd, BLKGETSIZE64, &size) ||
	    ioctl(sd->fd, BLKSSZGET, &lbs) || lbs < 512 || size < (unsigned long long)lbs ||
	    posix_memalign(&sd->buf, 4096, (size_t)lbs) || !sd->buf) {
		close(sd->fd);
		sd->fd = -1;
		*why = "is not a block device of known size";
		return EINVAL;
	}
	sd->lbs = (unsigned int)lbs;
	sd->blocks = size / (unsigned int)lbs;
	return 0;
}

static void sample_close(struct sample_disk *sd)
{
	free(sd->buf);
	if (sd->fd >= 0)
		close(sd->fd);
}

/* Block i of the sample into sd->buf: its LBA, or an errno (*got: what pread said). */
static int sample_read(struct sample_disk *sd, unsigned int i, uint64_t *lba, ssize_t *got)
{
	*lba = erase_sample_lba(i, ERASE_SAMPLE_BLOCKS, sd->blocks);
	*got = pread(sd->fd, sd->buf, sd->lbs, (off_t)(*lba * sd->lbs));
	return *got == (ssize_t)sd->lbs ? 0 : *got < 0 ? errno : EIO;
}

void erase_sample_before(struct device *dev, enum erase_kind kind, uint32_t pattern, const char *command)
{
	const struct reach *r = disks_of(dev);
	struct erase_run *rec;

	flush_caches(dev, r);
	erase_run_free(dev);
	rec = calloc(1, sizeof(*rec));
	if (!rec)
		return;
	dev->erase = rec;
	rec->kind = kind;
	rec->pattern = pattern;
	rec->sent = true;
	snprintf(rec->command, sizeof(rec->command), "%s", command);
	rec->began = time(NULL);
	for (unsigned int i = 0; i < r->n; i++) {
		struct erase_before *b = &rec->disk[rec->n++];
		struct sample_disk sd = { .fd = -1 };
		const char *why;
		ssize_t got;

		b->devnum = r->disk[i].devnum;
		if (sample_open(node_of(dev, &r->disk[i]), &sd, &why))
			continue;
		while (b->blocks < ERASE_SAMPLE_BLOCKS && sample_read(&sd, b->blocks, &b->lba[b->blocks], &got) == 0) {
			b->hash[b->blocks] = erase_block_hash(sd.buf, sd.lbs);
			b->blocks++;
		}
		if (b->blocks < ERASE_SAMPLE_BLOCKS)
			b->blocks = 0;	/* a partial sample compares nothing */
		sample_close(&sd);
	}
}

void erase_run_sent(struct device *dev, enum erase_kind kind, const char *command)
{
	struct erase_run *rec;

	erase_run_free(dev);
	if (!(rec = calloc(1, sizeof(*rec))))
		return;
	dev->erase = rec;
	rec->kind = kind;
	rec->sent = true;
	snprintf(rec->command, sizeof(rec->command), "%s", command);
	rec->began = time(NULL);
}

void erase_run_not_sent(struct device *dev)
{
	if (dev->erase) {
		dev->erase->sent = false;
		dev->erase->began = 0;
	}
}

static const struct erase_before *before_of(const struct device *dev, dev_t devnum)
{
	for (unsigned int i = 0; dev->erase && i < dev->erase->n; i++)
		if (dev->erase->disk[i].devnum == devnum && dev->erase->disk[i].blocks)
			return &dev->erase->disk[i];
	return NULL;
}

/* Read disk d's sample into *sm; 0 or an errno, said. */
static int read_sample(struct device *dev, const struct reached_disk *d, struct erase_sample *sm, uint32_t *pattern,
		       bool have_pattern, bool learn_pattern)
{
	const struct erase_before *before = before_of(dev, d->devnum);
	const char *path = node_of(dev, d), *why;
	struct sample_disk sd = { .fd = -1 };
	int err = sample_open(path, &sd, &why);

	if (err) {
		complain(" after the erase: %s %s, so its blocks were not read back\n", path[0] ? path : d->name, why);
		return err;
	}
	sm->compared = before != NULL;
	for (unsigned int i = 0; i < ERASE_SAMPLE_BLOCKS; i++) {
		enum erase_block b;
		uint64_t lba;
		ssize_t got;

		if ((err = sample_read(&sd, i, &lba, &got))) {
			complain(" after the erase: reading block %llu of %s failed: %s\n", (unsigned long long)lba, path,
				 got < 0 ? strerror(err) : "short read");
			tcg_say_if_locked(dev);
			break;
		}
		if (i == 0 && learn_pattern && sd.buf)
			*pattern = get_be32(sd.buf);
		b = erase_classify(sd.buf, sd.lbs, *pattern, have_pattern);
		sm->counts[b]++;
		if (b != ERASED_OTHER)
			continue;
		if (!sm->any_other) {
			sm->any_other = true;
			sm->first_other = lba;
		}
		if (before && before->lba[i] == lba && before->hash[i] == erase_block_hash(sd.buf, sd.lbs) &&
		    sm->unchanged++ == 0)
			sm->first_unchanged = lba;
	}
	sample_close(&sd);
	return err;
}

/* The verdict of one disk's sample, and its line; EIO for blocks the erase did not change. */
static const char *judge(const struct erase_sample *sm, enum erase_kind kind, uint32_t pattern, const char *who, int *err)
{
	const unsigned int n = ERASE_SAMPLE_BLOCKS;

	*err = 0;
	if (sm->unchanged) {
		out("after the erase:%s %u of the %u blocks sampled over the disk read as they did before it (the first at"
		    " LBA %llu): the erase did not change them\n",
		    who, sm->unchanged, n, (unsigned long long)sm->first_unchanged);
		complain(" after the erase:%s %u of %u blocks sampled read as before it: they were not erased\n", who,
			 sm->unchanged, n);
		*err = EIO;
		return "unchanged";
	}
	if (sm->counts[ERASED_ZEROS] == n) {
		out("after the erase:%s all %u blocks sampled over the disk read as zeros\n", who, n);
		return "zeros";
	}
	if (sm->counts[ERASED_PATTERN] == n) {
		out("after the erase:%s all %u blocks sampled over the disk read as the pattern 0x%08x\n", who, n, pattern);
		return "pattern";
	}
	/* An overwrite asked for one pattern: any other block is one it did not write. */
	if (kind == ERASE_TO_PATTERN) {
		unsigned int wrong = n - sm->counts[ERASED_PATTERN];

		out("after the erase:%s %u of the %u blocks sampled over the disk do not read as the pattern 0x%08x asked for"
		    " (%u read as zeros)\n", who, wrong, n, pattern, sm->counts[ERASED_ZEROS]);
		complain(" after the erase:%s %u of %u blocks sampled do not hold the pattern 0x%08x: the overwrite did not"
			 " write them\n", who, wrong, n, pattern);
		*err = EIO;
		return "not_pattern";
	}
	if (sm->counts[ERASED_OTHER] == n && kind == ERASE_CRYPTO) {
		out("after the erase:%s the %u blocks sampled over the disk are not zeros, as expected of a cryptographic"
		    " erase%s\n", who, n, sm->compared ? ", and none reads as before it" : "");
		return "not_zeros";
	}
	if (sm->counts[ERASED_OTHER] == n && kind == ERASE_TO_SOME_PATTERN) {
		out("after the erase:%s none of the %u blocks sampled over the disk reads as zeros or as one repeated pattern"
		    " (as after a cryptographic erase)\n", who, n);
		return "not_zeros";
	}
	out("after the erase:%s of %u blocks sampled over the disk, %u read as zeros, %u as the pattern and %u as other data"
	    " (the first at LBA %llu)\n",
	    who, n, sm->counts[ERASED_ZEROS], sm->counts[ERASED_PATTERN], sm->counts[ERASED_OTHER],
	    (unsigned long long)sm->first_other);
	return "mixed";
}

void erase_json_checked(const struct erase_checked *c, enum erase_kind kind)
{
	json_object_begin(NULL);
	json_string("device", c->device);
	json_uint("blocks", c->blocks);
	if (c->blocks) {
		json_uint("zeros", c->sm.counts[ERASED_ZEROS]);
		json_uint("pattern", c->sm.counts[ERASED_PATTERN]);
		json_uint("other", c->sm.counts[ERASED_OTHER]);
		json_bool("compared_with_before", c->sm.compared);
		json_uint("unchanged", c->sm.unchanged);
	}
	json_string("verdict", c->verdict);
	if (c->full)
		erase_verify_json(c->full, kind);
	json_object_end();
}

void erase_run_free(struct device *dev)
{
	for (unsigned int i = 0; dev->erase && i < dev->erase->n_checked; i++)
		free(dev->erase->checked_disk[i].full);
	free(dev->erase);
	dev->erase = NULL;
}

/* --erase-verify full: disk d read back whole into c->full; 0 or an errno. */
static int verify_whole(const struct device *dev, const struct reached_disk *d, enum erase_kind kind, uint32_t pattern,
			const char *who, struct erase_checked *c)
{
	struct verify_full *v = calloc(1, sizeof(*v));
	int err = v ? erase_verify_full(node_of(dev, d), kind, pattern, before_of(dev, d->devnum), !dev->run.json, v)
		    : ENOMEM;

	/* An interrupted read-back is kept: the record says how far it got. */
	if (err && !(v && v->interrupted)) {
		free(v);
		return err;
	}
	c->full = v;
	if (err)
		return err;
	err = erase_verify_say(v, kind, who);
	/* Every block the host reaches is not the whole medium where the drive hides some. */
	if (dev->erase && dev->erase->have_hidden)
		erase_verify_say_hidden(&dev->erase->hidden, who);
	return err;
}

/* The run's erase, where the check comes without one this run started (--sanitize-wait alone). */
static struct erase_run *erase_run_of(struct device *dev, enum erase_kind kind, uint32_t pattern)
{
	if (!dev->erase && (dev->erase = calloc(1, sizeof(*dev->erase)))) {
		dev->erase->kind = kind;
		dev->erase->pattern = pattern;
	}
	return dev->erase;
}

void erase_run_hidden(struct device *dev)
{
	if (dev->erase && dev->disk->hidden_areas)
		dev->erase->have_hidden = dev->disk->hidden_areas(dev, &dev->erase->hidden) == 0;
}

void sector_format_json(const char *key, const struct disk_format_summary *f)
{
	if (!f) {
		json_null(key);
		return;
	}
	json_object_begin(key);
	json_uint("block_bytes", f->block_bytes);
	json_uint("metadata_bytes", f->metadata_bytes);
	json_uint("blocks", f->blocks);
	json_uint("protection_type", f->pi_type);
	json_object_end();
}

void erase_run_format_sent(struct device *dev, const char *command, const struct disk_format_summary *before)
{
	struct erase_run *run;

	erase_run_free(dev);
	if (!(run = erase_run_of(dev, ERASE_TO_SOME_PATTERN, 0)))
		return;
	run->format = run->sent = true;
	snprintf(run->command, sizeof(run->command), "%s", command);
	run->began = time(NULL);
	/* Known from the start: a wait that is interrupted still records what the disk was. */
	if ((run->have_before = before != NULL))
		run->format_before = *before;
}

void erase_run_format_ended(struct device *dev, const char *status, const struct disk_format_summary *before,
			    const struct disk_format_summary *after)
{
	struct erase_run *run = erase_run_of(dev, ERASE_TO_SOME_PATTERN, 0);

	if (!run)
		return;
	run->format = true;
	run->ended = time(NULL);
	snprintf(run->drive_status, sizeof(run->drive_status), "%s", status);
	if (before) {
		run->have_before = true;
		run->format_before = *before;
	}
	if ((run->have_after = after != NULL))
		run->format_after = *after;
}

void erase_run_status(struct device *dev, const char *status)
{
	struct erase_run *run = erase_run_of(dev, ERASE_TO_SOME_PATTERN, 0);

	if (run)
		snprintf(run->drive_status, sizeof(run->drive_status), "%s", status);
}

int erase_check(struct device *dev, enum erase_kind kind, uint32_t pattern, bool full)
{
	const struct reach *r = disks_of(dev);
	struct erase_run *run = erase_run_of(dev, kind, pattern);
	struct erase_checked none = { 0 };
	int status = 0;

	flush_caches(dev, r);
	if (!run)
		return ENOMEM;
	/* What this run started is known better than what the caller can tell afterwards. */
	kind = run->kind;
	pattern = run->pattern;
	run->checked = true;
	run->ended = time(NULL);
	run->n_checked = 0;
	if (!r->n) {
		/* Not a failure: an sg node of no disk, a controller of no namespace, has no blocks to read. */
		out("after the erase: %s is not a block device, so no blocks were read back (read the disk's"
		    " block device to see what it holds now)\n", dev->path);
		snprintf(none.device, sizeof(none.device), "%s", dev->path);
		none.verdict = "not_read";
		run->checked_disk[run->n_checked++] = none;
	}
	for (unsigned int i = 0; i < r->n; i++) {
		const struct reached_disk *d = &r->disk[i];
		struct erase_checked *c = &run->checked_disk[run->n_checked++];
		bool some = kind == ERASE_TO_SOME_PATTERN;
		uint32_t p = pattern;
		char who[80] = "";
		int err;

		*c = none;
		snprintf(c->device, sizeof(c->device), "%s", node_of(dev, d)[0] ? node_of(dev, d) : d->name);
		err = read_sample(dev, d, &c->sm, &p, kind == ERASE_TO_PATTERN || some, some);
		/* One disk is "the disk"; several are named, each with its verdict. */
		if (r->n > 1)
			snprintf(who, sizeof(who), " %s:", c->device);
		c->blocks = err ? 0 : ERASE_SAMPLE_BLOCKS;
		c->verdict = err ? "not_read" : judge(&c->sm, kind, p, who, &err);
		if (err && !status)
			status = err;
		/* Read whole where the sample could be read (the same node would fail again). */
		if (full && (!err || err == EIO) && (err = verify_whole(dev, d, kind, p, who, c)) && !status)
			status = err;
		/* Interrupted: the disks after this one are not read either. */
		if (err == EINTR) {
			status = err;
			break;
		}
	}
	json_array_begin("erase_check");
	for (unsigned int i = 0; i < run->n_checked; i++)
		erase_json_checked(&run->checked_disk[i], kind);
	json_array_end();
	return status;
}
