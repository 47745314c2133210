/*
 * The lock a run that changes a disk holds on it: flock(2), exclusive, on
 * the disk's node, for as long as the run lasts.  Two such runs on one
 * disk would interleave their commands (two firmware downloads, an erase
 * beside a TRIM); the second is refused before it sends anything.  It is
 * the lock systemd asks of any program that writes a whole disk
 * (systemd.io/BLOCK_DEVICE_LOCKING): udev leaves the disk alone meanwhile.
 */
#ifndef HDPARM_DISK_LOCK_H
#define HDPARM_DISK_LOCK_H

#include <stdbool.h>
#include <sys/types.h>

/* Who holds the lock another run wanted: from /proc/locks. */
struct lock_holder {
	pid_t pid;		/* 0: not found (gone meanwhile, or in another pid namespace) */
	bool shared;		/* a shared lock (udev's, while it reads the disk) */
	char comm[32];		/* its /proc/PID/comm ("" when unknown) */
};

/*
 * A line of /proc/locks that is a flock on the file dev:ino (its
 * filesystem's device and its inode): true, with the holder's pid (0 where
 * not shown) and whether the lock is shared.  A waiter's line ("->") is not.
 */
bool disk_lock_line(const char *line, dev_t dev, ino_t ino, pid_t *pid, bool *shared);

/*
 * Lock the file open as fd, exclusively, without waiting: 0, or
 * EWOULDBLOCK with *h the holder (another errno where flock() failed
 * otherwise).  A shared holder (udev reading the disk) is waited for,
 * two seconds at most.
 */
int disk_lock_fd(int fd, struct lock_holder *h);

/* The pid of process pid's parent, from /proc/PID/stat; 0 when unknown. */
pid_t disk_lock_parent_of(pid_t pid);

#endif
