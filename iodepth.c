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

		fprintf(stderr, " io_submit failed at byte offset %llu: %s\n", offset, strerror(err));
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
		fprintf(stderr, " %s: not supported on %s: it needs a block device\n", what, dev->path);
		return ENOTBLK;
	}
	if ((unsigned long long)depth * block > MAX_BUFFER_BYTES) {
		fprintf(stderr, " %s: iodepth x block size is over 1 GiB of buffers\n", what);
		return EINVAL;
	}
	r->fd = open(dev->path, O_RDONLY | O_DIRECT);
	if (r->fd < 0) {
		int err = errno;

		fprintf(stderr, " %s: %s does not take O_DIRECT reads: %s\n", what, dev->path, strerror(err));
		return err;
	}
	if (ioctl(r->fd, BLKGETSIZE64, &r->size) || ioctl(r->fd, BLKSSZGET, &sector)) {
		int err = errno;

		fprintf(stderr, " %s: BLKGETSIZE64 failed: %s\n", what, strerror(err));
		return err;
	}
	r->sector = sector > 0 ? (unsigned int)sector : 512;
	if (block % r->sector) {
		fprintf(stderr, " %s: the block size is not a multiple of the %u-byte sector\n", what, r->sector);
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
	if (syscall(SYS_io_setup, depth, &r->ctx)) {
		int err = errno;

		r->ctx = 0;
		fprintf(stderr, " %s: io_setup failed: %s\n", what, strerror(err));
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

int time_iodepth_reads(struct device *dev, const struct settings *s)
{
	unsigned int depth = (unsigned int)s->v[OPT_IODEPTH].num;
	size_t block = (size_t)(s->v[OPT_BLOCK_SIZE].given ? s->v[OPT_BLOCK_SIZE].num : 1024) * 1024;
	unsigned long long start = s->v[OPT_OFFSET].given ? s->v[OPT_OFFSET].num << 30 : 0;
	unsigned long long next, done = 0;
	unsigned int inflight = 0;
	struct io_event *ev;
	struct aio_run r;
	double t0, elapsed = 0;
	int err = aio_open(&r, dev, depth, block, "--iodepth");

	if (err) {
		aio_close(&r);
		return err;
	}
	if (start + block > r.size) {
		fprintf(stderr, " --offset %llu: beyond the end of the device (%llu bytes)\n",
			(unsigned long long)s->v[OPT_OFFSET].num, r.size);
		aio_close(&r);
		return EINVAL;
	}
	ev = calloc(depth, sizeof(*ev));
	if (!ev) {
		aio_close(&r);
		return ENOMEM;
	}
	next = start;
	t0 = now();
	for (unsigned int slot = 0; slot < depth && next + block <= r.size; slot++, next += block) {
		if ((err = submit(&r, slot, next)))
			break;
		inflight++;
	}
	while (inflight && !err) {
		int n = reap(&r, ev, depth);

		if (n < 0) {
			err = -n;
			fprintf(stderr, " io_getevents failed: %s\n", strerror(err));
			break;
		}
		elapsed = now() - t0;
		for (int i = 0; i < n; i++) {
			unsigned int slot = (unsigned int)ev[i].data;

			inflight--;
			if (ev[i].res < 0 || (size_t)ev[i].res != block) {
				err = ev[i].res < 0 ? (int)-ev[i].res : EIO;
				fprintf(stderr, " read failed at byte offset %llu: %s\n",
					(unsigned long long)r.cbs[slot].aio_offset,
					ev[i].res < 0 ? strerror(err) : "short read");
				continue;
			}
			done += block;
			if (!err && elapsed < RUN_SECONDS && next + block <= r.size) {
				if ((err = submit(&r, slot, next)))
					continue;
				next += block;
				inflight++;
			}
		}
	}
	/* Let what is still queued finish before the buffers go. */
	for (int n; inflight && (n = reap(&r, ev, depth)) > 0;)
		inflight -= (unsigned int)n;
	free(ev);
	aio_close(&r);
	if (err)
		return err;
	printf(" Timing O_DIRECT disk reads (iodepth %u, %zu KiB): %3llu MB in %5.2f seconds = %6.2f MB/sec\n",
	       depth, block / 1024, done >> 20, elapsed, (double)done / 1048576.0 / elapsed);
	dev->disk_reads = (struct timing_result){ .valid = true, .mib = (unsigned int)(done >> 20), .seconds = elapsed,
						  .direct = true, .has_offset = s->v[OPT_OFFSET].given,
						  .offset_gib = s->v[OPT_OFFSET].num, .iodepth = depth,
						  .block_kib = (unsigned int)(block / 1024) };
	return 0;
}

static uint64_t rng_state;

static uint64_t rng_next(void)
{
	/* xorshift64*: plenty for spreading reads over a device. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
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
	unsigned long long start = s->v[OPT_OFFSET].given ? s->v[OPT_OFFSET].num << 30 : 0, slots;
	double *lat = NULL, t0, elapsed = 0, sum = 0;
	size_t nlat = 0, caplat = 0;
	unsigned int inflight = 0;
	struct io_event *ev;
	struct aio_run r;
	int err;

	(void)opt;
	err = aio_open(&r, dev, depth, block, "--seeks");
	if (err) {
		aio_close(&r);
		return err;
	}
	if (start + block > r.size) {
		fprintf(stderr, " --offset %llu: beyond the end of the device (%llu bytes)\n",
			(unsigned long long)s->v[OPT_OFFSET].num, r.size);
		aio_close(&r);
		return EINVAL;
	}
	/* Reads start on sector boundaries anywhere from --offset to the last whole block. */
	if (!r.sector)
		r.sector = 512;
	slots = (r.size - start - block) / r.sector + 1;
	rng_state = (uint64_t)(now() * 1e9) | 1;
	ev = calloc(depth, sizeof(*ev));
	if (!ev) {
		aio_close(&r);
		return ENOMEM;
	}
	t0 = now();
	for (unsigned int slot = 0; slot < depth && !err; slot++) {
		if ((err = submit(&r, slot, start + rng_next() % slots * r.sector)))
			break;
		inflight++;
	}
	while (inflight && !err) {
		int n = reap(&r, ev, depth);
		double t;

		if (n < 0) {
			err = -n;
			fprintf(stderr, " io_getevents failed: %s\n", strerror(err));
			break;
		}
		t = now();
		elapsed = t - t0;
		for (int i = 0; i < n; i++) {
			unsigned int slot = (unsigned int)ev[i].data;

			inflight--;
			if (ev[i].res < 0 || (size_t)ev[i].res != block) {
				err = ev[i].res < 0 ? (int)-ev[i].res : EIO;
				fprintf(stderr, " read failed at byte offset %llu: %s\n",
					(unsigned long long)r.cbs[slot].aio_offset,
					ev[i].res < 0 ? strerror(err) : "short read");
				continue;
			}
			if (nlat == caplat) {
				double *bigger = realloc(lat, (caplat ? caplat * 2 : 4096) * sizeof(*lat));

				if (!bigger) {
					err = ENOMEM;
					continue;
				}
				lat = bigger;
				caplat = caplat ? caplat * 2 : 4096;
			}
			lat[nlat++] = t - r.started[slot];
			sum += t - r.started[slot];
			if (!err && elapsed < RUN_SECONDS) {
				if ((err = submit(&r, slot, start + rng_next() % slots * r.sector)))
					continue;
				inflight++;
			}
		}
	}
	for (int n; inflight && (n = reap(&r, ev, depth)) > 0;)
		inflight -= (unsigned int)n;
	free(ev);
	aio_close(&r);
	if (!err && nlat) {
		double mean_ms = sum / (double)nlat * 1e3, p99_ms;

		qsort(lat, nlat, sizeof(*lat), compare_double);
		p99_ms = lat[(nlat * 99 + 99) / 100 - 1] * 1e3;
		printf(" Timing random seeks (iodepth %u, %zu KiB): %zu seeks in %5.2f seconds = %.2f seeks/sec, "
		       "latency mean %.2f ms, p99 %.2f ms\n",
		       depth, block / 1024, nlat, elapsed, (double)nlat / elapsed, mean_ms, p99_ms);
		json_object_begin("seeks");
		json_uint("iodepth", depth);
		json_uint("block_kib", block / 1024);
		json_uint("count", nlat);
		json_fixed("seconds", elapsed, 6);
		json_fixed("seeks_per_sec", (double)nlat / elapsed, 2);
		json_fixed("latency_mean_us", mean_ms * 1e3, 1);
		json_fixed("latency_p99_us", p99_ms * 1e3, 1);
		json_object_end();
	}
	free(lat);
	return err;
}
