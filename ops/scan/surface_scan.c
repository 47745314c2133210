/*
 * --surface-scan: every LBA of a range read with O_DIRECT, in blocks of
 * 256 logical sectors, one read in flight (the read queue of readq.c at
 * depth 1: pread), each block timed from its submission to its completion
 * and counted in its time class.  A block that fails is read again one
 * sector at a time and each unreadable LBA named (scan_classes.c); a disk
 * that goes away or a short read ends the scan where it stopped.  Nothing
 * is ever written.  SIGINT, SIGTERM and SIGHUP end the scan after the block
 * in flight, and what was read is reported.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


#include "clock.h"
#include "json.h"
#include "largefile.h"
#include "progress.h"
#include "readq.h"
#include "report.h"
#include "scan_check.h"
#include "scan_classes.h"
#include "scan_direct.h"
#include "scan_map.h"
#include "scan_picture.h"
#include "scan_verify.h"
#include "scan_counts.h"
#include "scan_repair.h"
#include "sysfs.h"
#include "surface_scan.h"

/* At most this many blocks in flight unless --scan-depth says (1 MiB each on a 4Kn disk). */
#define SCAN_DEPTH 32u

struct scan_io {
	struct readq q;
	bool short_read;	/* the last read returned fewer bytes than asked */
	bool read_one;		/* a sector was read: good_lba is the last one that read (a map's earlier runs' at first) */
	bool read_here;		/* ... and read in this run */
	uint64_t good_lba;
	bool gone;		/* good_lba failed too: the disk stopped answering */
	struct scan_map *map;	/* --scan-map's (its fd -1: none) */
	struct scan_direct direct;	/* the search's reads, without the kernel's retries (scan_direct.c) */
	scan_read_fn *read;	/* non-NULL: every read is this instead (--scan-verify: the disk's verify command) */
	void *read_ctx;
};

/* What ended the scan before the range's end. */
struct scan_stop {
	int err;		/* the errno; EINTR: a signal; 0 with at_max: --scan-errors-max */
	uint64_t at;		/* the LBA it stopped at */
	bool at_max;
	bool gone;		/* a sector read before fails now: the disk stopped answering */
	uint64_t good_lba;	/* ... that sector */
	bool map_failed;	/* --scan-map's file could not be written (said) */
};

/* One read of sectors at lba into the first buffer: a whole block through the queue, anything shorter with pread(). */
static int read_sectors(void *ctx, uint64_t lba, uint32_t sectors)
{
	struct scan_io *io = ctx;
	size_t bytes = (size_t)sectors * io->q.sector;
	unsigned long long off = lba * io->q.sector;
	struct readq_done done;
	long long res;

	if (io->read)
		return io->read(io->read_ctx, lba, sectors);
	if (bytes == io->q.block) {
		int n;

		readq_queue(&io->q, 0, off);
		n = readq_wait(&io->q, 1, &done);
		res = n < 0 ? n : done.res;
	} else {
		ssize_t got;

		do
			got = pread(io->q.fd, io->q.buffers, bytes, (off_t)off);
		while (got < 0 && errno == EINTR);
		res = got < 0 ? -errno : got;
	}
	io->short_read = res >= 0 && (size_t)res != bytes;
	if (res < 0)
		return (int)-res;
	/* Fewer bytes than asked: the device ended early (it shrank); not a sector the medium lost. */
	return io->short_read ? ENXIO : 0;
}

/*
 * A read of the sector-by-sector search: a signal ends the search at once.
 * On a dying disk each sector may take the kernel's retries, seconds each,
 * and a block holds 256 of them: Ctrl-C must not wait for them all.
 */
static int search_one(struct scan_io *io, uint64_t lba, uint32_t sectors)
{
	/* --scan-verify's commands are the disk's own already: its search verifies a sector at a time too. */
	if (sectors != 1 || io->read)
		return read_sectors(io, lba, sectors);
	return scan_direct_read(&io->direct, lba, read_sectors, io);
}

/*
 * A disk that drops off its bus (or whose backing is gone) fails every
 * read with EIO as a bad medium does.  So each failure of the search is
 * followed by a read of the last sector that read: if that fails too, the
 * disk stopped answering, and the failure is not the medium's (ENXIO: the
 * scan ends; nothing from here on is listed).  A sector read in the search
 * is proof enough that the disk worked, a whole block is not needed.
 */
static int search_read(void *ctx, uint64_t lba, uint32_t sectors)
{
	struct scan_io *io = ctx;
	int err;

	if (poll_wait_interrupted())
		return EINTR;
	err = search_one(io, lba, sectors);
	if (!err) {
		io->read_one = io->read_here = true;
		io->good_lba = lba + sectors - 1;
		return 0;
	}
	if (!scan_unreadable_errno(err) || !io->read_one || !search_one(io, io->good_lba, 1))
		return err;
	io->gone = true;
	return ENXIO;
}

/*
 * A sector a resumed scan's earlier runs read (a map's): the last before
 * next_lba not listed (r->bad ascending), the nearest to where this run
 * begins, into *lba; false where none.
 */
static bool read_before(const struct scan_result *r, uint64_t *lba)
{
	size_t i = r->nbad;

	for (uint64_t c = r->next_lba; c > r->first_lba;) {
		c--;
		while (i && r->bad[i - 1] > c)
			i--;
		if (!i || r->bad[i - 1] != c) {
			*lba = c;
			return true;
		}
	}
	return false;
}

/* The status line; bytes0: the bytes read before this run (a map's), not counted in its rate. */
static void draw(struct status_line *st, const struct scan_result *r, double t0, uint64_t bytes0)
{
	double t = monotonic_seconds() - t0;
	double done = (double)(r->next_lba - r->first_lba), all = (double)(r->last_lba - r->first_lba) + 1;
	double rate = t > 0 ? (double)(r->bytes_read - bytes0) / t : 0;
	unsigned long left = rate > 0 ? (unsigned long)((all - done) * r->sector_bytes / rate) : 0;
	char text[160];

	snprintf(text, sizeof(text), "scan: %.1f%% done, LBA %llu, %.0f MB/s, %lu:%02lu:%02lu left, %zu unreadable",
		 100 * done / all, (unsigned long long)r->next_lba, rate / 1e6, left / 3600, left / 60 % 60, left % 60,
		 r->nbad);
	status_draw(st, text);
}

/*
 * One block at lba read (err: how), sent at t and back ms later: counted;
 * where it failed, its sectors searched.  Returns an errno that ends the scan.
 */
static int block_read(struct scan_io *io, struct scan_result *r, uint64_t lba, uint32_t n, int err, double t, double ms,
		      uint64_t errors_max, struct scan_stop *stop)
{
	size_t before = r->nbad;

	if (err && !scan_unreadable_errno(err)) {
		stop->at = lba;
		return err;
	}
	if (err) {
		/*
		 * Ended by a signal, or the disk gone, within the search: the
		 * block is not counted (nor mapped); what it named before stays
		 * listed, each failure having been followed by a read that
		 * worked (search_read).
		 */
		err = scan_search(r, lba, n, search_read, io, errors_max, &stop->at);
		if (err && io->gone) {
			stop->at = lba;
			stop->gone = true;
			stop->good_lba = io->good_lba;
		}
		if (err)
			return err;
		/* A block that failed once but whose every sector then read is counted by its time, searches and all. */
		ms = (monotonic_seconds() - t) * 1e3;
	}
	/* The search stops at the limit's last sector: what follows it, in this block too, is not read. */
	if (errors_max && r->nbad > before && r->nbad >= errors_max && r->bad[r->nbad - 1] < r->last_lba) {
		stop->at_max = true;
		stop->at = r->bad[r->nbad - 1] + 1;
		/* Cut short: not counted as read (nor in the picture, nor mapped); what it named stays listed. */
		if (stop->at < lba + n)
			return 0;
	}
	err = scan_note_block(r, lba, n, ms, r->nbad > before);
	if (!err && r->nbad == before) {
		io->read_one = io->read_here = true;
		io->good_lba = lba + n - 1;
	}
	if (err) {
		stop->at_max = false;
		stop->at = lba;
	}
	return err;
}

/* One block at lba: read and timed; where it fails, its sectors searched. Returns an errno that ends the scan. */
static int scan_block(struct scan_io *io, struct scan_result *r, uint64_t lba, uint32_t n, uint64_t errors_max,
		      struct scan_stop *stop)
{
	double t = monotonic_seconds();
	int err = read_sectors(io, lba, n);

	return block_read(io, r, lba, n, err, t, (monotonic_seconds() - t) * 1e3, errors_max, stop);
}

/* After a block counted at lba: its map entry, and a signal's stop. */
static int block_done(struct scan_io *io, struct scan_result *r, uint64_t lba, struct scan_stop *stop)
{
	int err = 0;

	/* A block cut short by --scan-errors-max is not mapped: a resume reads it again. */
	if (!stop->at_max && (err = scan_map_note(io->map, r, lba, r->next_lba - lba))) {
		stop->map_failed = true;
		stop->at = r->next_lba;
	}
	/* A signal: the block in flight was read and counted; nothing more is asked. */
	if (!err && poll_wait_interrupted() && r->next_lba <= r->last_lba) {
		err = EINTR;
		stop->at = r->next_lba;
	}
	return err;
}

/* A block in flight at depth > 1, in its slot. */
struct in_flight {
	uint64_t lba;
	double sent, back;	/* its read sent and come back (monotonic seconds) */
	long long res;		/* the bytes read, or -errno */
	bool unsent, done;
};

/* The reads sent, and those come back noted each with its own time; false on a failure of the queue itself (*err). */
static bool deep_wait(struct readq *q, struct in_flight *f, struct readq_done *done, int *err)
{
	double now = monotonic_seconds();
	int n;

	for (unsigned int i = 0; i < q->depth; i++)
		if (f[i].unsent) {
			f[i].sent = now;
			f[i].unsent = false;
		}
	n = readq_wait(q, 1, done);
	now = monotonic_seconds();
	if (n < 0) {
		*err = -n;
		return false;
	}
	for (int i = 0; i < n; i++) {
		struct in_flight *b = &f[done[i].slot];

		b->res = done[i].res;
		b->back = now;
		b->done = true;
	}
	return true;
}

/* Every read in flight (inflight of them, the counted ones not done) has come back. */
static bool all_back(const struct in_flight *f, unsigned int depth, unsigned int inflight)
{
	unsigned int back = 0;

	for (unsigned int i = 0; i < depth; i++)
		back += f[i].done;
	return back >= inflight;
}

/* The block of slot s come back: its errno (a short read: ENXIO, noted). */
static int deep_errno(struct scan_io *io, const struct in_flight *b)
{
	io->short_read = b->res >= 0 && (size_t)b->res != io->q.block;
	return b->res < 0 ? (int)-b->res : io->short_read ? ENXIO : 0;
}

/*
 * The whole blocks of the range with depth reads in flight: each sent as
 * a slot frees, each timed from its own sending to its own return, and
 * counted in LBA order (the slow regions, the map and a resume's
 * checkpoint follow the LBAs), however they come back.  A block that
 * failed is searched only once every other read has come back, with
 * nothing else in flight: the search's reads are timed and ordered as at
 * depth 1, and no block's time includes it.  The tail shorter than a
 * block is left to the caller.
 */
static int scan_deep(struct scan_io *io, struct scan_result *r, uint64_t errors_max, struct scan_stop *stop,
		     void (*draw_now)(void *ctx), void *ctx)
{
	struct readq *q = &io->q;
	unsigned int depth = q->depth, head = 0, inflight = 0;
	struct in_flight *f = calloc(depth, sizeof(*f));
	struct readq_done *done = calloc(depth, sizeof(*done));
	uint64_t next = r->next_lba;
	int err = 0;

	while (f && done && !err && !stop->at_max) {
		/* Counted in order: the oldest block first, as soon as it is back. */
		while (inflight && f[head].done && !err && !stop->at_max) {
			struct in_flight *b = &f[head];
			int rerr = deep_errno(io, b);

			/* A failed block's search waits for every other read: nothing else in flight then. */
			while (rerr && scan_unreadable_errno(rerr) && !err && !all_back(f, depth, inflight))
				if (!deep_wait(q, f, done, &err))
					stop->at = b->lba;
			double ms = scan_own_ms(b->sent, b->back), t = b->sent;

			/*
			 * The block layer merges adjacent reads in flight into one
			 * request, and a sector that fails fails the rest of the
			 * request: blocks with no bad sector come back failed too.
			 * Read alone, as at depth 1, before any search; counted by
			 * that read's time (a search's included, as at depth 1).  Not
			 * after a signal: its search ends before its first read.
			 */
			if (!err && rerr && scan_unreadable_errno(rerr) && !poll_wait_interrupted()) {
				t = monotonic_seconds();
				rerr = read_sectors(io, b->lba, SCAN_BLOCK_SECTORS);
				ms = (monotonic_seconds() - t) * 1e3;
			}
			if (!err)
				err = block_read(io, r, b->lba, SCAN_BLOCK_SECTORS, rerr, t, ms, errors_max, stop);
			if (!err)
				err = block_done(io, r, b->lba, stop);
			b->done = false;
			head = (head + 1) % depth;
			inflight--;
			draw_now(ctx);
		}
		if (err || stop->at_max)
			break;
		for (; inflight < depth && next <= r->last_lba && r->last_lba - next + 1 >= SCAN_BLOCK_SECTORS;
		     next += SCAN_BLOCK_SECTORS, inflight++) {
			unsigned int slot = (head + inflight) % depth;

			f[slot] = (struct in_flight){ .lba = next, .unsent = true };
			readq_queue(q, slot, next * q->sector);
		}
		if (!inflight)
			break;
		if (!deep_wait(q, f, done, &err))
			stop->at = f[head].lba;
	}
	/* What is still in flight comes back before the buffers go; it is not counted. */
	for (int werr = 0; f && done && !all_back(f, depth, inflight);)
		if (!deep_wait(q, f, done, &werr))
			break;
	free(f);
	free(done);
	return err;
}

/* The status line's state, for scan_deep. */
struct drawing {
	struct status_line *st;
	const struct scan_result *r;
	double t0, drawn;
	uint64_t bytes0;
};

static void draw_now(void *ctx)
{
	struct drawing *d = ctx;

	if (d->st->shown && monotonic_seconds() - d->drawn > 0.25) {
		d->drawn = monotonic_seconds();
		draw(d->st, d->r, d->t0, d->bytes0);
	}
}

static int scan_range(struct scan_io *io, struct scan_result *r, uint64_t errors_max, bool show, struct scan_stop *stop)
{
	struct status_line st;
	double t0 = monotonic_seconds(), drawn = t0;
	uint64_t bytes0 = r->bytes_read;	/* a resumed scan's, from its map: read before this run's time */
	int err = 0;

	status_begin(&st, show);
	/* A resumed scan (--scan-map) whose earlier runs already reached the limit reads nothing more. */
	if (errors_max && r->nbad >= errors_max && r->next_lba <= r->last_lba) {
		stop->at_max = true;
		stop->at = r->next_lba;
	}
	if (io->q.depth > 1 && !io->read && !stop->at_max) {
		struct drawing d = { &st, r, t0, t0, bytes0 };

		err = scan_deep(io, r, errors_max, stop, draw_now, &d);
	}
	for (uint64_t lba = r->next_lba; lba <= r->last_lba && !err && !stop->at_max; lba = r->next_lba) {
		uint64_t left = r->last_lba - lba + 1;

		err = scan_block(io, r, lba, left < SCAN_BLOCK_SECTORS ? (uint32_t)left : SCAN_BLOCK_SECTORS, errors_max, stop);
		if (!err)
			err = block_done(io, r, lba, stop);
		if (st.shown && monotonic_seconds() - drawn > 0.25) {
			drawn = monotonic_seconds();
			draw(&st, r, t0, bytes0);
		}
	}
	status_end(&st);
	/* The map's write failing after the last block read: the scan is complete all the same (its map is not). */
	r->completed = (!err || stop->map_failed) && !stop->at_max && r->next_lba > r->last_lba;
	stop->err = err;
	return err;
}

/* The kind of scan that ran: its heading's words (text) and its name (JSON scan_kind). */
struct scan_kind {
	const char *words, *name;
};

static struct scan_kind kind_of(const struct settings *s)
{
	bool verify = s->v[OPT_SCAN_VERIFY].given, repair = s->v[OPT_SCAN_REPAIR].given;

	if (verify && repair)
		return (struct scan_kind){ "verified by the disk, then the unreadable sectors rewritten (--scan-repair)",
					   "verify_repair" };
	if (repair)
		return (struct scan_kind){ "read, then the unreadable sectors rewritten (--scan-repair)", "read_repair" };
	if (verify)
		return (struct scan_kind){ "verified by the disk (nothing read or written)", "verify" };
	return (struct scan_kind){ "read-only", "read" };
}

static void say_text(const struct device *dev, const struct scan_result *r, double seconds, const char *kind)
{
	double mb = (double)r->bytes_read / 1e6;
	unsigned long long sectors = r->last_lba - r->first_lba + 1;

	out(" surface scan of LBA %llu to %llu (%llu sector%s of %u bytes, %llu block%s of %u sectors), %s:\n",
	    (unsigned long long)r->first_lba, (unsigned long long)r->last_lba, sectors, sectors == 1 ? "" : "s",
	    r->sector_bytes, (unsigned long long)r->blocks, r->blocks == 1 ? "" : "s", SCAN_BLOCK_SECTORS, kind);
	out("  %-12s %12s\n", "read in", "blocks");
	for (int c = 0; c < SCAN_CLASSES; c++)
		out("  %-12s %12llu\n", scan_class_labels[c], (unsigned long long)r->histogram[c]);
	out("  %-12s %12llu of %llu\n", "read", (unsigned long long)r->blocks_read, (unsigned long long)r->blocks);
	out(" unreadable LBAs:");
	for (size_t i = 0; i < r->nbad; i++)
		out("%s %llu", i ? "," : "", (unsigned long long)r->bad[i]);
	out("%s\n", r->nbad ? "" : " none");
	out(" slow regions (adjacent blocks of 150 ms or more):%s\n", r->nslow ? "" : " none");
	for (size_t i = 0; i < r->nslow; i++)
		out("  LBA %llu to %llu, worst %.0f ms\n", (unsigned long long)r->slow[i].first_lba,
		    (unsigned long long)r->slow[i].last_lba, r->slow[i].worst_ms);
	out(" %.1f MB read in %.2f seconds = %.2f MB/sec%s\n", mb, seconds, seconds > 0 ? mb / seconds : 0.0,
	    r->completed ? "" : " (the scan did not reach the end of the range)");
	(void)dev;
}

static void say_json(const struct scan_result *r, double seconds, const struct repair_result *repair,
		     const char *repair_not_run, const struct scan_map *map, const char *kind)
{
	json_object_begin("surface_scan");
	json_string("scan_kind", kind);
	json_uint("first_lba", r->first_lba);
	json_uint("last_lba", r->last_lba);
	json_uint("logical_sector_bytes", r->sector_bytes);
	json_uint("block_sectors", SCAN_BLOCK_SECTORS);
	json_uint("blocks", r->blocks);
	json_uint("blocks_read", r->blocks_read);
	json_bool("completed", r->completed);
	json_object_begin("histogram");
	for (int c = 0; c < SCAN_CLASSES; c++)
		json_uint(scan_class_keys[c], r->histogram[c]);
	json_object_end();
	json_array_begin("unreadable_lbas");
	for (size_t i = 0; i < r->nbad; i++)
		json_uint(NULL, r->bad[i]);
	json_array_end();
	json_array_begin("slow_regions");
	for (size_t i = 0; i < r->nslow; i++) {
		json_object_begin(NULL);
		json_uint("first_lba", r->slow[i].first_lba);
		json_uint("last_lba", r->slow[i].last_lba);
		json_fixed("worst_ms", r->slow[i].worst_ms, 1);
		json_object_end();
	}
	json_array_end();
	json_fixed("seconds", seconds, 6);
	json_uint("bytes_per_second", seconds > 0 ? (uint64_t)((double)r->bytes_read / seconds) : 0);
	if (repair)
		scan_repair_json(repair);
	if (repair_not_run)
		json_string("repair_not_run", repair_not_run);
	scan_map_json(map);
	json_object_end();
}

/* Why the scan ended early, on stderr. */
static void say_stop(const struct device *dev, const struct scan_result *r, const struct scan_stop *stop, bool short_read)
{
	if (stop->map_failed)
		return;
	if (stop->at_max)
		complain(" --surface-scan: stopped after %zu unreadable sectors (--scan-errors-max), before LBA %llu\n",
			 r->nbad, (unsigned long long)stop->at);
	/*
	 * Before the first block not counted, where --scan-map's checkpoint is and the same command
	 * again goes on: a block whose sector search the signal cut short is neither counted nor
	 * mapped (the sector the search was at is no place to go on from).
	 */
	else if (stop->err == EINTR)
		complain(" --surface-scan: interrupted: %llu of %llu blocks read, stopped before LBA %llu\n",
			 (unsigned long long)r->blocks_read, (unsigned long long)r->blocks, (unsigned long long)r->next_lba);
	else if (stop->gone)
		complain(" --surface-scan: %s stopped answering: LBA %llu, read before, fails now; the scan stopped at LBA %llu"
			 " (%llu of %llu blocks read)\n", dev->path, (unsigned long long)stop->good_lba, (unsigned long long)stop->at,
			 (unsigned long long)r->blocks_read, (unsigned long long)r->blocks);
	else if (stop->err)
		complain(" --surface-scan: reading %s at LBA %llu failed: %s; the scan stopped there (%llu of %llu blocks read)\n",
			 dev->path, (unsigned long long)stop->at, short_read ? "short read" : strerror(stop->err),
			 (unsigned long long)r->blocks_read, (unsigned long long)r->blocks);
}

/* A block counted, into --scan-picture's cells. */
static void note_cell(void *cells, uint64_t lba, uint32_t sectors, enum scan_class c)
{
	scan_cells_note(cells, lba, sectors, c);
}

/*
 * --scan-repair, after the scan whose outcome is err: only after a scan
 * that ended as asked (at its end or its limit), never one cut short or
 * interrupted; where it does not run, *not_run says why.  counts: the
 * drive's, read before the scan, and after the repair.  The run's errno.
 */
static int repair_after_scan(struct device *dev, dev_t rdev, struct scan_result *r, const struct scan_stop *stop,
			     struct scan_io *io, const struct scan_map *map, int err, struct repair_result *repair,
			     struct scan_counts counts[2], const char **not_run)
{
	if (!err && poll_wait_interrupted()) {
		*not_run = "interrupted";
		complain(" --scan-repair: not run: %s\n", *not_run);
		return EINTR;
	}
	if (err) {
		/* The map's failure (said above) is the reason where it failed: the scan itself may be complete. */
		*not_run = map->path && map->failed ? "the map could not be written" : "the scan did not end normally";
		complain(" --scan-repair: not run: %s\n", *not_run);
		return err;
	}
	/* What the scan read: to its limit's last sector with --scan-errors-max, else the whole range. */
	uint64_t scanned_last = stop->at_max ? (stop->at > r->first_lba ? stop->at - 1 : r->first_lba) : r->last_lba;

	err = scan_repair_device(dev, rdev, r, scanned_last, io->read_here ? &io->good_lba : NULL, repair);
	if (err && !repair->e)
		*not_run = "it could not start (said on stderr)";
	scan_counts_read(dev, &counts[1]);
	repair->before = &counts[0];
	repair->after = &counts[1];
	return err;
}

/*
 * --scan-picture: the cells drawn, with the disk's identity and the date
 * (cells NULL: memory ran out).  The picture is the scan's: where a repair
 * then wrote (writes physical sectors), stderr says that those it made
 * readable are drawn as the scan found them.
 */
static int draw_picture(const struct device *dev, const char *file, const struct scan_cells *cells,
			const struct scan_result *r, uint64_t writes)
{
	int err;

	char model[128], serial[128];
	struct scan_picture_facts f = { .path = dev->path, .model = model, .serial = serial, .sector_bytes = r->sector_bytes,
					.histogram = r->histogram, .blocks = r->blocks, .blocks_read = r->blocks_read,
					.completed = r->completed, .when = time(NULL) };

	if (!cells) {
		complain("--scan-picture %s: not written: %s\n", file, strerror(ENOMEM));
		return ENOMEM;
	}
	scan_picture_identity(dev->fd, model, sizeof(model), serial, sizeof(serial));
	err = scan_picture_write(file, cells, &f);
	if (!err && writes)
		complain(" --scan-picture %s: drawn as the scan found the disk, before --scan-repair wrote %" PRIu64
			 " physical sector%s\n", file, writes, writes == 1 ? "" : "s");
	return err;
}

/* A repair's text, and where a map was kept, what it still says of the sectors repaired. */
static void say_repair(const struct repair_result *repair, const char *map)
{
	scan_repair_text(repair);
	if (map)
		scan_repair_map_note(repair, map);
}

/* The smaller of *depth and the number sysfs file attr under dir holds (unread, or 0: *depth as it was). */
static void bound_by(const char *dir, const char *attr, unsigned long long *depth)
{
	char line[32];
	unsigned long long n;

	if (!sysfs_read_line(dir, attr, line, sizeof(line)) && !sysfs_parse_u64(line, &n) && n && n < *depth)
		*depth = n;
}

/*
 * The blocks in flight: --scan-depth's, or 1 on a rotating disk (read in
 * order, as it turns; and where sysfs does not say), else as many as the
 * device's hardware takes at once up to SCAN_DEPTH (blk-mq's tags of its
 * first hardware queue, a SCSI device's queue_depth: 1 behind usb-storage,
 * the NCQ depth on SATA) and its nr_requests, which reaches the speed of an
 * SSD or a device in memory, and no block waits behind another in the
 * kernel, its time its own (scan_own_ms()); never more than the blocks.
 * The disk's own verify commands go one at a time.
 */
static unsigned int scan_depth(const struct settings *s, int fd, uint64_t blocks)
{
	unsigned long long depth = SCAN_DEPTH;
	char dir[160], line[32];

	if (s->v[OPT_SCAN_VERIFY].given)
		return 1;
	if (s->v[OPT_SCAN_DEPTH].given)
		depth = s->v[OPT_SCAN_DEPTH].num;
	else if (!sysfs_disk_dir(fd, dir, sizeof(dir)) || sysfs_read_line(dir, "queue/rotational", line, sizeof(line)) ||
		 strcmp(line, "0") != 0)
		return 1;
	else {
		bound_by(dir, "queue/nr_requests", &depth);
		bound_by(dir, "mq/0/nr_tags", &depth);
		bound_by(dir, "device/queue_depth", &depth);
	}
	return (unsigned int)(blocks < depth ? (blocks ? blocks : 1) : depth);
}

/*
 * The read queue of the scan of f's range, at its depth; the engine's own
 * word on it with --verbose (a depth above 1 that could not be had is 1
 * there).  An errno, nothing left open.
 */
static int open_queue(const struct device *dev, const struct settings *s, const struct scan_facts *f, struct readq *q)
{
	struct stat again;
	int err = readq_open_or_one(q, dev->path, scan_depth(s, dev->fd, (f->last - f->first + 1) / SCAN_BLOCK_SECTORS),
				    (size_t)SCAN_BLOCK_SECTORS * f->sector, "--surface-scan");

	if (err)
		return err;
	/* The path opened again must still name the device checked (a link changed meanwhile). */
	if (fstat(q->fd, &again) || again.st_rdev != f->rdev || q->sector != f->sector) {
		complain(" --surface-scan: %s changed while it was opened\n", dev->path);
		readq_close(q);
		return ENODEV;
	}
	if (dev->run.verbose)
		out(" read engine: %s, %u block%s in flight\n", q->summary, q->depth, q->depth == 1 ? "" : "s");
	return 0;
}

int surface_scan_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct scan_stop stop = { 0 };
	struct scan_map map;
	struct repair_result repair = { 0 };
	struct scan_counts counts[2];	/* the drive's, before the scan and after the repair */
	bool repairing = s->v[OPT_SCAN_REPAIR].given;
	const char *not_run = NULL;	/* --scan-repair's, why it did not run */
	struct scan_result r;
	struct scan_cells cells = { 0 };
	const char *picture = s->v[OPT_SCAN_PICTURE].given ? s->v[OPT_SCAN_PICTURE].str : NULL;
	struct scan_io io = { .read = NULL };
	struct scan_verify verify;
	struct scan_facts f;
	uint64_t first, last;
	int err, map_err;
	double t0, seconds;

	(void)opt;
	if ((err = scan_facts_of(dev, s, &f)))
		return err;
	first = f.first;
	last = f.last;
	if (s->v[OPT_SCAN_VERIFY].given && (err = scan_verify_begin(&verify, dev, first)))
		return err;
	io.read = s->v[OPT_SCAN_VERIFY].given ? scan_verify_read : NULL;
	io.read_ctx = &verify;
	if ((err = open_queue(dev, s, &f, &io.q)))
		return err;
	if (repairing)
		scan_counts_read(dev, &counts[0]);
	scan_result_init(&r, first, last, io.q.sector);
	/* The cells first: a map's blocks restored are counted in them too. */
	if (picture && scan_cells_init(&cells, first, last, SCAN_CELLS_MAX) == 0) {
		r.counted = note_cell;
		r.counted_ctx = &cells;
	}
	io.map = &map;
	if ((err = scan_map_open(&map, s->v[OPT_SCAN_MAP].given ? s->v[OPT_SCAN_MAP].str : NULL, dev, &r,
				 f.sectors))) {
		readq_close(&io.q);
		scan_result_free(&r);
		scan_cells_free(&cells);
		return err;
	}
	scan_direct_begin(&io.direct, dev, io.q.sector);
	/*
	 * A resumed scan: a sector its earlier runs read is the proof that the
	 * disk worked, before this run reads one; a disk gone since is then
	 * found at the first failure, not taken for a range of bad sectors.
	 */
	io.read_one = read_before(&r, &io.good_lba);
	/*
	 * SIGINT, SIGTERM and SIGHUP held from the scan to the report's end:
	 * one during the last block is seen before the repair (which then
	 * does not run), and none ends the report half printed.
	 */
	poll_wait_begin();
	t0 = monotonic_seconds();
	err = scan_range(&io, &r, s->v[OPT_SCAN_ERRORS_MAX].given ? s->v[OPT_SCAN_ERRORS_MAX].num : 0,
			 !dev->run.json, &stop);
	seconds = monotonic_seconds() - t0 + scan_map_seconds_before(&map);
	scan_direct_end(&io.direct);
	readq_close(&io.q);
	/*
	 * Held while the report is written: the handler would cut a write that
	 * waits on a slow stdout short (EINTR), and stdio drop the text.  Let
	 * through to the handler after it, so that the repair sees it.
	 */
	poll_wait_hold();
	say_stop(dev, &r, &stop, io.short_read);
	if ((map_err = scan_map_close(&map, &r)) && !err)
		err = map_err;
	say_text(dev, &r, seconds, kind_of(s).words);
	poll_wait_release();
	if (repairing)
		err = repair_after_scan(dev, f.rdev, &r, &stop, &io, &map, err, &repair, counts, &not_run);
	poll_wait_hold();
	if (repairing && repair.e)
		say_repair(&repair, s->v[OPT_SCAN_MAP].given ? s->v[OPT_SCAN_MAP].str : NULL);
	say_json(&r, seconds, repairing && repair.e ? &repair : NULL, not_run, &map, kind_of(s).name);
	if (!err && r.nbad && !repairing)
		err = EIO;
	if (picture) {
		int perr = draw_picture(dev, picture, r.counted_ctx, &r, repair.writes);

		err = err ? err : perr;
		scan_cells_free(&cells);
	}
	poll_wait_release();
	poll_wait_end();
	repair_result_free(&repair);
	scan_result_free(&r);
	return err;
}
