/*
 * A queue of O_DIRECT reads of one block device, kept full by an engine
 * that costs the least CPU per read that the kernel offers: io_uring
 * (rings shared with the kernel, reads submitted and reaped in batches,
 * buffers and file registered), Linux native AIO where io_uring is
 * missing or disabled, and plain pread() with one read in flight.
 */
#ifndef HDPARM_READQ_H
#define HDPARM_READQ_H

#include <stdbool.h>
#include <stddef.h>

struct engine;

struct readq {
	const struct engine *engine;
	void *state;			/* the engine's own */
	int fd;
	unsigned int depth;
	size_t block;
	char *buffers;			/* depth x block, aligned for O_DIRECT */
	size_t buffer_bytes;		/* mapped for them: whole 2 MiB pages */
	bool huge_pages;		/* the buffers are in 2 MiB pages */
	unsigned long long *offsets;	/* per slot: where its read goes */
	double *started;		/* per slot: the batch its read went out in */
	unsigned long long size;	/* device bytes */
	unsigned int sector;		/* logical sector size */
	const char *detail;		/* the engine's: "registered buffers and file" */
	char summary[96];		/* for --verbose: "io_uring (registered buffers and file, buffers in 2 MiB pages)" */
};

/* One read that came back: its slot, and the bytes read or -errno. */
struct readq_done {
	unsigned int slot;
	long long res;
};

/*
 * Open path again with O_DIRECT and set up depth slots of block bytes,
 * on the first engine that works here; what is printed says what (for
 * the option named by what).  An errno on failure, with its message, and
 * nothing left open.  A timing's queue: the device's buffers flushed
 * (BLKFLSBUF), as -t does.
 */
int readq_open(struct readq *q, const char *path, unsigned int depth, size_t block, const char *what);
/* The same, but where no engine queues several reads, pread() with one in flight (q->depth 1); no flush. */
int readq_open_or_one(struct readq *q, const char *path, unsigned int depth, size_t block, const char *what);
void readq_close(struct readq *q);

/* "io_uring", "libaio" or "pread". */
const char *readq_engine_name(const struct readq *q);

/* Queue a read of slot's buffer at offset; it goes out with the next readq_wait(). */
void readq_queue(struct readq *q, unsigned int slot, unsigned long long offset);

/*
 * Send what is queued and wait for at least at_least reads (1 if 0) to
 * come back: returns how many did (in done, room for depth), or -errno.
 */
int readq_wait(struct readq *q, unsigned int at_least, struct readq_done *done);

#endif
