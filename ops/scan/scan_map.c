/*
 * --scan-map FILE: the scan's state kept as it goes (scan_map_format.h).
 *
 * A new map is made whole beside its name (a temporary file: the header,
 * a '.' for every block, so that a file system too small says so before
 * anything is read, and a first checkpoint) and only then given the name,
 * never over a file that is there.  The scan's blocks go into a window of
 * characters; every few seconds and at the end a checkpoint writes the
 * window in place, appends the new unreadable LBAs and slow regions to the
 * log, syncs, and appends the checkpoint line, synced: a crash at any
 * moment leaves a map whose last whole checkpoint names only blocks read,
 * with every unreadable LBA of theirs.  A map that is there is resumed:
 * the same disk and range, or refused before anything is read; the blocks
 * before its last checkpoint are streamed back from the file through
 * scan_restore_block(), and the log's torn tail, if any, is cut.  The map
 * is locked (flock) while a scan holds it: a second copy is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "clock.h"
#include "json.h"
#include "file_write.h"
#include "kernel_identity.h"
#include "loop_identity.h"
#include "report.h"
#include "scan_map.h"
#include "scan_map_format.h"
#include "sysfs.h"

/* A checkpoint at least this often, in seconds. */
#define CHECKPOINT_SECONDS 3.0
#define LOG_MARK "\nlog\n"
#define CHUNK 65536

static int pwrite_all(int fd, const char *buf, size_t len, uint64_t at)
{
	while (len) {
		ssize_t n = pwrite(fd, buf, len, (off_t)at);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : EIO;
		buf += n;
		len -= (size_t)n;
		at += (uint64_t)n;
	}
	return 0;
}

/* FNV-1a, 64 bits, of n bytes, on from h. */
static uint64_t fnv64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

/*
 * A disk that nothing else names, named by its bytes: SCAN_MAP_SAMPLE_SECTORS
 * sectors spread over the range, hashed with where they are (a sector that
 * does not read counts as its errno).  Sectors all alike (a zeroed disk)
 * tell nothing: SCAN_MAP_SAMPLE_ALIKE.
 */
static void sample_of(int fd, const struct scan_result *r, char *out, size_t size)
{
	uint64_t h = 14695981039346656037ull, span = r->last_lba - r->first_lba;
	size_t n = r->sector_bytes;
	unsigned char *buf = NULL, *first = NULL;
	bool alike = true;

	if (posix_memalign((void **)&buf, 4096, n) || posix_memalign((void **)&first, 4096, n)) {
		free(buf);
		snprintf(out, size, "%s", SCAN_MAP_SAMPLE_ALIKE);	/* nothing known: nothing resumed */
		return;
	}
	for (uint64_t i = 0; i < SCAN_MAP_SAMPLE_SECTORS; i++) {
		uint64_t lba = r->first_lba + span / (SCAN_MAP_SAMPLE_SECTORS - 1) * i;
		ssize_t got;

		do
			got = pread(fd, buf, n, (off_t)(lba * n));
		while (got < 0 && errno == EINTR);
		h = fnv64(h, &lba, sizeof(lba));
		if (got == (ssize_t)n)
			h = fnv64(h, buf, n);
		else
			h = fnv64(h, &errno, sizeof(errno));
		if (i == 0)
			memcpy(first, buf, n);
		alike = alike && got == (ssize_t)n && memcmp(first, buf, n) == 0;
	}
	if (alike)
		snprintf(out, size, "%s", SCAN_MAP_SAMPLE_ALIKE);
	else
		snprintf(out, size, "%016" PRIx64, h);
	free(buf);
	free(first);
}

/* What the map is of: the disk as the kernel names it (sysfs), its size and the range. */
static void identity_now(struct device *dev, const struct scan_result *r, uint64_t sectors, struct scan_map_id *id)
{
	struct disk_identity k;
	struct stat st;
	char dir[96];

	memset(id, 0, sizeof(*id));
	if (kernel_identity(dev, &k)) {
		snprintf(id->model, sizeof(id->model), "%s", k.model);
		snprintf(id->serial, sizeof(id->serial), "%s", k.serial);
		snprintf(id->wwid, sizeof(id->wwid), "%s", k.wwn);
	}
	if (fstat(dev->fd, &st) == 0) {
		char number[8], start[24];

		/* A loop device has no model: the file behind it names it (a partition's: its disk's, the folder above). */
		snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(st.st_rdev), minor(st.st_rdev));
		if (sysfs_read_line(dir, "loop/backing_file", id->backing, sizeof(id->backing)) != 0 &&
		    sysfs_read_line(dir, "../loop/backing_file", id->backing, sizeof(id->backing)) != 0)
			id->backing[0] = '\0';
		if (!loop_backing_inode(dev->fd, id->backing, id->backing_inode, sizeof(id->backing_inode)))
			id->backing_inode[0] = '\0';
		/* Two partitions of one size on one disk: their number and start tell them apart. */
		if (sysfs_read_line(dir, "partition", number, sizeof(number)) == 0 &&
		    sysfs_read_line(dir, "start", start, sizeof(start)) == 0)
			snprintf(id->partition, sizeof(id->partition), "%s at %s", number, start);
	}
	id->sectors = sectors;
	id->sector_bytes = r->sector_bytes;
	id->first_lba = r->first_lba;
	id->last_lba = r->last_lba;
	if (scan_map_id_weak(id))
		sample_of(dev->fd, r, id->sample, sizeof(id->sample));
}

static int refuse(const char *path, const char *why)
{
	complain(" --scan-map %s: %s: refused, nothing was read\n", path, why);
	return EINVAL;
}

/* The map at path opened read-write where it is a regular file (looked at first, as file_write_in_place does); -1 and errno. */
static int open_existing(const char *path, const char **kind)
{
	struct stat was, st;
	int fd;

	*kind = NULL;
	if (lstat(path, &was) != 0)
		return -1;
	if (!S_ISREG(was.st_mode)) {
		*kind = file_refusal(path, false);
		errno = FILE_NOT_REGULAR;
		return -1;
	}
	fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_dev != was.st_dev || st.st_ino != was.st_ino) {
		close(fd);
		*kind = "a file that changed while it was opened";
		errno = FILE_NOT_REGULAR;
		return -1;
	}
	return fd;
}

/* tmp given path's name, never replacing a file there (rename without replace, else a link). */
static int give_name(const char *tmp, const char *path)
{
#ifdef SYS_renameat2
	if (syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, path, 1 /* RENAME_NOREPLACE */) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return errno;
#endif
	if (link(tmp, path) != 0)
		return errno;
	unlink(tmp);
	return 0;
}

/* The new map's bytes into fd: header, a '.' a block, the log's mark and the first checkpoint. */
static int fill_new(int fd, const char *header, size_t hlen, uint64_t blocks, const struct scan_result *r)
{
	struct scan_map_checkpoint cp = { .next_lba = r->first_lba };
	char line[SCAN_MAP_LINE_MAX], dots[CHUNK];
	size_t clen = scan_map_checkpoint_line(&cp, line, sizeof(line));
	uint64_t total = hlen + blocks + strlen(LOG_MARK) + clen, at = hlen;
	int err;

	/* Room for the whole class area now: a full file system says so before the scan, not in its middle. */
	if ((err = posix_fallocate(fd, 0, (off_t)total)) && err != EOPNOTSUPP && err != EINVAL)
		return err;
	memset(dots, SCAN_MAP_NOT_READ, sizeof(dots));
	if ((err = pwrite_all(fd, header, hlen, 0)))
		return err;
	for (uint64_t left = blocks; left && !err; left -= left < CHUNK ? left : CHUNK, at += CHUNK)
		err = pwrite_all(fd, dots, left < CHUNK ? (size_t)left : CHUNK, at);
	if (!err)
		err = pwrite_all(fd, LOG_MARK, strlen(LOG_MARK), hlen + blocks);
	if (!err)
		err = pwrite_all(fd, line, clen, hlen + blocks + strlen(LOG_MARK));
	if (!err && fsync(fd))
		err = errno;
	return err;
}

/* A new map at path, whole before it takes the name; the signals that stop hdparm wait meanwhile.  The fd, locked, or -1 and errno. */
static int create_new(const char *path, const char *header, size_t hlen, uint64_t blocks, const struct scan_result *r)
{
	char tmp[4096];
	sigset_t stops, saved;
	int fd, err = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	sigprocmask(SIG_BLOCK, &stops, &saved);
	fd = mkstemp(tmp);
	if (fd < 0 || fchmod(fd, 0644) || flock(fd, LOCK_EX | LOCK_NB))
		err = errno;
	else
		err = fill_new(fd, header, hlen, blocks, r);
	if (!err)
		err = give_name(tmp, path);
	if (err && fd >= 0) {
		unlink(tmp);
		close(fd);
		fd = -1;
	}
	sigprocmask(SIG_SETMASK, &saved, NULL);
	if (!err)
		file_sync_folder(path);
	errno = err;
	return fd;
}

/* Each whole line of fd from..to (without its newline) to fn with the offset after it, until fn returns non-zero (< 0: stop, no error). */
typedef int line_fn(void *ctx, const char *line, uint64_t end);
static int each_line(int fd, uint64_t from, uint64_t to, line_fn *fn, void *ctx)
{
	static char buf[CHUNK];
	size_t have = 0, used = 0;	/* buf[used..have) not taken yet; buf[0] is the file's byte at */
	uint64_t at = from;

	for (;;) {
		char *nl = memchr(buf + used, '\n', have - used);
		size_t want;
		ssize_t n;

		if (nl) {
			int stop;

			*nl = '\0';
			stop = fn(ctx, buf + used, at + (uint64_t)(nl - buf) + 1);
			if (stop)
				return stop < 0 ? 0 : stop;
			used = (size_t)(nl - buf) + 1;
			continue;
		}
		memmove(buf, buf + used, have - used);
		at += used;
		have -= used;
		used = 0;
		/* The end, or a line longer than any of ours (a torn tail): no more lines. */
		if (at + have >= to || have >= SCAN_MAP_LINE_MAX)
			return 0;
		want = to - at - have < CHUNK - have ? (size_t)(to - at - have) : CHUNK - have;
		n = pread(fd, buf + have, want, (off_t)(at + have));
		if (n <= 0)
			return n < 0 ? errno : 0;
		have += (size_t)n;
	}
}

/* The log read back: its last whole checkpoint, then the lines before it put back into r. */
struct log_read {
	struct scan_result *r;
	struct scan_map_checkpoint last;
	uint64_t last_end;	/* the offset after the last checkpoint line */
};

static int find_checkpoint(void *ctx, const char *line, uint64_t end)
{
	struct log_read *lr = ctx;
	struct scan_map_checkpoint cp;
	struct scan_region slow;
	uint64_t bad;

	if (scan_map_parse_line(line, &bad, &slow, &cp) == MAP_LINE_CHECKPOINT) {
		lr->last = cp;
		lr->last_end = end;
	}
	return 0;
}

/* A line before the last checkpoint: an unreadable LBA or a slow region of a block it takes as read. */
static int restore_line(void *ctx, const char *line, uint64_t end)
{
	struct log_read *lr = ctx;
	struct scan_result *r = lr->r;
	struct scan_map_checkpoint cp;
	struct scan_region slow;
	uint64_t bad;

	(void)end;
	switch (scan_map_parse_line(line, &bad, &slow, &cp)) {
	case MAP_LINE_BAD:
		if (bad < r->first_lba || bad >= lr->last.next_lba || (r->nbad && bad <= r->bad[r->nbad - 1]))
			return EBADMSG;
		return scan_restore_bad(r, bad);
	case MAP_LINE_SLOW:
		if (slow.first_lba < r->first_lba || slow.last_lba >= lr->last.next_lba)
			return EBADMSG;
		return scan_restore_slow(r, &slow);
	case MAP_LINE_CHECKPOINT:
		return 0;
	default:
		return EBADMSG;
	}
}

/*
 * The classes streamed back: each block before next through
 * scan_restore_block(), a block after it written '.' again where a window
 * reached the file without its checkpoint.
 */
static int restore_classes(struct scan_map *m, struct scan_result *r, uint64_t next)
{
	static char buf[CHUNK];

	for (uint64_t i = 0; i < r->blocks;) {
		size_t n = r->blocks - i < CHUNK ? (size_t)(r->blocks - i) : CHUNK;
		bool stale = false;

		if (pread(m->fd, buf, n, (off_t)(m->classes_at + i)) != (ssize_t)n)
			return EBADMSG;
		for (size_t k = 0; k < n; k++) {
			uint64_t lba = r->first_lba + (i + k) * SCAN_BLOCK_SECTORS;
			uint64_t left = r->last_lba - lba + 1;
			int c = scan_map_char_class(buf[k]);

			if (c == -2 || (lba < next && c == -1))
				return EBADMSG;
			if (lba < next)
				scan_restore_block(r, lba, left < SCAN_BLOCK_SECTORS ? (uint32_t)left : SCAN_BLOCK_SECTORS,
						   (enum scan_class)c);
			else if (c != -1) {
				buf[k] = SCAN_MAP_NOT_READ;
				stale = true;
			}
		}
		if (stale && pwrite_all(m->fd, buf, n, m->classes_at + i))
			return EIO;
		i += n;
	}
	return r->next_lba == next ? 0 : EBADMSG;
}

/* An existing map of ours for now's disk and range, read back into r; 0, or refused (said). */
static int resume(struct scan_map *m, struct scan_result *r, const struct scan_map_id *now)
{
	struct log_read lr = { .r = r };
	struct scan_map_id was;
	char head[4096], why[600];
	ssize_t got = pread(m->fd, head, sizeof(head), 0);
	size_t at;
	uint64_t log_at;
	int err;

	if (got > (ssize_t)strlen(SCAN_MAP_MAGIC_ANY) && !memcmp(head, SCAN_MAP_MAGIC_ANY, strlen(SCAN_MAP_MAGIC_ANY)) &&
	    memcmp(head, SCAN_MAP_MAGIC, strlen(SCAN_MAP_MAGIC)) != 0)
		return refuse(m->path, "a map of another hdparm's format, which does not tell every disk from another of its"
				       " size: remove it to scan from the start; left as it is");
	if (got < 0 || !scan_map_parse_header(head, (size_t)got, &was, &at))
		return refuse(m->path, "not a map of hdparm's (its first lines are not a --scan-map header), left as it is");
	if (scan_map_differs(&was, now, why, sizeof(why)) && now->sample[0]) {
		complain(" --scan-map %s: %s: refused, only the %d sectors sampled were read\n", m->path, why,
			 SCAN_MAP_SAMPLE_SECTORS);
		return EINVAL;
	}
	if (scan_map_differs(&was, now, why, sizeof(why)))
		return refuse(m->path, why);
	m->classes_at = at;
	log_at = at + r->blocks + strlen(LOG_MARK);
	if (pread(m->fd, head, strlen(LOG_MARK), (off_t)(log_at - strlen(LOG_MARK))) != (ssize_t)strlen(LOG_MARK) ||
	    memcmp(head, LOG_MARK, strlen(LOG_MARK)) != 0)
		return refuse(m->path, "a damaged map (its classes do not end where its header says)");
	err = each_line(m->fd, log_at, UINT64_MAX, find_checkpoint, &lr);
	if (!err && !lr.last_end)
		err = EBADMSG;
	if (!err)
		err = each_line(m->fd, log_at, lr.last_end, restore_line, &lr);
	if (!err)
		err = restore_classes(m, r, lr.last.next_lba);
	if (!err && (r->nbad != lr.last.nbad || r->nslow != lr.last.nslow || r->bytes_read != lr.last.bytes_read))
		err = EBADMSG;
	if (err == EBADMSG)
		return refuse(m->path, "a damaged map (a line of its log or a block's class is not as hdparm writes them)");
	/* What a crash left after the last whole checkpoint is cut. */
	if (err || ftruncate(m->fd, (off_t)lr.last_end)) {
		err = err ? err : errno;
		complain(" --scan-map %s: %s: refused, nothing was read\n", m->path, strerror(err));
		return err;
	}
	m->log_end = lr.last_end;
	m->seconds_before = lr.last.seconds;
	return 0;
}

/*
 * path opened (or made) and locked: the fd, or -1 with the refusal said and
 * *err set.  The disk's identity (now, and the header made of it) is taken
 * only once the map is held: a second copy is refused before it reads the
 * disk's samples or looks at a loop device's file (whose file system may
 * hang while the first copy waits on it).
 */
static int open_map(const char *path, struct device *dev, const struct scan_result *r, uint64_t sectors,
		    struct scan_map_id *now, char *header, size_t hsize, size_t *hlen, bool *made, int *err)
{
	const char *kind;
	int fd = open_existing(path, &kind);

	*made = false;
	if (fd < 0 && errno == ENOENT && !kind) {
		identity_now(dev, r, sectors, now);
		*hlen = scan_map_header(now, header, hsize);
		fd = create_new(path, header, *hlen, r->blocks, r);
		*made = fd >= 0;
		/* Made meanwhile by another copy: that one is opened (and found locked). */
		if (fd < 0 && errno == EEXIST)
			fd = open_existing(path, &kind);
	}
	if (fd < 0) {
		*err = errno;
		if (kind)
			complain(" --scan-map %s: %s, not a regular file: refused, nothing was read\n", path, kind);
		else
			complain(" --scan-map %s: %s: refused, nothing was read\n", path, strerror(*err));
		return -1;
	}
	if (!*made && flock(fd, LOCK_EX | LOCK_NB) != 0) {
		*err = errno == EWOULDBLOCK ? EBUSY : errno;
		complain(" --scan-map %s: %s: refused, nothing was read\n", path,
			 *err == EBUSY ? "in use by another scan (it is locked)" : strerror(*err));
		close(fd);
		return -1;
	}
	if (!*made) {
		identity_now(dev, r, sectors, now);
		*hlen = scan_map_header(now, header, hsize);
	}
	return fd;
}

int scan_map_open(struct scan_map *m, const char *path, struct device *dev, struct scan_result *r, uint64_t sectors)
{
	struct scan_map_id now;
	char header[2048];
	size_t hlen = 0;
	bool made;
	int err = 0;

	m->fd = -1;
	m->path = path;
	if (!path)
		return 0;
	m->fd = open_map(path, dev, r, sectors, &now, header, sizeof(header), &hlen, &made, &err);
	if (m->fd < 0)
		return err;
	m->first_lba = r->first_lba;
	m->classes_at = hlen;
	m->log_end = hlen + r->blocks + strlen(LOG_MARK);
	m->seconds_before = 0;
	if (made) {
		char line[SCAN_MAP_LINE_MAX];
		struct scan_map_checkpoint cp = { .next_lba = r->first_lba };

		m->log_end += scan_map_checkpoint_line(&cp, line, sizeof(line));
	} else if ((err = resume(m, r, &now))) {
		close(m->fd);
		m->fd = -1;
		return err;
	}
	m->mapped_next = m->window_lba = m->checkpoint_lba = r->next_lba;
	m->bytes_mapped = r->bytes_read;
	memcpy(m->histogram, r->histogram, sizeof(m->histogram));
	m->nwindow = 0;
	m->bad_logged = r->nbad;
	m->slow_logged = r->nslow;
	if (r->nslow)
		m->slow_last = r->slow[r->nslow - 1];
	m->failed = false;
	m->err = 0;
	m->t0 = m->checked_at = monotonic_seconds();
	if (!made && r->next_lba > r->last_lba)
		complain(" --scan-map %s: the scan of this range is complete: nothing is read again\n", path);
	else if (!made)
		complain(" --scan-map %s: %" PRIu64 " of %" PRIu64 " blocks read before; going on from LBA %" PRIu64 "\n", path,
			 r->blocks_read, r->blocks, r->next_lba);
	return 0;
}

/* The log's new lines: the unreadable LBAs and slow regions (new or grown) of the blocks mapped. */
static int log_lines(struct scan_map *m, const struct scan_result *r, char **text, size_t *len)
{
	size_t from = m->slow_logged ? m->slow_logged - 1 : 0;
	size_t cap = (r->nbad - m->bad_logged + r->nslow - from + 1) * 64, n = 0;
	char *t = malloc(cap);

	if (!t)
		return ENOMEM;
	for (; m->bad_logged < r->nbad && r->bad[m->bad_logged] < m->mapped_next; m->bad_logged++)
		n += (size_t)snprintf(t + n, cap - n, "bad %" PRIu64 "\n", r->bad[m->bad_logged]);
	for (size_t i = from; i < r->nslow && r->slow[i].first_lba < m->mapped_next; i++) {
		struct scan_region s = r->slow[i];

		if (s.last_lba >= m->mapped_next)
			s.last_lba = m->mapped_next - 1;
		/* The last region logged, unchanged: nothing to add. */
		if (i + 1 == m->slow_logged && s.last_lba == m->slow_last.last_lba && s.worst_ms == m->slow_last.worst_ms)
			continue;
		n += (size_t)snprintf(t + n, cap - n, "slow %" PRIu64 " %" PRIu64 " %.1f\n", s.first_lba, s.last_lba, s.worst_ms);
		m->slow_last = s;
		m->slow_logged = i + 1;
	}
	*text = t;
	*len = n;
	return 0;
}

/* The window in place, the log's new lines, synced; then the checkpoint line, synced. */
static int checkpoint(struct scan_map *m, const struct scan_result *r)
{
	struct scan_map_checkpoint cp;
	char line[SCAN_MAP_LINE_MAX], *text;
	size_t len, clen;
	int err;

	if (m->fd < 0 || m->failed)
		return 0;
	err = pwrite_all(m->fd, m->window, m->nwindow, m->classes_at + (m->window_lba - m->first_lba) / SCAN_BLOCK_SECTORS);
	if (!err && !(err = log_lines(m, r, &text, &len))) {
		err = pwrite_all(m->fd, text, len, m->log_end);
		free(text);
	}
	if (!err && fdatasync(m->fd))
		err = errno;
	if (!err) {
		m->log_end += len;
		cp = (struct scan_map_checkpoint){ .next_lba = m->mapped_next, .bytes_read = m->bytes_mapped,
						   .seconds = m->seconds_before + monotonic_seconds() - m->t0,
						   .nbad = m->bad_logged, .nslow = m->slow_logged };
		clen = scan_map_checkpoint_line(&cp, line, sizeof(line));
		err = pwrite_all(m->fd, line, clen, m->log_end);
		if (!err && fdatasync(m->fd))
			err = errno;
		if (!err) {
			m->log_end += clen;
			m->checkpoint_lba = m->mapped_next;
		}
	}
	m->nwindow = 0;
	m->window_lba = m->mapped_next;
	m->checked_at = monotonic_seconds();
	if (err) {
		m->failed = true;
		m->err = err;
	}
	/* After the range's last block was read: the scan is complete, only its map is lost. */
	if (err && r->next_lba > r->last_lba)
		complain(" --scan-map %s: writing the map failed: %s; the scan is complete (every block read), but the map"
			 " is not saved: it keeps its last checkpoint, every block before LBA %" PRIu64 "\n", m->path,
			 strerror(err), m->checkpoint_lba);
	else if (err)
		complain(" --scan-map %s: writing the map failed at LBA %" PRIu64 ": %s; the scan stops there; the map keeps"
			 " its last checkpoint: every block before LBA %" PRIu64 "\n", m->path, m->mapped_next, strerror(err),
			 m->checkpoint_lba);
	return err;
}

int scan_map_note(struct scan_map *m, struct scan_result *r, uint64_t lba, uint32_t sectors)
{
	int c = SCAN_CLASSES;

	if (m->fd < 0)
		return 0;
	/* The block's class: the one its counting raised. */
	for (int k = 0; k < SCAN_CLASSES; k++)
		if (r->histogram[k] != m->histogram[k])
			c = k;
	memcpy(m->histogram, r->histogram, sizeof(m->histogram));
	if (c == SCAN_CLASSES || lba != m->mapped_next)
		return 0;	/* not a block counted in order: left out, read again next time */
	m->window[m->nwindow++] = scan_map_class_char((enum scan_class)c);
	m->mapped_next = lba + sectors;
	if (c != SCAN_UNREADABLE)
		m->bytes_mapped += (uint64_t)sectors * r->sector_bytes;
	if (m->nwindow == SCAN_MAP_WINDOW || monotonic_seconds() - m->checked_at >= CHECKPOINT_SECONDS)
		return checkpoint(m, r);
	return 0;
}

double scan_map_seconds_before(const struct scan_map *m)
{
	return m->fd < 0 ? 0 : m->seconds_before;
}

int scan_map_close(struct scan_map *m, struct scan_result *r)
{
	int err;

	if (m->fd < 0)
		return 0;
	err = checkpoint(m, r);
	close(m->fd);
	m->fd = -1;
	if (!err && !m->failed && m->mapped_next <= r->last_lba)
		complain(" --scan-map %s: kept, every block read before LBA %" PRIu64 " in it; the same command again"
			 " reads the rest\n", m->path, m->mapped_next);
	return err;
}

void scan_map_json(const struct scan_map *m)
{
	if (!m->path)
		return;
	json_object_begin("map");
	json_string("file", m->path);
	json_bool("saved", !m->failed);
	if (m->failed) {
		json_string("error", strerror(m->err));
		json_uint("checkpoint_lba", m->checkpoint_lba);
	}
	json_object_end();
}
