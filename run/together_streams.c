/*
 * A disk's stdout and stderr in a run of many disks, kept here in the order
 * its process wrote them, to be said when its turn comes (together_say.c).
 * Two pipes cannot keep that order: when both hold something, nothing says
 * which came first.  So both of its descriptors are datagram sockets that
 * send to one socket here, whose one queue is in the order of the writes;
 * each datagram's sender (a name the kernel gave it) says which stream it
 * came on.  A datagram from any other sender is dropped.  Where such
 * sockets cannot be had (a sandbox that forbids them), two pipes, as before.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "together_parts.h"

/* A write larger than this fails on a datagram socket (EMSGSIZE): what one write() of the disk's process may be. */
#define MAX_WRITE (4u << 20)

static void close_both(int fd[2])
{
	for (int i = 0; i < 2; i++)
		if (fd[i] >= 0)
			close(fd[i]);
}

/* A datagram socket with a name of the kernel's choosing (autobind: its folder is no file), in *a. */
static int named_socket(struct sockaddr_un *a, socklen_t *len)
{
	struct sockaddr_un none = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	*len = sizeof(*a);
	if (fd >= 0 && (bind(fd, (const struct sockaddr *)&none, offsetof(struct sockaddr_un, sun_path)) ||
			getsockname(fd, (struct sockaddr *)a, len) || *len <= offsetof(struct sockaddr_un, sun_path))) {
		close(fd);
		fd = -1;
	}
	return fd;
}

/* One sender of the disk's process, connected to the socket at to: its name in *a. */
static int sender(const struct sockaddr_un *to, socklen_t to_len, struct sockaddr_un *a, socklen_t *len)
{
	int fd = named_socket(a, len), size = (int)MAX_WRITE;

	if (fd < 0)
		return -1;
	/* Beyond net.core.wmem_max where this process may (root), else as far as it goes. */
	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &size, sizeof(size)))
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof(size));
	if (connect(fd, (const struct sockaddr *)to, to_len)) {
		close(fd);
		return -1;
	}
	return fd;
}

static int open_sockets(struct member *m, int child[2])
{
	struct sockaddr_un here;
	socklen_t here_len;
	int fd = named_socket(&here, &here_len);

	if (fd < 0)
		return errno;
	child[0] = sender(&here, here_len, &m->from_out, &m->from_out_len);
	child[1] = child[0] < 0 ? -1 : sender(&here, here_len, &m->from_err, &m->from_err_len);
	if (child[1] < 0) {
		int err = errno;

		close_both(child);
		close(fd);
		return err;
	}
	m->out = fd;
	m->err = -1;
	return 0;
}

int streams_open(struct member *m, int child[2])
{
	int out[2], err[2];

	child[0] = child[1] = -1;
	if (open_sockets(m, child) == 0)
		return 0;
	if (pipe(out))
		return errno;
	if (pipe(err)) {
		int e = errno;

		close_both(out);
		return e;
	}
	m->out = out[0], child[0] = out[1];
	m->err = err[0], child[1] = err[1];
	return 0;
}

/* n bytes the disk's process wrote on stream ('o' or 'e'), kept after what came before. */
static void keep_output(struct member *m, char stream, const char *p, size_t n)
{
	unsigned int len = (unsigned int)n;

	if (!m->log)
		m->log = open_memstream(&m->log_buf, &m->log_len);
	if (!m->log)
		return;
	fputc(stream, m->log);
	fwrite(&len, sizeof(len), 1, m->log);
	fwrite(p, 1, n, m->log);
}

static bool same_name(const struct sockaddr_un *a, socklen_t a_len, const struct sockaddr_un *b, socklen_t b_len)
{
	return a_len == b_len && memcmp(a, b, a_len) == 0;
}

/*
 * The datagrams waiting, each kept as its sender's stream; false where the
 * socket failed.  Some at a time: a process that writes without pause does
 * not hold this one here.  The queue holds net.unix.max_dgram_qlen of them at
 * most (a sender waits for room), so that many are all of them.
 */
static bool take_datagrams(struct member *m)
{
	for (int taken = 0; taken < 64; taken++) {
		char peek;
		struct sockaddr_un from;
		socklen_t from_len = sizeof(from);
		ssize_t size = recv(m->out, &peek, 1, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT), n;
		char *buf;

		if (size < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
		buf = malloc(size ? (size_t)size : 1);
		n = recvfrom(m->out, buf ? buf : &peek, buf ? (size_t)size : 1, MSG_DONTWAIT, (struct sockaddr *)&from,
			     &from_len);
		if (n > 0 && buf) {
			if (same_name(&from, from_len, &m->from_out, m->from_out_len))
				keep_output(m, 'o', buf, (size_t)n);
			else if (same_name(&from, from_len, &m->from_err, m->from_err_len))
				keep_output(m, 'e', buf, (size_t)n);
		}
		free(buf);
		if (n < 0)
			return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
	}
	return true;
}

bool streams_take(struct member *m, int fd)
{
	char buf[4096];
	ssize_t n;

	if (m->err < 0)
		return take_datagrams(m);
	n = read(fd, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	keep_output(m, fd == m->out ? 'o' : 'e', buf, (size_t)n);
	return true;
}

void streams_ended(struct member *m)
{
	/* A socket has no end of its own: everything the process wrote is queued here by the time it has ended. */
	if (m->out >= 0 && m->err < 0) {
		take_datagrams(m);
		close(m->out);
		m->out = -1;
	}
}
