/*
 * A disk's stdout and stderr in a run of many disks, kept here in the order
 * its process wrote them, to be said when its turn comes (together_say.c).
 * Two pipes cannot keep that order: when both hold something, nothing says
 * which came first.  So both of its descriptors are datagram sockets that
 * send to one socket here, whose one queue is in the order of the writes;
 * each datagram's sender (a name the kernel gave it) says which stream it
 * came on.  A datagram from any other sender is dropped.  Any process
 * may send to such a name (it has no file mode), and take one that is
 * free: so this process holds a copy of both senders until it has taken
 * all they sent, lest another socket, bound to the name of one whose disk's
 * process ended, speak for that disk.  Where such sockets cannot be had (a
 * sandbox that forbids them), two pipes, as before.
 *
 * Such a socket queues a few datagrams (net.unix.max_dgram_qlen: 10, or 512
 * where systemd sets it), and each is one write: a disk's process would
 * wait after a dozen lines or progress dots while this one waits on its own
 * stdout (a pager not read, ^S on a terminal), its firmware half sent.  So
 * a thread of its own takes them as they come, into memory, whatever the
 * rest of this process waits on; it alone touches a socket and its disk's
 * text from then on, until it has closed the socket (streams_closed()).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
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
	for (int i = 0; child[1] >= 0 && i < 2; i++)
		m->senders[i] = fcntl(child[i], F_DUPFD_CLOEXEC, 3);
	if (child[1] < 0 || m->senders[0] < 0 || m->senders[1] < 0) {
		int err = errno;

		close_both(child);
		close_both(m->senders);
		m->senders[0] = m->senders[1] = -1;
		close(fd);
		return err;
	}
	m->out = fd;
	m->err = -1;
	m->tagged = true;
	return 0;
}

int streams_open(struct member *m, int child[2])
{
	int out[2], err[2];

	child[0] = child[1] = m->senders[0] = m->senders[1] = -1;
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
 * The datagrams waiting, max at most, each kept as its sender's stream;
 * false where the socket failed, *empty once none waits.
 */
static bool take_datagrams(struct member *m, int max, bool *empty)
{
	*empty = false;
	for (int taken = 0; taken < max; taken++) {
		char peek;
		struct sockaddr_un from;
		socklen_t from_len = sizeof(from);
		ssize_t size = recv(m->out, &peek, 1, MSG_PEEK | MSG_TRUNC | MSG_DONTWAIT), n;
		char *buf;

		if (size < 0) {
			*empty = errno == EAGAIN || errno == EWOULDBLOCK;
			return *empty || errno == EINTR;
		}
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
	bool empty;

	/* Some at a time: a process that writes without pause does not hold this one here. */
	if (m->err < 0)
		return take_datagrams(m, 64, &empty);
	n = read(fd, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	keep_output(m, fd == m->out ? 'o' : 'e', buf, (size_t)n);
	return true;
}

/*
 * A socket has no end of its own: everything the process wrote is queued
 * here by the time it has ended, up to net.unix.max_dgram_qlen datagrams
 * (512 where systemd sets it), others' among them: all are taken.  Not
 * without end: others' sent on without pause would hold this process here.
 */
static void take_last(struct member *m)
{
	bool empty = false;

	for (int rounds = 0; !empty && rounds < 1024 && take_datagrams(m, 64, &empty); rounds++)
		;
	close(m->out);
	m->out = -1;
	close_both(m->senders);
	m->senders[0] = m->senders[1] = -1;
}

/* The thread that takes the datagrams (streams_follow()), and what it and this process share, under lock. */
static struct {
	pthread_t thread;
	bool running, stop;
	pthread_mutex_t lock;
	struct member *m;
	int n;
	int kick[2];		/* this process -> the thread: a disk's process ended, or stop */
	int done[2];		/* the thread -> this process: a socket was closed */
	struct pollfd *pfd;	/* the thread's */
} reader = { .lock = PTHREAD_MUTEX_INITIALIZER, .kick = { -1, -1 }, .done = { -1, -1 } };

static void nudge(int fd)
{
	ssize_t n = write(fd, "x", 1);

	(void)n;	/* a full pipe is already a nudge */
}

/* Under the lock: the sockets of disks whose process ended, emptied and closed; their number. */
static int close_ended(void)
{
	int closed = 0;

	for (int i = 0; i < reader.n; i++) {
		struct member *m = &reader.m[i];

		if (m->tagged && m->out >= 0 && m->out_ended) {
			take_last(m);
			closed++;
		}
	}
	return closed;
}

static void *reader_main(void *arg)
{
	struct pollfd *pfd = arg;

	for (;;) {
		int k = 0;
		char drain[64];

		pthread_mutex_lock(&reader.lock);
		if (close_ended())
			nudge(reader.done[1]);
		if (reader.stop) {
			pthread_mutex_unlock(&reader.lock);
			return NULL;
		}
		pfd[k++] = (struct pollfd){ .fd = reader.kick[0], .events = POLLIN };
		for (int i = 0; i < reader.n; i++)
			if (reader.m[i].tagged && reader.m[i].out >= 0)
				pfd[k++] = (struct pollfd){ .fd = reader.m[i].out, .events = POLLIN };
		pthread_mutex_unlock(&reader.lock);
		/* Only this thread closes those sockets: none of them is closed while it waits on it. */
		if (poll(pfd, (nfds_t)k, -1) <= 0)
			continue;
		if (pfd[0].revents && read(reader.kick[0], drain, sizeof(drain)) < 0)
			continue;
		pthread_mutex_lock(&reader.lock);
		for (int p = 1; p < k; p++)
			for (int i = 0; pfd[p].revents && i < reader.n; i++)
				if (reader.m[i].tagged && reader.m[i].out == pfd[p].fd) {
					bool empty;

					take_datagrams(&reader.m[i], 64, &empty);
				}
		pthread_mutex_unlock(&reader.lock);
	}
}

static bool make_pipe(int fd[2])
{
	return pipe2(fd, O_CLOEXEC | O_NONBLOCK) == 0;
}

int streams_follow(struct member *m, int n)
{
	sigset_t all, was;
	bool any = false;
	struct pollfd *pfd;

	for (int i = 0; i < n; i++)
		any |= m[i].tagged;
	if (!any || !(pfd = calloc((size_t)n + 1, sizeof(*pfd))))
		return -1;
	if (!make_pipe(reader.kick) || !make_pipe(reader.done)) {
		close_both(reader.kick);
		free(pfd);
		reader.kick[0] = reader.kick[1] = -1;
		return -1;
	}
	reader.m = m;
	reader.n = n;
	reader.stop = false;
	reader.pfd = pfd;
	/* The stop signals are this process's to see (its poll() ends on them), not the thread's. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &was);
	reader.running = pthread_create(&reader.thread, NULL, reader_main, pfd) == 0;
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	if (!reader.running) {
		free(pfd);
		reader.pfd = NULL;
		close_both(reader.kick);
		close_both(reader.done);
		reader.kick[0] = reader.kick[1] = reader.done[0] = reader.done[1] = -1;
		return -1;
	}
	return reader.done[0];
}

void streams_follow_end(void)
{
	if (!reader.running)
		return;
	pthread_mutex_lock(&reader.lock);
	reader.stop = true;
	pthread_mutex_unlock(&reader.lock);
	nudge(reader.kick[1]);
	pthread_join(reader.thread, NULL);
	reader.running = false;
	free(reader.pfd);
	reader.pfd = NULL;
	close_both(reader.kick);
	close_both(reader.done);
	reader.kick[0] = reader.kick[1] = reader.done[0] = reader.done[1] = -1;
}

void streams_woken(void)
{
	char drain[64];

	if (reader.done[0] >= 0)
		while (read(reader.done[0], drain, sizeof(drain)) > 0)
			;
}

void streams_ended(struct member *m)
{
	if (!m->tagged)
		return;
	if (!reader.running) {
		if (m->out >= 0)
			take_last(m);
		return;
	}
	pthread_mutex_lock(&reader.lock);
	m->out_ended = true;
	pthread_mutex_unlock(&reader.lock);
	nudge(reader.kick[1]);
}

bool streams_threaded(const struct member *m)
{
	return m->tagged && reader.running;
}

bool streams_closed(const struct member *m)
{
	bool closed;

	if (!m->tagged || !reader.running)
		return m->out < 0 && m->err < 0;
	pthread_mutex_lock(&reader.lock);
	closed = m->out < 0;
	pthread_mutex_unlock(&reader.lock);
	return closed;
}
