/*
 * Measurements with several requests in flight: sequential throughput
 * (-t --iodepth N) and random reads (--seeks).  Linux native AIO through
 * its system calls: with O_DIRECT it queues reads straight to the block
 * layer from one thread, so reaching a drive's limit costs little CPU
 * (threads with pread would need one thread per request in flight, and
 * io_uring needs far more setup code for the same result here).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/aio_abi.h>
#include <linux/fs.h>

#include "iodepth.h"
#include "json.h"
#include "report.h"

#define RUN_SECONDS 3.0
#define MAX_BUFFER_BYTES (1ULL << 30)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct aio_run {
	aio_context_t ctx;
	int fd;
	unsigned int depth;
	size_t block;
	char *buffers;
	struct iocb *cbs;
	double *started;	/* per slot: when its request went out */
	unsigned long long size;	/* device bytes */
	unsigned int sector;	/* logical sector size */
};

static int submit(struct aio_run *r, unsigned int slot, unsigned long long offset)
{
	struct iocb *cb;
	struct iocb *list[1];

	if (!r->cbs || slot >= r->depth)
		return EINVAL;
	cb = &r->cbs[slot];
	list[0] = cb;
	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = (uint32_t)r->fd;
	cb->aio_lio_opcode = IOCB_CMD_PREAD;
	cb->aio_buf = (uint64_t)(uintptr_t)(r->buffers + (size_t)slot * r->block);
	cb->aio_nbytes = r->block;
	cb->aio_offset = (int64_t)offset;
	cb->aio_data = slot;
	r->started[slot] = now();
	if (syscall(SYS_io_submit, r->ctx, 1L, list) != 1) {
		int err = errno ? errno : EIO;

		complain(" io_submit failed at byte offset %llu: %s\n", offset, strerror(err));
		return err;
	}
	return 0;
}

static void aio_close(struct aio_run *r)
{
	if (r->ctx)
		syscall(SYS_io_destroy, r->ctx);
	if (r->fd >= 0)
		close(r->fd);
	free(r->buffers);
	free(r->cbs);
	free(r->started);
}

/* Open the device again with O_DIRECT and set up the queue; an errno on failure. */
static int aio_open(struct aio_run *r, struct device *dev, unsigned int depth, size_t block, const char *what)
{
	struct stat st;
	int sector = 512;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if (fstat(dev->fd, &st) || !S_ISBLK(st.st_mode)) {
		complain(" %s: not supported on %s: it needs a block device\n", what, dev->path);
		return ENOTBLK;
	}
	if ((unsigned long long)depth * block > MAX_BUFFER_BYTES) {
		complain(" %s: iodepth x block size is over 1 GiB of buffers\n", what);
		return EINVAL;
	}
	r->fd = open(dev->path, O_RDONLY | O_DIRECT);
	if (r->fd < 0) {
		int err = errno;

		complain(" %s: %s does not take O_DIRECT reads: %s\n", what, dev->path, strerror(err));
		return err;
	}
	if (ioctl(r->fd, BLKGETSIZE64, &r->size) || ioctl(r->fd, BLKSSZGET, &sector)) {
		int err = errno;

		complain(" %s: BLKGETSIZE64 failed: %s\n", what, strerror(err));
		return err;
	}
	r->sector = sector > 0 ? (unsigned int)sector : 512;
	if (block % r->sector) {
		complain(" %s: the block size is not a multiple of the %u-byte sector\n", what, r->sector);
		return EINVAL;
	}
	r->depth = depth;
	r->block = block;
	r->cbs = calloc(depth, sizeof(*r->cbs));
	r->started = calloc(depth, sizeof(*r->started));
	if (!r->cbs || !r->started || posix_memalign((void **)&r->buffers, 4096, (size_t)depth * block)) {
		r->buffers = NULL;
		return ENOMEM;
	}
	/*
	 * Fault the buffers in now: a first touch of fresh memory inside the
	 * timed loop costs more than the reads on some machines (virtual ones
	 * above all), and fio's figures do not include it either.
	 */
	memset(r->buffers, 0, (size_t)depth * block);
	if (syscall(SYS_io_setup, depth, &r->ctx)) {
		int err = errno;

		r->ctx = 0;
		complain(" %s: io_setup failed: %s\n", what, strerror(err));
		return err;
	}
	/* Nothing the page cache holds may be counted. */
	ioctl(r->fd, BLKFLSBUF, NULL);
	return 0;
}

/* Wait for at least one completion; returns how many (in ev) or -errno. */
static int reap(struct aio_run *r, struct io_event *ev, long max)
{
	long n;

	do
		n = syscall(SYS_io_getevents, r->ctx, 1L, max, ev, NULL);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : (int)n;
}

/* What a run of queued reads did. */
struct queue_result {
	size_t count;		/* reads completed */
	double elapsed;		/* seconds, first submit to last completion */
	double *latency;	/* per read, when asked for */
	size_t cap;
	double latency_sum;
};

/* Where the next read goes; false when there is none. */
typedef bool next_offset_fn(struct aio_run *r, void *ctx, unsigned long long *offset);

/*
 * Keep r->depth reads in flight for RUN_SECONDS (or until next() has no
 * more), refilling each slot as it completes.  A failed or short read ends
 * the run with a message naming its offset.
 */
static int run_queue(struct aio_run *r, next_offset_fn *next, void *ctx, struct queue_result *q, bool latencies)
{
	struct io_event *ev = calloc(r->depth, sizeof(*ev));
	unsigned int inflight = 0;
	unsigned long long offset;
	double t0 = now();
	int err = 0;

	memset(q, 0, sizeof(*q));
	if (!ev)
		return ENOMEM;
	for (unsigned int slot = 0; slot < r->depth && next(r, ctx, &offset); slot++) {
		if ((err = submit(r, slot, offset)))
			break;
		inflight++;
	}
	while (inflight && !err) {
		int n = reap(r, ev, r->depth);
		double t;

		if (n < 0) {
			err = -n;
			complain(" io_getevents failed: %s\n", strerror(err));
			break;
		}
		t = now();
		q->elapsed = t - t0;
		for (int i = 0; i < n; i++) {
			unsigned int slot = (unsigned int)ev[i].data;

			inflight--;
			if (ev[i].res < 0 || (size_t)ev[i].res != r->block) {
				err = ev[i].res < 0 ? (int)-ev[i].res : EIO;
				complain(" read failed at byte offset %llu: %s\n",
					(unsigned long long)r->cbs[slot].aio_offset,
					ev[i].res < 0 ? strerror(err) : "short read");
				continue;
			}
			if (latencies && q->count == q->cap) {
				double *bigger = realloc(q->latency, (q->cap ? q->cap * 2 : 4096) * sizeof(*bigger));

				if (!bigger) {
					err = ENOMEM;
					continue;
				}
				q->latency = bigger;
				q->cap = q->cap ? q->cap * 2 : 4096;
			}
			if (latencies)
				q->latency[q->count] = t - r->started[slot];
			q->latency_sum += t - r->started[slot];
			q->count++;
			if (!err && q->elapsed < RUN_SECONDS && next(r, ctx, &offset)) {
				if ((err = submit(r, slot, offset)))
					continue;
				inflight++;
			}
		}
	}
	/* Let what is still queued finish before the buffers go. */
	for (int n; inflight && (n = reap(r, ev, r->depth)) > 0;)
		inflight -= (unsigned int)n;
	free(ev);
	return err;
}

struct sequence {
	unsigned long long next;
};

static bool next_in_sequence(struct aio_run *r, void *ctx, unsigned long long *offset)
{
	struct sequence *seq = ctx;

	if (seq->next + r->block > r->size)
		return false;
	*offset = seq->next;
	seq->next += r->block;
	return true;
}

/* The device, from --offset, must hold at least one block. */
static int check_offset(const struct aio_run *r, const struct settings *s, unsigned long long start)
{
	if (start + r->block <= r->size)
		return 0;
	complain(" --offset %llu: beyond the end of the device (%llu bytes)\n",
		(unsigned long long)s->v[OPT_OFFSET].num, r->size);
	return EINVAL;
}

int time_iodepth_reads(struct device *dev, const struct settings *s)
{
	unsigned int depth = (unsigned int)s->v[OPT_IODEPTH].num;
	size_t block = (size_t)(s->v[OPT_BLOCK_SIZE].given ? s->v[OPT_BLOCK_SIZE].num : 1024) * 1024;
	struct sequence seq = { .next = s->v[OPT_OFFSET].given ? s->v[OPT_OFFSET].num << 30 : 0 };
	struct queue_result q;
	struct aio_run r;
	unsigned long long bytes;
	int err = aio_open(&r, dev, depth, block, "--iodepth");

	if (!err)
		err = check_offset(&r, s, seq.next);
	if (!err)
		err = run_queue(&r, next_in_sequence, &seq, &q, false);
	aio_close(&r);
	if (err)
		return err;
	bytes = (unsigned long long)q.count * block;
	out(" Timing O_DIRECT disk reads (iodepth %u, %zu KiB): %3llu MB in %5.2f seconds = %6.2f MB/sec\n",
	       depth, block / 1024, bytes >> 20, q.elapsed, (double)bytes / 1048576.0 / q.elapsed);
	dev->disk_reads = (struct timing_result){ .valid = true, .mib = (unsigned int)(bytes >> 20), .seconds = q.elapsed,
						  .direct = true, .has_offset = s->v[OPT_OFFSET].given,
						  .offset_gib = s->v[OPT_OFFSET].num, .iodepth = depth,
						  .block_kib = (unsigned int)(block / 1024) };
	return 0;
}

/* xorshift64*: plenty for spreading reads over a device. */
struct scatter {
	uint64_t state;
	unsigned long long start, slots;
};

static bool next_at_random(struct aio_run *r, void *ctx, unsigned long long *offset)
{
	struct scatter *sc = ctx;

	sc->state ^= sc->state >> 12;
	sc->state ^= sc->state << 25;
	sc->state ^= sc->state >> 27;
	*offset = sc->start + sc->state * 0x2545f4914f6cdd1dULL % sc->slots * r->block;
	return true;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int time_random_seeks(struct device *dev, const struct settings *s, enum opt_id opt)
{
	unsigned int depth = s->v[OPT_IODEPTH].given ? (unsigned int)s->v[OPT_IODEPTH].num : 1;
	size_t block = (size_t)(s->v[OPT_BLOCK_SIZE].given ? s->v[OPT_BLOCK_SIZE].num : 4) * 1024;
	struct scatter sc = { .state = (uint64_t)(now() * 1e9) | 1,
			      .start = s->v[OPT_OFFSET].given ? s->v[OPT_OFFSET].num << 30 : 0 };
	struct queue_result q = { 0 };
	struct aio_run r;
	int err;

	(void)opt;
	err = aio_open(&r, dev, depth, block, "--seeks");
	if (!err)
		err = check_offset(&r, s, sc.start);
	if (!err) {
		/*
		 * Reads start on block boundaries (multiples of the sector size),
		 * anywhere from --offset to the last whole block: fio's default
		 * alignment, so that the figures compare.
		 */
		sc.slots = (r.size - sc.start) / block;
		err = run_queue(&r, next_at_random, &sc, &q, true);
	}
	aio_close(&r);
	if (!err && q.count) {
		double mean_ms = q.latency_sum / (double)q.count * 1e3, p99_ms;

		qsort(q.latency, q.count, sizeof(*q.latency), compare_double);
		p99_ms = q.latency[(q.count * 99 + 99) / 100 - 1] * 1e3;
		out(" Timing random seeks (iodepth %u, %zu KiB): %zu seeks in %5.2f seconds = %.2f seeks/sec, "
		       "latency mean %.2f ms, p99 %.2f ms\n",
		       depth, block / 1024, q.count, q.elapsed, (double)q.count / q.elapsed, mean_ms, p99_ms);
		json_object_begin("seeks");
		json_uint("iodepth", depth);
		json_uint("block_kib", block / 1024);
		json_uint("count", q.count);
		json_fixed("seconds", q.elapsed, 6);
		json_fixed("seeks_per_sec", (double)q.count / q.elapsed, 2);
		json_fixed("latency_mean_us", mean_ms * 1e3, 1);
		json_fixed("latency_p99_us", p99_ms * 1e3, 1);
		json_object_end();
	}
	free(q.latency);
	return err;
}
