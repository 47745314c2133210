/*
 * LD_PRELOAD: io_uring as Linux 5.4 and 5.5 have it (Ubuntu 20.04's kernel):
 * io_uring_setup() says only the features those kernels had, and a read
 * sent with IOSQE_ASYNC (Linux 5.6 on) fails, as each such read fails
 * there (EINVAL): io_uring_enter() fails with EINVAL and a line on stderr
 * says why.  Everything else passes through to the kernel.  (The program's
 * io_uring calls go through syscall(); its rings are mapped with mmap().)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include <linux/io_uring.h>

static int ring_fd = -1;
static unsigned int entries;
static struct io_uring_sqe *sqes;

long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	long a[6], r;
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	if (nr == __NR_io_uring_enter && (int)a[0] == ring_fd && sqes) {
		for (unsigned int i = 0; i < entries; i++)
			if (sqes[i].flags & IOSQE_ASYNC) {
				fprintf(stderr, "old-uring: IOSQE_ASYNC sent to a Linux 5.5 ring\n");
				errno = EINVAL;
				return -1;
			}
	}
	r = real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (nr == __NR_io_uring_setup && r >= 0) {
		struct io_uring_params *p = (struct io_uring_params *)a[1];

		p->features &= IORING_FEAT_SINGLE_MMAP | IORING_FEAT_NODROP | IORING_FEAT_SUBMIT_STABLE;
		ring_fd = (int)r;
		entries = p->sq_entries;
	}
	return r;
}

static void *mapped(void *m, int fd, off_t off)
{
	if (m != MAP_FAILED && fd == ring_fd && off == (off_t)IORING_OFF_SQES)
		sqes = m;
	return m;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);

	if (!real)
		real = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
	return mapped(real(addr, len, prot, flags, fd, off), fd, off);
}

void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);

	if (!real)
		real = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap64");
	return mapped(real(addr, len, prot, flags, fd, off), fd, off);
}
