/*
 * Who woke a disk: the kernel's block_rq_insert and block_rq_issue
 * tracepoints, read through a tracefs instance of our own (tracefs mounted
 * where it is not).
 */
#ifndef HDPARM_WAKE_TRACE_H
#define HDPARM_WAKE_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct wake_trace {
	char dir[160];		/* our instance; "" when there is none */
	char mounted[64];	/* tracefs, where this watcher mounted it ("": found mounted) */
};

/* One request the kernel issued to a disk. */
struct wake_io {
	char comm[32];
	long pid;		/* the task that issued it (-1: not said) */
	const char *op;		/* "read", "write", "flush", "discard", "pass-through command" */
	uint64_t lba;		/* in 512-byte sectors, as the block layer counts */
	unsigned int sectors;
};

/* Make the instance (nothing traced yet): 0, or an errno with why (a sentence) filled in; nothing said. */
int wake_trace_open(struct wake_trace *t, char *why, size_t size);

/* Trace the requests issued to these disks (the ones asleep; n 0: none); 0 or an errno. */
int wake_trace_disks(struct wake_trace *t, const dev_t *disks, int n);

/* A mark in the trace: disk was put in standby now. */
void wake_trace_mark(struct wake_trace *t, dev_t disk);

/* The first request to disk after its last mark that another process issued; false: none. */
bool wake_trace_first(struct wake_trace *t, dev_t disk, struct wake_io *io);

/* Stop tracing and remove the instance. */
void wake_trace_close(struct wake_trace *t);

/* Parse one line of the trace ("comm-pid [cpu] ... block_rq_issue: 8,0 R 4096 () 2048 + 8 ... [comm]", or _insert). */
bool wake_trace_parse(const char *line, unsigned int *major, unsigned int *minor, struct wake_io *io);

#endif
