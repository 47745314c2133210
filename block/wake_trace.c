/*
 * Who woke a disk.  A tracefs instance of our own (instances/hdparm-PID)
 * traces block:block_rq_insert and block:block_rq_issue into its own
 * buffer, so that other tracing is left alone, and only for the disks
 * asleep (a filter on their device numbers, in the kernel's encoding): a
 * busy disk does not fill it.  When
 * a disk is put in standby a mark is written to the trace; when its
 * counters move, the first request to it after its last mark that another
 * process issued is the one that woke it.  tracefs is mounted at
 * /sys/kernel/tracing where it is not mounted anywhere.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "wake_trace.h"

/*
 * A request is inserted (into an I/O scheduler, or a pass-through command)
 * by the process that made it, and issued to the disk either then or later
 * by a kernel worker: the first of the two events names the process.
 */
static const char *const events[] = { "events/block/block_rq_insert", "events/block/block_rq_issue" };
#define EVENTS (sizeof(events) / sizeof(events[0]))

static int write_file(const char *dir, const char *name, const char *text)
{
	char path[256];
	int fd, err = 0;
	size_t len = strlen(text);

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	if (write(fd, text, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

/* Where tracefs is, mounting it where it is not (t->mounted); NULL with why. */
static const char *tracefs_root(struct wake_trace *t, char *why, size_t size)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	struct stat st;

	for (unsigned int i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		char probe[96];

		snprintf(probe, sizeof(probe), "%s/instances", roots[i]);
		if (stat(probe, &st) == 0)
			return roots[i];
	}
	if (mount("tracefs", roots[0], "tracefs", 0, NULL) == 0) {
		snprintf(t->mounted, sizeof(t->mounted), "%s", roots[0]);
		return roots[0];
	}
	snprintf(why, size, "tracefs is not mounted, and mounting it on %s failed: %s", roots[0], strerror(errno));
	return NULL;
}

/*
 * The instances of watchers that are gone (SIGKILL leaves its events and
 * ring buffer behind): removed, as their owner would have.
 */
static void remove_stale(const char *root)
{
	char dir[160];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/instances", root);
	if (!(d = opendir(dir)))
		return;
	while ((de = readdir(d))) {
		char *end, path[sizeof(dir) + 280];
		long pid;

		if (strncmp(de->d_name, "hdparm-", 7) != 0)
			continue;
		pid = strtol(de->d_name + 7, &end, 10);
		if (*end || pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		rmdir(path);
	}
	closedir(d);
}

int wake_trace_open(struct wake_trace *t, char *why, size_t size)
{
	const char *root;
	int err;

	t->dir[0] = t->mounted[0] = '\0';
	if (!(root = tracefs_root(t, why, size)))
		return ENOENT;
	remove_stale(root);
	snprintf(t->dir, sizeof(t->dir), "%s/instances/hdparm-%ld", root, (long)getpid());
	if (mkdir(t->dir, 0700) != 0 && errno != EEXIST) {
		err = errno;
		snprintf(why, size, "no tracefs instance could be made (%s): %s", t->dir, strerror(err));
		t->dir[0] = '\0';
		return err;
	}
	if ((err = wake_trace_disks(t, NULL, 0))) {
		snprintf(why, size, "the block_rq_insert and block_rq_issue tracepoints could not be set in %s: %s", t->dir,
			 strerror(err));
		wake_trace_close(t);
		return err;
	}
	return 0;
}

int wake_trace_disks(struct wake_trace *t, const dev_t *disks, int n)
{
	char filter[1024] = "";
	int err;

	if (!t->dir[0])
		return 0;
	for (int i = 0; i < n; i++) {
		size_t used = strlen(filter);

		/* The tracepoint's dev is the kernel's dev_t: the major above 20 bits of minor. */
		snprintf(filter + used, sizeof(filter) - used, "%sdev == %lu", i ? " || " : "",
			 (unsigned long)major(disks[i]) << 20 | (unsigned long)minor(disks[i]));
	}
	for (unsigned int e = 0; e < EVENTS; e++) {
		char name[80];

		snprintf(name, sizeof(name), "%s/filter", events[e]);
		if (n && (err = write_file(t->dir, name, filter)))
			return err;
		snprintf(name, sizeof(name), "%s/enable", events[e]);
		if ((err = write_file(t->dir, name, n ? "1" : "0")))
			return err;
	}
	return 0;
}

/* The mark's words for disk. */
static void mark_text(dev_t disk, char *buf, size_t size)
{
	snprintf(buf, size, "hdparm: standby %u,%u", major(disk), minor(disk));
}

void wake_trace_mark(struct wake_trace *t, dev_t disk)
{
	char text[64];

	if (!t->dir[0])
		return;
	mark_text(disk, text, sizeof(text));
	(void)write_file(t->dir, "trace_marker", text);
}

static const char *op_of(const char *rwbs, bool passthrough)
{
	if (passthrough)
		return "pass-through command";
	if (strchr(rwbs, 'D'))
		return "discard";
	if (rwbs[0] == 'F' && !strchr(rwbs, 'W') && !strchr(rwbs, 'R'))
		return "flush";
	if (strchr(rwbs, 'W'))
		return "write";
	if (strchr(rwbs, 'R'))
		return "read";
	return "flush";
}

/* A decimal number at *p, *p moved past it. */
static bool number(const char **p, unsigned long long *v)
{
	char *end;

	errno = 0;
	*v = strtoull(*p, &end, 10);
	if (end == *p || errno)
		return false;
	*p = end;
	return true;
}

static bool literal(const char **p, const char *text)
{
	size_t n = strlen(text);

	if (strncmp(*p, text, n) != 0)
		return false;
	*p += n;
	return true;
}

bool wake_trace_parse(const char *line, unsigned int *major_out, unsigned int *minor_out, struct wake_io *io)
{
	const char *ev = strstr(line, "block_rq_issue: "), *p, *cmd, *comm, *end, *first;
	unsigned long long ma, mi, bytes, lba, sectors;
	char rwbs[16];
	size_t n;

	if (!ev)
		ev = strstr(line, "block_rq_insert: ");
	if (!ev)
		return false;
	/* "MAJ,MIN RWBS BYTES (CMD) SECTOR + COUNT ... [COMM]", after the event's name. */
	p = strchr(ev, ' ') + 1;
	if (!number(&p, &ma) || !literal(&p, ",") || !number(&p, &mi) || !literal(&p, " "))
		return false;
	n = strcspn(p, " ");
	if (!n || n >= sizeof(rwbs))
		return false;
	snprintf(rwbs, sizeof(rwbs), "%.*s", (int)n, p);
	p += n;
	if (!literal(&p, " ") || !number(&p, &bytes) || !literal(&p, " ("))
		return false;
	cmd = p;
	if (!(p = strstr(p, ") ")))
		return false;
	io->op = op_of(rwbs, p > cmd);
	p += 2;
	if (!number(&p, &lba) || !literal(&p, " + ") || !number(&p, &sectors))
		return false;
	/* The issuing task's name is the last [...] of the line; its pid ends the line's first word. */
	end = p + strlen(p);
	while (end > p && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	if (end <= p || end[-1] != ']')
		return false;
	for (comm = end - 1; comm > p && comm[-1] != '['; comm--)
		;
	if (comm == p)
		return false;
	snprintf(io->comm, sizeof(io->comm), "%.*s", (int)(end - 1 - comm), comm);
	io->pid = -1;
	for (first = line; *first == ' '; first++)
		;
	for (const char *q = first; q < ev && *q != ' '; q++)
		if (*q == '-')
			io->pid = strtol(q + 1, NULL, 10);
	*major_out = (unsigned int)ma;
	*minor_out = (unsigned int)mi;
	io->lba = lba;
	io->sectors = (unsigned int)sectors;
	(void)bytes;
	return true;
}

bool wake_trace_first(struct wake_trace *t, dev_t disk, struct wake_io *io)
{
	char path[200], line[512], mark[64];
	bool found = false;
	FILE *f;

	if (!t->dir[0])
		return false;
	mark_text(disk, mark, sizeof(mark));
	snprintf(path, sizeof(path), "%s/trace", t->dir);
	if (!(f = fopen(path, "re")))
		return false;
	while (fgets(line, sizeof(line), f)) {
		struct wake_io this;
		unsigned int ma, mi;

		if (line[0] == '#')
			continue;
		if (strstr(line, mark))
			found = false;	/* a later standby: what came before it woke an earlier one */
		else if (!found && wake_trace_parse(line, &ma, &mi, &this) && ma == major(disk) && mi == minor(disk) &&
			 this.pid != (long)getpid()) {
			*io = this;
			found = true;
		}
	}
	fclose(f);
	return found;
}

void wake_trace_close(struct wake_trace *t)
{
	if (t->dir[0]) {
		(void)wake_trace_disks(t, NULL, 0);
		rmdir(t->dir);
		t->dir[0] = '\0';
	}
	/* Mounted for this watcher alone: left as it was found (busy: another user came meanwhile, and keeps it). */
	if (t->mounted[0])
		umount(t->mounted);
	t->mounted[0] = '\0';
}
