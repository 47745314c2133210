/*
 * The read queue's engines, each through its system calls alone (no
 * liburing, no libaio): the kernel headers name the structures.
 *
 * io_uring: the submission ring is filled in user space and handed over
 * with one io_uring_enter() per batch, which also waits for the first
 * completion; completions are read from the ring as the kernel writes
 * them, without a system call each.  The buffers and the file are
 * registered once, so no read pins pages or takes a file reference.
 * Linux native AIO: one io_submit() per batch and one io_getevents().
 * pread(): at one read in flight nothing is cheaper than the plain call.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <linux/aio_abi.h>
#include <linux/fs.h>
#include <linux/io_uring.h>

#include "largefile.h"
#include "array.h"
#include "readq.h"
#include "report.h"

#define MAX_BUFFER_BYTES (1ULL << 30)
#define HUGE_PAGE_BYTES (2u << 20)
#define ASYNC_MIN_BYTES (128u * 1024u)

struct engine {
	const char *name;
	int (*open)(struct readq *q);		/* an errno: this engine cannot run here */
	void (*queue)(struct readq *q, unsigned int slot);
	int (*wait)(struct readq *q, unsigned int at_least, struct readq_done *done);
	void (*close)(struct readq *q);
};

/* ---- pread: one read in flight ---- */

struct pread_state {
	bool pending;
	unsigned int slot;
};

static int pread_open(struct readq *q)
{
	if (q->depth != 1)
		return EINVAL;
	q->state = calloc(1, sizeof(struct pread_state));
	return q->state ? 0 : ENOMEM;
}

static void pread_queue(struct readq *q, unsigned int slot)
{
	struct pread_state *p = q->state;

	p->pending = true;
	p->slot = slot;
}

static int pread_wait(struct readq *q, unsigned int at_least, struct readq_done *done)
{
	struct pread_state *p = q->state;
	ssize_t n;

	(void)at_least;
	if (!p->pending)
		return -EINVAL;
	do
		n = pread(q->fd, q->buffers + (size_t)p->slot * q->block, q->block, (off_t)q->offsets[p->slot]);
	while (n < 0 && errno == EINTR);
	p->pending = false;
	done[0].slot = p->slot;
	done[0].res = n < 0 ? -errno : n;
	return 1;
}

static void pread_close(struct readq *q)
{
	free(q->state);
}

/* ---- Linux native AIO ---- */

struct aio_state {
	aio_context_t ctx;
	struct iocb *cbs;
	struct iocb **pending;
	unsigned int npending;
	struct io_event *events;
};

static int aio_open(struct readq *q)
{
	struct aio_state *a = calloc(1, sizeof(*a));

	q->state = a;
	if (!a)
		return ENOMEM;
	a->cbs = calloc(q->depth, sizeof(*a->cbs));
	a->pending = calloc(q->depth, sizeof(struct iocb *));
	a->events = calloc(q->depth, sizeof(*a->events));
	if (!a->cbs || !a->pending || !a->events)
		return ENOMEM;
	if (syscall(SYS_io_setup, q->depth, &a->ctx)) {
		a->ctx = 0;
		return errno;
	}
	return 0;
}

static void aio_queue(struct readq *q, unsigned int slot)
{
	struct aio_state *a = q->state;
	struct iocb *cb = &a->cbs[slot];

	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = (uint32_t)q->fd;
	cb->aio_lio_opcode = IOCB_CMD_PREAD;
	cb->aio_buf = (uint64_t)(uintptr_t)(q->buffers + (size_t)slot * q->block);
	cb->aio_nbytes = q->block;
	cb->aio_offset = (int64_t)q->offsets[slot];
	cb->aio_data = slot;
	a->pending[a->npending++] = cb;
}

static int aio_wait(struct readq *q, unsigned int at_least, struct readq_done *done)
{
	struct aio_state *a = q->state;
	long n;

	if (a->npending) {
		n = syscall(SYS_io_submit, a->ctx, (long)a->npending, a->pending);
		if (n != (long)a->npending)
			return n < 0 ? -errno : -EIO;
		a->npending = 0;
	}
	do
		n = syscall(SYS_io_getevents, a->ctx, (long)at_least, (long)q->depth, a->events, NULL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	for (long i = 0; i < n; i++) {
		done[i].slot = (unsigned int)a->events[i].data;
		done[i].res = a->events[i].res;
	}
	return (int)n;
}

static void aio_close(struct readq *q)
{
	struct aio_state *a = q->state;

	if (!a)
		return;
	if (a->ctx)
		syscall(SYS_io_destroy, a->ctx);
	free(a->cbs);
	free(a->pending);
	free(a->events);
	free(a);
}

/* ---- io_uring ---- */

struct uring_state {
	int fd;
	void *sq_ring, *cq_ring;
	size_t sq_ring_bytes, cq_ring_bytes;
	struct io_uring_sqe *sqes;
	size_t sqes_bytes;
	unsigned int *sq_tail, *sq_mask;
	unsigned int *cq_head, *cq_tail, *cq_mask;
	struct io_uring_cqe *cqes;
	unsigned int tail;		/* our copy of the submission tail */
	unsigned int to_submit;
	bool fixed_buffers, fixed_file;
	bool async;			/* send each read from the kernel's io-wq threads */
	struct iovec *iovs;		/* one per slot */
};

static int uring_setup(unsigned int entries, struct io_uring_params *p)
{
	/* Completions are run in this task when it waits: fewer wake-ups on a busy CPU. */
	static const unsigned int tries[] = {
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	int fd = -1;

	for (size_t i = 0; i < ARRAY_SIZE(tries) && fd < 0; i++) {
		memset(p, 0, sizeof(*p));
		p->flags = tries[i];
		fd = (int)syscall(__NR_io_uring_setup, entries, p);
		if (fd < 0 && errno != EINVAL)
			break;	/* ENOSYS, EPERM (io_uring_disabled, seccomp): no io_uring here */
	}
	return fd;
}

static int uring_open(struct readq *q)
{
	struct uring_state *u = calloc(1, sizeof(*u));
	struct io_uring_params p;
	char *sq, *cq;

	q->state = u;
	if (!u)
		return ENOMEM;
	u->fd = uring_setup(q->depth, &p);
	if (u->fd < 0)
		return errno;
	u->sq_ring_bytes = p.sq_off.array + p.sq_entries * sizeof(unsigned int);
	u->cq_ring_bytes = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (p.features & IORING_FEAT_SINGLE_MMAP) {
		if (u->cq_ring_bytes > u->sq_ring_bytes)
			u->sq_ring_bytes = u->cq_ring_bytes;
		u->cq_ring_bytes = u->sq_ring_bytes;
	}
	u->sq_ring = mmap(NULL, u->sq_ring_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, u->fd,
			  IORING_OFF_SQ_RING);
	if (u->sq_ring == MAP_FAILED) {
		u->sq_ring = NULL;
		return errno;
	}
	if (p.features & IORING_FEAT_SINGLE_MMAP) {
		u->cq_ring = u->sq_ring;
	} else {
		u->cq_ring = mmap(NULL, u->cq_ring_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, u->fd,
				  IORING_OFF_CQ_RING);
		if (u->cq_ring == MAP_FAILED) {
			u->cq_ring = NULL;
			return errno;
		}
	}
	u->sqes_bytes = p.sq_entries * sizeof(struct io_uring_sqe);
	u->sqes = mmap(NULL, u->sqes_bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, u->fd, IORING_OFF_SQES);
	if (u->sqes == MAP_FAILED) {
		u->sqes = NULL;
		return errno;
	}
	sq = u->sq_ring;
	cq = u->cq_ring;
	u->sq_tail = (unsigned int *)(sq + p.sq_off.tail);
	u->sq_mask = (unsigned int *)(sq + p.sq_off.ring_mask);
	u->cq_head = (unsigned int *)(cq + p.cq_off.head);
	u->cq_tail = (unsigned int *)(cq + p.cq_off.tail);
	u->cq_mask = (unsigned int *)(cq + p.cq_off.ring_mask);
	u->cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	u->tail = *u->sq_tail;
	/* Submission slot i always names entry i. */
	for (unsigned int i = 0; i < p.sq_entries; i++)
		((unsigned int *)(sq + p.sq_off.array))[i] = i;

	u->iovs = calloc(q->depth, sizeof(*u->iovs));
	if (!u->iovs)
		return ENOMEM;
	for (unsigned int i = 0; i < q->depth; i++)
		u->iovs[i] = (struct iovec){ q->buffers + (size_t)i * q->block, q->block };
	/* Without CAP_IPC_LOCK, RLIMIT_MEMLOCK may refuse this: reads then name their buffer each time. */
	u->fixed_buffers = syscall(__NR_io_uring_register, u->fd, IORING_REGISTER_BUFFERS, u->iovs, q->depth) == 0;
	u->fixed_file = syscall(__NR_io_uring_register, u->fd, IORING_REGISTER_FILES, &q->fd, 1) == 0;
	/*
	 * A large read may be split by the block layer.  Tried first without
	 * blocking, a split read that a blk-throttle limit then holds back is
	 * charged to the limit twice (Linux 6.x: such a device gave io_uring
	 * half its rate, 507 MiB/s of 1000); sent from io-wq it is charged
	 * once.  The worker's hop costs nothing next to the transfer of a
	 * large read; small reads go out inline, where it would double the
	 * CPU time per read.  IOSQE_ASYNC came with Linux 5.6, as did the
	 * feature RW_CUR_POS: Linux 5.4 and 5.5 (Ubuntu 20.04's) have
	 * io_uring but fail each read that asks for it (EINVAL).
	 */
	u->async = q->block >= ASYNC_MIN_BYTES && (p.features & IORING_FEAT_RW_CUR_POS);
	q->detail = u->fixed_buffers && u->fixed_file ? "registered buffers and file"
		    : u->fixed_buffers ? "registered buffers"
		    : u->fixed_file ? "registered file" : "unregistered buffers and file";
	return 0;
}

static void uring_queue(struct readq *q, unsigned int slot)
{
	struct uring_state *u = q->state;
	struct io_uring_sqe *sqe = &u->sqes[u->tail & *u->sq_mask];

	memset(sqe, 0, sizeof(*sqe));
	if (u->fixed_buffers) {
		sqe->opcode = IORING_OP_READ_FIXED;
		sqe->addr = (uint64_t)(uintptr_t)u->iovs[slot].iov_base;
		sqe->len = (uint32_t)q->block;
		sqe->buf_index = (uint16_t)slot;
	} else {
		sqe->opcode = IORING_OP_READV;
		sqe->addr = (uint64_t)(uintptr_t)&u->iovs[slot];
		sqe->len = 1;
	}
	sqe->fd = u->fixed_file ? 0 : q->fd;
	sqe->flags = (uint8_t)((u->fixed_file ? IOSQE_FIXED_FILE : 0) | (u->async ? IOSQE_ASYNC : 0));
	sqe->off = q->offsets[slot];
	sqe->user_data = slot;
	u->tail++;
	u->to_submit++;
}

/* The completions the kernel has posted, taken from the ring. */
static int uring_reap(struct uring_state *u, struct readq_done *done)
{
	unsigned int head = *u->cq_head;
	unsigned int tail = __atomic_load_n(u->cq_tail, __ATOMIC_ACQUIRE);
	int n = 0;

	for (; head != tail; head++, n++) {
		const struct io_uring_cqe *cqe = &u->cqes[head & *u->cq_mask];

		done[n].slot = (unsigned int)cqe->user_data;
		done[n].res = cqe->res;
	}
	__atomic_store_n(u->cq_head, head, __ATOMIC_RELEASE);
	return n;
}

static int uring_wait(struct readq *q, unsigned int at_least, struct readq_done *done)
{
	struct uring_state *u = q->state;
	int n;

	__atomic_store_n(u->sq_tail, u->tail, __ATOMIC_RELEASE);
	for (;;) {
		/* What is already back needs no system call, when nothing waits to go out. */
		if (!u->to_submit && (n = uring_reap(u, done)) > 0)
			return n;
		long r = syscall(__NR_io_uring_enter, u->fd, u->to_submit, at_least, IORING_ENTER_GETEVENTS, NULL, 0);

		if (r < 0 && errno != EINTR && errno != EAGAIN && errno != EBUSY)
			return -errno;
		if (r > 0)
			u->to_submit -= (unsigned int)r;
		if ((n = uring_reap(u, done)) > 0)
			return n;
	}
}

static void uring_close(struct readq *q)
{
	struct uring_state *u = q->state;

	if (!u)
		return;
	if (u->sqes)
		munmap(u->sqes, u->sqes_bytes);
	if (u->cq_ring && u->cq_ring != u->sq_ring)
		munmap(u->cq_ring, u->cq_ring_bytes);
	if (u->sq_ring)
		munmap(u->sq_ring, u->sq_ring_bytes);
	if (u->fd > 0)
		close(u->fd);
	free(u->iovs);
	free(u);
}

/* ---- the queue ---- */

static const struct engine engines[] = {
	{ "pread", pread_open, pread_queue, pread_wait, pread_close },
	{ "io_uring", uring_open, uring_queue, uring_wait, uring_close },
	{ "libaio", aio_open, aio_queue, aio_wait, aio_close },
};

const char *readq_engine_name(const struct readq *q)
{
	return q->engine ? q->engine->name : "none";
}

void readq_queue(struct readq *q, unsigned int slot, unsigned long long offset)
{
	q->offsets[slot] = offset;
	q->engine->queue(q, slot);
}

int readq_wait(struct readq *q, unsigned int at_least, struct readq_done *done)
{
	return q->engine->wait(q, at_least ? at_least : 1, done);
}

void readq_close(struct readq *q)
{
	if (q->engine)
		q->engine->close(q);
	q->engine = NULL;
	if (q->fd >= 0)
		close(q->fd);
	q->fd = -1;
	if (q->buffers)
		munmap(q->buffers, q->buffer_bytes);
	free(q->offsets);
	free(q->started);
	q->buffers = NULL;
	q->offsets = NULL;
	q->started = NULL;
}

/* This process's memory in transparent huge pages, in bytes (0 where the kernel does not say). */
static unsigned long long huge_page_bytes(void)
{
	static const char key[] = "AnonHugePages:";
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	unsigned long long kib = 0;
	char line[128];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, sizeof(key) - 1) == 0) {
			kib = strtoull(line + sizeof(key) - 1, NULL, 10);
			break;
		}
	fclose(f);
	return kib * 1024;
}

/*
 * The buffers go in 2 MiB pages where the kernel has them (transparent
 * huge pages not turned off): a large read then fills a few physically
 * contiguous segments instead of one per 4 KiB page, so the block layer
 * need not split it (a loop device takes 128 segments: a 1 MiB read in
 * 4 KiB pages reached it as two requests), and a device that copies into
 * it misses the TLB less.  They are faulted in here: a first touch of
 * fresh memory inside the timed loop costs more than the reads on some
 * machines (virtual ones above all), and fio's figures do not include it
 * either.
 */
static int alloc_buffers(struct readq *q)
{
	size_t bytes = (size_t)q->depth * q->block;
	size_t whole = (bytes + HUGE_PAGE_BYTES - 1) & ~(size_t)(HUGE_PAGE_BYTES - 1);
	size_t span = whole + HUGE_PAGE_BYTES;
	unsigned long long before = huge_page_bytes();
	char *map, *start;

	/* Mapped here, not allocated: an allocator may touch the memory (a header) before it is advised. */
	map = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return ENOMEM;
	start = map + ((HUGE_PAGE_BYTES - (uintptr_t)map % HUGE_PAGE_BYTES) % HUGE_PAGE_BYTES);
	if (start > map)
		munmap(map, (size_t)(start - map));
	if (map + span > start + whole)
		munmap(start + whole, (size_t)(map + span - (start + whole)));
	q->buffers = start;
	q->buffer_bytes = whole;
	madvise(q->buffers, whole, MADV_HUGEPAGE);
	memset(q->buffers, 0, whole);
	q->huge_pages = huge_page_bytes() - before >= whole;
	return 0;
}

/* q->summary: the engine, and in brackets how its reads are set up. */
static void describe(struct readq *q)
{
	const char *pages = q->huge_pages ? "buffers in 2 MiB pages" : NULL;
	const char *name = q->engine->name;

	if (q->detail && pages)
		snprintf(q->summary, sizeof(q->summary), "%s (%s, %s)", name, q->detail, pages);
	else if (q->detail || pages)
		snprintf(q->summary, sizeof(q->summary), "%s (%s)", name, q->detail ? q->detail : pages);
	else
		snprintf(q->summary, sizeof(q->summary), "%s", name);
}

static int readq_setup(struct readq *q, const char *path, unsigned int depth, size_t block, const char *what,
		       bool one_at_a_time_will_do)
{
	struct stat st;
	int sector = 512, err = 0;

	memset(q, 0, sizeof(*q));
	q->fd = -1;
	/* The node opened is the one judged (fstat): a path can change between the two. */
	q->fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (q->fd < 0 && (stat(path, &st) || S_ISBLK(st.st_mode))) {
		err = errno;
		complain(" %s: %s does not take O_DIRECT reads: %s\n", what, path, strerror(err));
		return err;
	}
	if (q->fd < 0 || fstat(q->fd, &st) || !S_ISBLK(st.st_mode)) {
		complain(" %s: not supported on %s: it needs a block device\n", what, path);
		return ENOTBLK;
	}
	if ((unsigned long long)depth * block > MAX_BUFFER_BYTES) {
		complain(" %s: iodepth x block size is over 1 GiB of buffers\n", what);
		return EINVAL;
	}
	if (ioctl(q->fd, BLKGETSIZE64, &q->size) || ioctl(q->fd, BLKSSZGET, &sector)) {
		err = errno;
		complain(" %s: BLKGETSIZE64 failed: %s\n", what, strerror(err));
		return err;
	}
	q->sector = sector > 0 ? (unsigned int)sector : 512;
	if (block % q->sector) {
		complain(" %s: the block size is not a multiple of the %u-byte sector\n", what, q->sector);
		return EINVAL;
	}
	q->depth = depth;
	q->block = block;
	q->offsets = calloc(depth, sizeof(*q->offsets));
	q->started = calloc(depth, sizeof(*q->started));
	if (!q->offsets || !q->started)
		return ENOMEM;
	err = alloc_buffers(q);
	if (err)
		return err;
	for (size_t i = 0; i < ARRAY_SIZE(engines); i++) {
		q->detail = NULL;
		err = engines[i].open(q);
		if (!err) {
			q->engine = &engines[i];
			break;
		}
		engines[i].close(q);
		q->state = NULL;
	}
	/* No engine queues several reads (qemu-user, a seccomp filter): one at a time, where that serves. */
	if (!q->engine && one_at_a_time_will_do) {
		q->depth = 1;
		if ((err = pread_open(q)) == 0)
			q->engine = &engines[0];
	}
	if (!q->engine) {
		complain(" %s: no way to queue reads here (io_setup: %s)\n", what, strerror(err));
		return err;
	}
	describe(q);
	return 0;
}

int readq_open(struct readq *q, const char *path, unsigned int depth, size_t block, const char *what)
{
	int err = readq_setup(q, path, depth, block, what, false);

	if (err)
		readq_close(q);
	/*
	 * A timing (--iodepth, --seeks): nothing the page cache holds may be
	 * counted, as -t flushes.  Not in readq_open_or_one's reads (the
	 * surface scan, the erase's verify): O_DIRECT needs no flush, and a
	 * flush writes back other users' dirty buffers.
	 */
	else
		ioctl(q->fd, BLKFLSBUF, NULL);
	return err;
}

int readq_open_or_one(struct readq *q, const char *path, unsigned int depth, size_t block, const char *what)
{
	int err = readq_setup(q, path, depth, block, what, true);

	if (err)
		readq_close(q);
	return err;
}
