/*
 * --scan-repair (see scan_repair.h).  A drive reallocates a sector it
 * cannot read only when it is written; a sector written whole, as 9.65's
 * --repair-sector writes one, is the physical sector: a write of one
 * 512-byte logical sector of a 4096-byte physical one makes the drive read
 * the other seven first, which fails on the bad one.  So the physical
 * sector is written whole, its readable logical sectors with the bytes
 * they hold (nothing readable is lost), zeros where one cannot be read.
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

#include "device.h"
#include "json.h"
#include "progress.h"
#include "report.h"
#include "scan_counts.h"
#include "scan_repair.h"

uint64_t repair_physical_first(uint64_t lba, uint32_t per_physical)
{
	return per_physical > 1 ? lba - lba % per_physical : lba;
}

uint32_t repair_physical_count(uint64_t first, uint32_t per_physical, uint64_t sectors)
{
	uint32_t n = per_physical ? per_physical : 1;

	return first + n > sectors ? (uint32_t)(sectors - first) : n;
}

/* One listed LBA read again, up to SCAN_REPAIR_RETRIES times: 0 once it reads, else the last errno. */
static int retry(const struct repair_io *io, uint64_t lba, unsigned char *slot)
{
	int err = 0;

	for (int i = 0; i < SCAN_REPAIR_RETRIES; i++) {
		err = io->read(io->ctx, lba, 1, slot);
		if (!err || !scan_unreadable_errno(err))
			return err;
	}
	return err;
}

/* The disk still answers: good_lba (a sector the scan read) reads again.  Without one known, taken as yes. */
static bool answers(const struct repair_io *io)
{
	unsigned char *spare = io->buf + (size_t)io->per_physical * io->sector_bytes;

	return !io->have_good || io->read(io->ctx, io->good_lba, 1, spare) == 0;
}

/* A failure that is the medium's: the disk still answers; else ENXIO (it stopped answering). */
static int medium_or_gone(const struct repair_io *io, int err)
{
	if (!err || !scan_unreadable_errno(err))
		return err;
	return answers(io) ? 0 : ENXIO;
}

/* The failing listed LBAs of e[0..n) not written, and why. */
static void not_written(struct repair_entry *e, size_t n, uint64_t first, uint32_t count, enum repair_why why,
			uint64_t unnamed)
{
	for (size_t k = 0; k < n; k++) {
		if (e[k].outcome != REPAIR_STILL_UNREADABLE)
			continue;
		e[k].outcome = REPAIR_NOT_WRITTEN;
		e[k].why = why;
		e[k].phys_first = first;
		e[k].phys_count = count;
		e[k].unnamed = unnamed;
	}
}

/*
 * The listed LBAs e[0..n) of the physical sector at first (count logical
 * sectors): retried; where one fails still, the sector written and each
 * failing one read back.  tried[s]: 1 read, 2 failed (a listed one).
 */
static int repair_physical(const struct repair_io *io, struct repair_entry *e, size_t n, uint64_t first, uint32_t count,
			   unsigned char *tried, struct repair_result *res, size_t at)
{
	size_t failing = 0;
	int err;

	memset(tried, 0, count);
	for (size_t k = 0; k < n; k++) {
		uint32_t s = (uint32_t)(e[k].lba - first);

		err = retry(io, e[k].lba, io->buf + (size_t)s * io->sector_bytes);
		if (err && !scan_unreadable_errno(err))
			return err;
		e[k].outcome = err ? REPAIR_STILL_UNREADABLE : REPAIR_READS_NOW;
		e[k].err = err;
		tried[s] = err ? 2 : 1;
		failing += err != 0;
	}
	if (!failing)
		return 0;
	if (first < io->scanned_first || first + count - 1 > io->scanned_last) {
		not_written(e, n, first, count, REPAIR_OUTSIDE, 0);
		return 0;
	}
	for (uint32_t s = 0; s < count; s++) {
		unsigned char *slot = io->buf + (size_t)s * io->sector_bytes;

		if (tried[s] == 2)
			memset(slot, 0, io->sector_bytes);
		else if (!tried[s] && (err = retry(io, first + s, slot))) {
			if ((err = medium_or_gone(io, err)))
				return err;
			not_written(e, n, first, count, REPAIR_UNNAMED, first + s);
			return 0;
		}
	}
	/* The disk answers still (its failures are the medium's): else nothing is written to it. */
	if (!answers(io))
		return ENXIO;
	err = io->write(io->ctx, first, count, io->buf);
	res->w[res->writes++] = (struct repair_write){ .first = first, .count = count, .from = at, .to = at + n, .err = err };
	if ((err = medium_or_gone(io, err)))
		return err;
	for (size_t k = 0; k < n; k++) {
		int again;

		if (e[k].outcome != REPAIR_STILL_UNREADABLE)
			continue;
		if (res->w[res->writes - 1].err) {	/* the drive refused the write: nothing to read back */
			e[k].err = res->w[res->writes - 1].err;
			continue;
		}
		again = io->read(io->ctx, e[k].lba, 1, io->buf);
		if (again && !scan_unreadable_errno(again))
			return again;
		e[k].outcome = again ? REPAIR_STILL_UNREADABLE : REPAIR_REWRITTEN;
		e[k].err = again;
		if ((again = medium_or_gone(io, again)))
			return again;
	}
	return 0;
}

int scan_repair_run(const struct repair_io *io, const uint64_t *bad, size_t nbad, struct repair_result *res)
{
	uint32_t per = io->per_physical ? io->per_physical : 1;
	unsigned char *tried = calloc(per, 1);
	int err = 0;

	res->e = calloc(nbad ? nbad : 1, sizeof(*res->e));
	res->w = calloc(nbad ? nbad : 1, sizeof(*res->w));
	res->n = nbad;
	res->scanned_first = io->scanned_first;
	res->scanned_last = io->scanned_last;
	if (!tried || !res->e || !res->w) {
		free(tried);
		res->n = 0;
		return res->err = ENOMEM;
	}
	for (size_t i = 0; i < nbad; i++)
		res->e[i].lba = bad[i];
	for (size_t i = 0, j; i < nbad && !err; i = j) {
		uint64_t first = repair_physical_first(bad[i], per);
		uint32_t count = repair_physical_count(first, per, io->sectors);

		/* A signal: the sector in hand is finished, never left half written; the next is not begun. */
		if (io->stop && io->stop()) {
			err = EINTR;
			break;
		}
		for (j = i; j < nbad && bad[j] >= first && bad[j] < first + count; j++)
			;
		if (j == i) {	/* past the device's end (it shrank): not a sector to write */
			res->e[i].outcome = REPAIR_STILL_UNREADABLE;
			res->e[i].err = ENXIO;
			res->done = j = i + 1;
			continue;
		}
		err = repair_physical(io, res->e + i, j - i, first, count, tried, res, i);
		/* Written, then the disk gone (its read back): decided all the same, still unreadable as far as known. */
		if (!err || (res->writes && res->w[res->writes - 1].from == i))
			res->done = j;
	}
	free(tried);
	return res->err = err;
}

void repair_result_free(struct repair_result *res)
{
	free(res->e);
	free(res->w);
	res->e = NULL;
	res->w = NULL;
	res->writes = 0;
	res->n = res->done = 0;
}

static const char *const outcome_text[] = {
	[REPAIR_READS_NOW] = "reads now, not written",
	[REPAIR_REWRITTEN] = "rewritten, reads now",
	[REPAIR_STILL_UNREADABLE] = "still unreadable",
	[REPAIR_NOT_WRITTEN] = "not written",
};

/* Why e (REPAIR_NOT_WRITTEN) was not written, in words (the text's and the JSON's). */
static void why_text(const struct repair_entry *e, const struct repair_result *res, char *t, size_t size)
{
	unsigned long long pf = e->phys_first, pl = e->phys_first + e->phys_count - 1;

	if (e->why == REPAIR_OUTSIDE)
		snprintf(t, size, "its physical sector, LBA %llu to %llu, reaches outside the LBAs the scan read"
			 " (%llu to %llu); a scan of all of it (--scan-range %llu-%llu) lets it be repaired", pf, pl,
			 (unsigned long long)res->scanned_first, (unsigned long long)res->scanned_last, pf, pl);
	else
		snprintf(t, size, "LBA %llu of its physical sector (LBA %llu to %llu) cannot be read and the scan did"
			 " not name it: the write would zero it", (unsigned long long)e->unnamed, pf, pl);
}

/* Why the entries from res->done on were not decided. */
static const char *undone_text(const struct repair_result *res)
{
	return res->err == EINTR ? "interrupted" : res->err == ENXIO ? "the disk stopped answering" : strerror(res->err);
}

void scan_repair_text(const struct repair_result *res)
{
	out(" repair of the unreadable LBAs (each read %d more times; physical sectors of %u bytes written):%s\n",
	    SCAN_REPAIR_RETRIES, res->physical_bytes, res->n ? "" : " none");
	for (size_t i = 0; i < res->done; i++) {
		const struct repair_entry *e = &res->e[i];
		char why[256];

		if (e->outcome == REPAIR_NOT_WRITTEN) {
			why_text(e, res, why, sizeof(why));
			out("  LBA %llu: not written: %s\n", (unsigned long long)e->lba, why);
		} else if (e->outcome == REPAIR_STILL_UNREADABLE && e->err)
			out("  LBA %llu: %s (%s)\n", (unsigned long long)e->lba, outcome_text[e->outcome], strerror(e->err));
		else
			out("  LBA %llu: %s\n", (unsigned long long)e->lba, outcome_text[e->outcome]);
	}
	for (size_t i = res->done; i < res->n; i++)
		out("  LBA %llu: not repaired (%s)\n", (unsigned long long)res->e[i].lba, undone_text(res));
	/* Every sector written named: the zeroed ones, and the others of its physical sector (their own bytes). */
	for (size_t i = 0; i < res->writes; i++) {
		const struct repair_write *w = &res->w[i];
		const char *sep = "";

		if (w->count == 1)
			out("  written: LBA %llu (zeros)", (unsigned long long)w->first);
		else {
			out("  written: LBA %llu to %llu (zeros at LBA", (unsigned long long)w->first,
			    (unsigned long long)(w->first + w->count - 1));
			for (size_t k = w->from; k < w->to; k++)
				if (res->e[k].outcome != REPAIR_READS_NOW) {
					out("%s %llu", sep, (unsigned long long)res->e[k].lba);
					sep = ",";
				}
			out("; the others their own bytes)");
		}
		if (w->err)
			out(", the write failed: %s", strerror(w->err));
		out("\n");
	}
	if (res->before)
		scan_counts_text("before", res->before);
	if (res->after)
		scan_counts_text("after", res->after);
}

void scan_repair_map_note(const struct repair_result *res, const char *map)
{
	size_t n = 0;

	for (size_t i = 0; i < res->done; i++)
		n += res->e[i].outcome != REPAIR_STILL_UNREADABLE;
	/* The map is the scan's record, written before the repair: a resume with it would report these as unreadable. */
	if (n)
		complain(" --scan-map %s: the map keeps the scan's findings, not the repair: it still names %zu sector%s"
			 " unreadable that read%s now; a scan with a new map reads %s again\n", map, n, n == 1 ? "" : "s",
			 n == 1 ? "s" : "", n == 1 ? "it" : "them");
}

static void lbas(const char *key, const struct repair_result *res, enum repair_outcome want, bool undone)
{
	json_array_begin(key);
	for (size_t i = 0; i < res->n; i++)
		/* Not written (said in not_written): still unreadable too. */
		if (i < res->done ? res->e[i].outcome == want || (undone && res->e[i].outcome == REPAIR_NOT_WRITTEN) : undone)
			json_uint(NULL, res->e[i].lba);
	json_array_end();
}

void scan_repair_json(const struct repair_result *res)
{
	json_uint("physical_sector_bytes", res->physical_bytes);
	lbas("repaired_lbas", res, REPAIR_REWRITTEN, false);
	lbas("reads_now_lbas", res, REPAIR_READS_NOW, false);
	/* Not reached (a signal): not repaired, so still unreadable as far as anyone knows. */
	lbas("still_unreadable_lbas", res, REPAIR_STILL_UNREADABLE, true);
	json_array_begin("written");
	for (size_t i = 0; i < res->writes; i++) {
		const struct repair_write *w = &res->w[i];

		json_object_begin(NULL);
		json_uint("first_lba", w->first);
		json_uint("last_lba", w->first + w->count - 1);
		json_array_begin("zeroed_lbas");
		for (size_t k = w->from; k < w->to; k++)
			if (res->e[k].outcome != REPAIR_READS_NOW)
				json_uint(NULL, res->e[k].lba);
		json_array_end();
		if (w->err)
			json_string("write_error", strerror(w->err));
		json_object_end();
	}
	json_array_end();
	json_array_begin("not_written");
	for (size_t i = 0; i < res->done; i++) {
		const struct repair_entry *e = &res->e[i];
		char why[256];

		if (e->outcome != REPAIR_NOT_WRITTEN)
			continue;
		why_text(e, res, why, sizeof(why));
		json_object_begin(NULL);
		json_uint("lba", e->lba);
		json_uint("physical_first_lba", e->phys_first);
		json_uint("physical_last_lba", e->phys_first + e->phys_count - 1);
		json_string("reason", why);
		json_object_end();
	}
	for (size_t i = res->done; i < res->n; i++) {
		json_object_begin(NULL);
		json_uint("lba", res->e[i].lba);
		json_string("reason", undone_text(res));
		json_object_end();
	}
	json_array_end();
	if (res->before)
		scan_counts_json("drive_counts_before", res->before);
	if (res->after)
		scan_counts_json("drive_counts_after", res->after);
}

/* The block device's side: one fd, O_DIRECT, pread/pwrite of whole logical sectors. */
struct repair_fd {
	int fd;
	unsigned int sector;
};

static int fd_io(void *ctx, uint64_t lba, uint32_t sectors, unsigned char *buf, bool write)
{
	const struct repair_fd *f = ctx;
	size_t bytes = (size_t)sectors * f->sector;
	off_t off = (off_t)(lba * f->sector);
	ssize_t got;

	do
		got = write ? pwrite(f->fd, buf, bytes, off) : pread(f->fd, buf, bytes, off);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return errno;
	if ((size_t)got != bytes)
		return ENXIO;
	/* Through the drive's write cache to its medium before the read back, which would else read the cache. */
	return write && fdatasync(f->fd) ? errno : 0;
}

static int fd_read(void *ctx, uint64_t lba, uint32_t sectors, unsigned char *buf)
{
	return fd_io(ctx, lba, sectors, buf, false);
}

static int fd_write(void *ctx, uint64_t lba, uint32_t sectors, unsigned char *buf)
{
	return fd_io(ctx, lba, sectors, buf, true);
}

/* The device opened for the repair: the same device as scanned, its physical sector size. */
static int open_for_repair(const struct device *dev, unsigned long rdev, struct repair_fd *f, unsigned int *physical)
{
	struct stat st;
	int sector = 0;

	/* O_EXCL: refused while mounted or held, and nobody mounts it meanwhile. */
	f->fd = open(dev->path, O_RDWR | O_DIRECT | O_EXCL | O_CLOEXEC);
	if (f->fd < 0) {
		int err = errno;

		complain(" --scan-repair: %s: cannot open it for writing: %s\n", dev->path, strerror(err));
		return err ? err : EIO;
	}
	if (fstat(f->fd, &st) || st.st_rdev != rdev || ioctl(f->fd, BLKSSZGET, &sector) || sector <= 0) {
		complain(" --scan-repair: %s changed since it was scanned\n", dev->path);
		close(f->fd);
		return ENODEV;
	}
	f->sector = (unsigned int)sector;
	/* No physical size, or one that is not whole logical sectors: the logical sector alone. */
	if (ioctl(f->fd, BLKPBSZGET, physical) || *physical < f->sector || *physical % f->sector || *physical > 1u << 20)
		*physical = f->sector;
	return 0;
}

/* A sector the scan read, in first..last and not listed (r->bad ascending): *lba; false where every one is listed. */
static bool unlisted_sector(const struct scan_result *r, uint64_t last, uint64_t *lba)
{
	uint64_t c = r->first_lba;

	for (size_t i = 0; i < r->nbad && r->bad[i] <= c; i++)
		if (r->bad[i] == c)
			c++;
	*lba = c;
	return c <= last;
}

int scan_repair_device(const struct device *dev, unsigned long rdev, const struct scan_result *r,
		       uint64_t scanned_last, const uint64_t *good_lba, struct repair_result *res)
{
	struct repair_fd f = { .fd = -1 };
	struct repair_io io = { .read = fd_read, .write = fd_write, .ctx = &f, .stop = poll_wait_interrupted };
	unsigned long long bytes = 0;
	void *buf = NULL;
	int err;

	memset(res, 0, sizeof(*res));
	if ((err = open_for_repair(dev, rdev, &f, &res->physical_bytes)))
		return err;
	if (f.sector != r->sector_bytes || ioctl(f.fd, BLKGETSIZE64, &bytes)) {
		complain(" --scan-repair: %s changed since it was scanned\n", dev->path);
		close(f.fd);
		return ENODEV;
	}
	/* One sector more: the read of good_lba, which must not touch the physical sector in hand. */
	if ((err = posix_memalign(&buf, 4096, (size_t)res->physical_bytes + f.sector))) {
		close(f.fd);
		return err;
	}
	io.buf = buf;
	io.sector_bytes = f.sector;
	io.per_physical = res->physical_bytes / f.sector;
	io.sectors = bytes / f.sector;
	io.scanned_first = r->first_lba;
	io.scanned_last = scanned_last;
	io.have_good = good_lba != NULL;
	io.good_lba = good_lba ? *good_lba : 0;
	/*
	 * None read in this run (a map's earlier runs read them all): one
	 * they read, read now, proves the disk answers before anything is
	 * written; where it fails, nothing is.
	 */
	if (!io.have_good && r->nbad && unlisted_sector(r, scanned_last, &io.good_lba)) {
		if (fd_read(&f, io.good_lba, 1, io.buf)) {
			complain(" --scan-repair: %s does not answer: LBA %llu, read by an earlier run of the scan, fails now;"
				 " nothing written\n", dev->path, (unsigned long long)io.good_lba);
			free(buf);
			close(f.fd);
			return ENXIO;
		}
		io.have_good = true;
	}
	/* The caller holds SIGINT, SIGTERM and SIGHUP (poll_wait_begin): a signal ends it between two physical sectors. */
	err = scan_repair_run(&io, r->bad, r->nbad, res);
	free(buf);
	close(f.fd);
	if (err == ENXIO)
		complain(" --scan-repair: %s stopped answering: LBA %llu, read by the scan, fails now; the repair stopped\n",
			 dev->path, (unsigned long long)io.good_lba);
	for (size_t i = 0; !err && i < res->n; i++)
		if (res->e[i].outcome == REPAIR_STILL_UNREADABLE || res->e[i].outcome == REPAIR_NOT_WRITTEN)
			err = EIO;
	return err;
}
