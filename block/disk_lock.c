/*
 * flock(2) on a disk's node, and who holds it when it is taken: /proc/locks
 * names the process of every flock by the file's device and inode.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "disk_lock.h"

bool disk_lock_line(const char *line, dev_t dev, ino_t ino, pid_t *pid, bool *shared)
{
	char num[16], type[16], mode[16], rw[16], holder[24], id[64], *end;
	unsigned long maj, min;
	unsigned long long inode;
	long p;

	/* "1: FLOCK  ADVISORY  WRITE 1234 00:05:17 0 EOF" (major and minor in hex); a waiter's line has "->" before FLOCK. */
	if (sscanf(line, "%15s %15s %15s %15s %23s %63s", num, type, mode, rw, holder, id) != 6 ||
	    strcmp(type, "FLOCK") != 0)
		return false;
	maj = strtoul(id, &end, 16);
	if (*end != ':')
		return false;
	min = strtoul(end + 1, &end, 16);
	if (*end != ':')
		return false;
	inode = strtoull(end + 1, &end, 10);
	if (*end || makedev(maj, min) != dev || inode != (unsigned long long)ino)
		return false;
	p = strtol(holder, &end, 10);
	*pid = !*end && p > 0 ? (pid_t)p : 0;
	*shared = strcmp(rw, "READ") == 0;
	return true;
}

/* The holder of the flock on the file dev:ino, from /proc/locks; false when none is listed. */
static bool find_holder(dev_t dev, ino_t ino, struct lock_holder *h)
{
	FILE *f = fopen("/proc/locks", "re");
	char line[256], path[64];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		found = disk_lock_line(line, dev, ino, &h->pid, &h->shared);
	if (f)
		fclose(f);
	if (!found || !h->pid)
		return found;
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)h->pid);
	f = fopen(path, "re");
	if (f && fgets(h->comm, sizeof(h->comm), f))
		h->comm[strcspn(h->comm, "\n")] = '\0';
	if (f)
		fclose(f);
	return true;
}

int disk_lock_fd(int fd, struct lock_holder *h)
{
	struct stat st;
	/* udev holds a shared lock while it reads a disk after a change: a moment, waited for in steps of 50 ms. */
	int tries = 40;

	memset(h, 0, sizeof(*h));
	while (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		int err = errno;

		if (err == EINTR)
			continue;
		if (err != EWOULDBLOCK)
			return err;
		memset(h, 0, sizeof(*h));
		/* A holder that let go between the two is no holder: the lock is tried again. */
		if (fstat(fd, &st) == 0 && !find_holder(st.st_dev, st.st_ino, h) && --tries)
			continue;
		if (!h->shared || --tries <= 0)
			return EWOULDBLOCK;
		nanosleep(&(struct timespec){ .tv_nsec = 50 * 1000 * 1000 }, NULL);
	}
	return 0;
}

pid_t disk_lock_parent_of(pid_t pid)
{
	char path[64], line[512], state[8], parent[24], *end;
	long ppid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	/* "PID (COMM) STATE PPID ...": the name may hold spaces and ")", so read after the last ")". */
	if (f && fgets(line, sizeof(line), f) && (end = strrchr(line, ')')) &&
	    sscanf(end + 1, "%7s %23s", state, parent) == 2) {
		ppid = strtol(parent, &end, 10);
		if (*end || ppid < 0)
			ppid = 0;
	}
	if (f)
		fclose(f);
	return (pid_t)ppid;
}
