/*
 * Measurements with several requests in flight: sequential throughput
 * (-t --iodepth N) and random reads (--seeks), on the read queue of
 * readq.c.  The clock is read once per batch of completions, not per
 * read: a read's latency runs from the batch it went out in to the batch
 * it came back in.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "largefile.h"
#include "iodepth.h"
#include "json.h"
#include "readq.h"
#include "report.h"

#define RUN_SECONDS 3.0

/* What a run of queued reads did. */
struct queue_result {
	size_t count;		/* reads completed */
	double elapsed;		/* seconds, first submit to last completion */
	double *latency;	/* per read, when asked for */
	size_t cap;
	double latency_sum;
};

/* Where the next read goes; false when there is none. */
typedef bool next_offset_fn(struct readq *r, void *ctx, unsigned long long *offset);

/*
 * Keep r->depth reads in flight for RUN_SECONDS (or until next() has no
 * more), refilling each slot as it completes.  A failed or short read ends
 * the run with a message naming its offset.
 */
static int run_queue(struct readq *r, next_offset_fn *next, void *ctx, struct queue_result *q, bool latencies)
{
	struct readq_done *done = calloc(r->depth, sizeof(*done));
	unsigned int inflight = 0;
	unsigned long long offset;
	cpu_set_t was, here;
	bool pinned = false;
	double t0;
	int err = 0, cpu = sched_getcpu();

	memset(q, 0, sizeof(*q));
	if (!done)
		return ENOMEM;
	if (latencies) {
		q->cap = 65536;
		q->latency = malloc(q->cap * sizeof(*q->latency));
		if (!q->latency) {
			free(done);
			return ENOMEM;
		}
	}
	/*
	 * Stay on one CPU for the run: where a read takes microseconds, the
	 * scheduler moving this thread between reads costs more than the read
	 * (and varies from run to run); on a drive it changes nothing.
	 */
	if (cpu >= 0 && sched_getaffinity(0, sizeof(was), &was) == 0) {
		CPU_ZERO(&here);
		CPU_SET(cpu, &here);
		pinned = sched_setaffinity(0, sizeof(here), &here) == 0;
	}
	t0 = monotonic_seconds();
	for (unsigned int slot = 0; slot < r->depth && next(r, ctx, &offset); slot++) {
		readq_queue(r, slot, offset);
		r->started[slot] = t0;
		inflight++;
	}
	while (inflight && !err) {
		/* A quarter of the queue a batch: fewer system calls, and the queue never runs dry. */
		int n = readq_wait(r, inflight / 4, done);
		double t;

		if (n < 0) {
			err = -n;
			complain(" queued reads failed (%s): %s\n", readq_engine_name(r), strerror(err));
			break;
		}
		t = monotonic_seconds();
		q->elapsed = t - t0;
		for (int i = 0; i < n; i++) {
			unsigned int slot = done[i].slot;

			inflight--;
			if (done[i].res < 0 || (size_t)done[i].res != r->block) {
				err = done[i].res < 0 ? (int)-done[i].res : EIO;
				complain(" read failed at byte offset %llu: %s\n", r->offsets[slot],
					 done[i].res < 0 ? strerror(err) : "short read");
				continue;
			}
			if (latencies && q->count == q->cap) {
				double *bigger = realloc(q->latency, q->cap * 2 * sizeof(*bigger));

				if (!bigger) {
					err = ENOMEM;
					continue;
				}
				q->latency = bigger;
				q->cap *= 2;
			}
			if (latencies)
				q->latency[q->count] = t - r->started[slot];
			q->latency_sum += t - r->started[slot];
			q->count++;
			if (!err && q->elapsed < RUN_SECONDS && next(r, ctx, &offset)) {
				readq_queue(r, slot, offset);
				r->started[slot] = t;
				inflight++;
			}
		}
	}
	/* Let what is still queued finish before the buffers go. */
	for (int n; inflight && (n = readq_wait(r, inflight, done)) > 0;)
		inflight -= (unsigned int)n;
	if (pinned)
		sched_setaffinity(0, sizeof(was), &was);
	free(done);
	return err;
}

struct sequence {
	unsigned long long next;
};

static bool next_in_sequence(struct readq *r, void *ctx, unsigned long long *offset)
{
	struct sequence *seq = ctx;

	if (seq->next + r->block > r->size)
		return false;
	*offset = seq->next;
	seq->next += r->block;
	return true;
}

/* The device, from --offset, must hold at least one block. */
static int check_offset(const struct readq *r, const struct settings *s, unsigned long long start)
{
	if (start + r->block <= r->size)
		return 0;
	complain(" --offset %llu: beyond the end of the device (%llu bytes)\n",
		(unsigned long long)s->v[OPT_OFFSET].num, r->size);
	return EINVAL;
}

/* --verbose names the engine (it goes into --json with the figures). */
static void say_engine(const struct device *dev, const struct readq *r)
{
	if (dev->run.verbose && r->engine)
		out(" read engine: %s\n", r->summary);
}

int time_iodepth_reads(struct device *dev, const struct settings *s)
{
	unsigned int depth = (unsigned int)s->v[OPT_IODEPTH].num;
	size_t block = (size_t)(s->v[OPT_BLOCK_SIZE].given ? s->v[OPT_BLOCK_SIZE].num : 1024) * 1024;
	struct sequence seq = { .next = s->v[OPT_OFFSET].given ? s->v[OPT_OFFSET].num << 30 : 0 };
	struct queue_result q;
	struct readq r;
	unsigned long long bytes;
	const char *engine;
	int err = readq_open(&r, dev->path, depth, block, "--iodepth");

	if (!err)
		err = check_offset(&r, s, seq.next);
	if (!err)
		err = run_queue(&r, next_in_sequence, &seq, &q, false);
	say_engine(dev, &r);
	engine = readq_engine_name(&r);
	readq_close(&r);
	if (err)
		return err;
	bytes = (unsigned long long)q.count * block;
	out(" Timing O_DIRECT disk reads (iodepth %u, %zu KiB): %3llu MB in %5.2f seconds = %6.2f MB/sec\n",
	       depth, block / 1024, bytes >> 20, q.elapsed, (double)bytes / 1048576.0 / q.elapsed);
	dev->disk_reads = (struct timing_result){ .valid = true, .mib = (unsigned int)(bytes >> 20), .seconds = q.elapsed,
						  .direct = true, .has_offset = s->v[OPT_OFFSET].given,
						  .offset_gib = s->v[OPT_OFFSET].num, .iodepth = depth,
						  .block_kib = (unsigned int)(block / 1024), .engine = engine };
	return 0;
}

/* xorshift64*: plenty for spreading reads over a device. */
struct scatter {
	uint64_t state;
	unsigned long long start, slots;
};

static bool next_at_random(struct readq *r, void *ctx, unsigned long long *offset)
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
	struct scatter sc = { .state = (uint64_t)(monotonic_seconds() * 1e9) | 1,
			      .start = s->v[OPT_OFFSET].given ? s->v[OPT_OFFSET].num << 30 : 0 };
	struct queue_result q = { 0 };
	struct readq r;
	const char *engine;
	int err;

	(void)opt;
	err = readq_open(&r, dev->path, depth, block, "--seeks");
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
	say_engine(dev, &r);
	engine = readq_engine_name(&r);
	readq_close(&r);
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
		json_string("engine", engine);
		json_object_end();
	}
	free(q.latency);
	return err;
}
