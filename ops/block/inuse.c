/*
 * Whether the kernel holds a disk for somebody: a mounted filesystem,
 * swap, a device-mapper or RAID holder, on the disk or on one of its
 * partitions.  A command that erases the whole disk is refused then,
 * before anything is sent (9.65 sent it): an exclusive open of the disk
 * fails with EBUSY, and /proc and sysfs name the holder.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "checks.h"
#include "disk_lock.h"
#include "inuse.h"
#include "reach.h"
#include "report.h"
#include "sysfs.h"

/* Append ", TEXT" (or "TEXT" first) to buf. */
static void add(char *buf, size_t size, const char *text)
{
	size_t n = strlen(buf);

	snprintf(buf + n, size - n, "%s%s", n ? ", " : "", text);
}

/* Mounts of the block device "MAJ:MIN" (named name), from /proc/self/mountinfo's third field. */
static void mounts_of(const char *num, const char *name, char *buf, size_t size)
{
	FILE *f = fopen("/proc/self/mountinfo", "r");
	char line[1024], id[32], where[512], text[640];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*s %*s %31s %*s %511s", id, where) == 2 && strcmp(id, num) == 0) {
			snprintf(text, sizeof(text), "%s mounted on %s", name, where);
			add(buf, size, text);
		}
	if (f)
		fclose(f);
}

/* Swap on the block device "MAJ:MIN", from /proc/swaps (by path: its node's number). */
static void swap_of(const char *num, const char *name, char *buf, size_t size)
{
	FILE *f = fopen("/proc/swaps", "r");
	char line[1024], path[512], text[600], id[32];
	struct stat st;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%511s", path) == 1 && stat(path, &st) == 0 && S_ISBLK(st.st_mode) &&
		    snprintf(id, sizeof(id), "%u:%u", major(st.st_rdev), minor(st.st_rdev)) > 0 && strcmp(id, num) == 0) {
			snprintf(text, sizeof(text), "%s is swap", name);
			add(buf, size, text);
		}
	if (f)
		fclose(f);
}

/* What holds DIR's block device (device-mapper, md): its holders/ folder, by name. */
static void holders_of(const char *dir, const char *name, char *buf, size_t size)
{
	char path[600], text[700], dm[128];
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "%s/holders", dir);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/holders/%s", dir, e->d_name);
		if (sysfs_read_line(path, "dm/name", dm, sizeof(dm)) == 0 && dm[0])
			snprintf(text, sizeof(text), "%s held by %s (%s)", name, e->d_name, dm);
		else
			snprintf(text, sizeof(text), "%s held by %s", name, e->d_name);
		add(buf, size, text);
	}
	if (d)
		closedir(d);
}

/*
 * The loop devices made on the block device "MAJ:MIN" (named name): a loop
 * over a disk claims nothing and is in no holders/ folder, yet a file
 * system mounted through it lives on the disk.  Those the command was
 * named through (in r: a loop over the disk, named) are its own way in.
 */
static void loops_of(const char *num, const char *name, const struct reach *r, char *buf, size_t size)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	char dir[300], id[32], text[400];

	while (d && (e = readdir(d))) {
		dev_t under;
		char loop[32];
		bool named = false;

		snprintf(dir, sizeof(dir), "/sys/block/%s", e->d_name);
		if (e->d_name[0] == '.' || !(under = reach_loop_backing(dir)) ||
		    snprintf(id, sizeof(id), "%u:%u", major(under), minor(under)) < 0 || strcmp(id, num) != 0 ||
		    sysfs_read_line(dir, "dev", loop, sizeof(loop)))
			continue;
		for (unsigned int i = 0; i < r->n; i++) {
			snprintf(id, sizeof(id), "%u:%u", major(r->disk[i].devnum), minor(r->disk[i].devnum));
			named |= strcmp(id, loop) == 0;
		}
		if (named)
			continue;
		snprintf(text, sizeof(text), "%s held by %s", name, e->d_name);
		add(buf, size, text);
	}
	if (d)
		closedir(d);
}

/* Everything that holds the block device of sysfs folder dir, named name ("/dev/sda1"); loops_only: the loops on it. */
static void users_of(const char *dir, const char *name, const struct reach *r, bool loops_only, char *buf, size_t size)
{
	char num[32];

	if (sysfs_read_line(dir, "dev", num, sizeof(num)))
		return;
	if (!loops_only) {
		mounts_of(num, name, buf, size);
		swap_of(num, name, buf, size);
		holders_of(dir, name, buf, size);
	}
	loops_of(num, name, r, buf, size);
}

/* The users of the disk (sysfs folder dir) and of each of its partitions (its subfolders with "partition"). */
static void describe_users(const char *dir, const char *disk_name, const struct reach *r, bool loops_only, char *buf,
			   size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char sub[600], part[64], name[300];

	buf[0] = '\0';
	users_of(dir, disk_name, r, loops_only, buf, size);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (sysfs_read_line(sub, "partition", part, sizeof(part)))
			continue;
		snprintf(name, sizeof(name), "/dev/%s", e->d_name);
		users_of(sub, name, r, loops_only, buf, size);
	}
	if (d)
		closedir(d);
	if (!buf[0] && !loops_only)
		snprintf(buf, size, "another program holds it open exclusively");
}

/*
 * Who holds the whole disk of sysfs folder dir, named name, whose node is
 * node ("" when none was found): "" when nobody does.  The kernel refuses
 * an exclusive open while the disk or a partition of it is claimed; /proc
 * and sysfs then name the claimant.  Without a node, they alone say.  A
 * loop device on the disk claims nothing: it is looked for in any case
 * (those in r, named, excepted).
 */
static void holders_of_disk(const char *node, const char *dir, const char *name, const struct reach *r, char *users,
			    size_t size)
{
	int excl;

	users[0] = '\0';
	if (node[0]) {
		excl = open(node, O_RDONLY | O_EXCL | O_NONBLOCK | O_CLOEXEC);
		if (excl >= 0) {
			close(excl);
			describe_users(dir, name, r, true, users, size);
			return;
		}
		if (errno != EBUSY)
			return;
		describe_users(dir, name, r, false, users, size);
		return;
	}
	describe_users(dir, name, r, false, users, size);
	if (strcmp(users, "another program holds it open exclusively") == 0)
		users[0] = '\0';
}

/* The refusal of a command whose node does not name one disk; EINVAL. */
static int refuse_node(struct device *dev, const char *option, const struct reach *r)
{
	char disks[600], all[600];
	struct reach every;

	reach_list(r, disks, sizeof(disks));
	if (r->kind == NODE_STACKED)
		complain(" %s: %s is the volume %s over %s: what is sent through it reaches the whole disk%s beneath;"
			 " name the disk itself: refused, nothing sent\n",
			 option, dev->path, r->volume, disks[0] ? disks : "no disk sysfs names", r->n > 1 ? "s" : "");
	else if (r->kind == NODE_NVME_CONTROLLER) {
		reach_find(dev->fd, 0, REACH_NVME_SUBSYSTEM, &every);
		reach_list(&every, all, sizeof(all));
		complain(" %s: %s is an NVMe controller, not a namespace: name the namespace%s%s%s: refused, nothing sent\n",
			 option, dev->path, all[0] ? " (" : "", all, all[0] ? ")" : "");
	} else
		complain(" %s: %s reaches more disks than hdparm can check (over %u): refused, nothing sent\n", option,
			 dev->path, REACH_MAX);
	dev->refused = true;
	return EINVAL;
}

void disk_reach(struct device *dev, enum reach_scope scope, struct reach *r)
{
	reach_find(dev->fd, dev->disk && dev->disk->namespace_id ? dev->disk->namespace_id(dev) : 0, scope, r);
}

int need_named_target(struct device *dev, const char *option, enum reach_scope scope, struct reach *r)
{
	disk_reach(dev, scope, r);
	if (r->kind == NODE_STACKED || r->more || (r->kind == NODE_NVME_CONTROLLER && scope == REACH_NAMED))
		return refuse_node(dev, option, r);
	return 0;
}

/* The node at path (open as fd, or -1), held locked by dev (once a file): 0, or the errno of a refusal said. */
static int hold_node(struct device *dev, const char *option, const char *name, int fd, const char *path)
{
	struct lock_holder h;
	struct stat st, held;
	char self[32] = "", proc[64];
	FILE *f;
	int lock, err;

	lock = -1;
	if (fd >= 0) {
		/* A lock of its own on the node named (a file of its own: hdparm may close and open the device meanwhile). */
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
		lock = open(proc, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	}
	if (lock < 0)
		lock = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	/* A node that cannot be opened is left to the checks and commands after, which say why. */
	if (lock < 0 || fstat(lock, &st) || dev->n_held == sizeof(dev->held) / sizeof(dev->held[0])) {
		if (lock >= 0)
			close(lock);
		return 0;
	}
	for (unsigned int i = 0; i < dev->n_held; i++)
		if (fstat(dev->held[i], &held) == 0 && held.st_dev == st.st_dev && held.st_ino == st.st_ino) {
			close(lock);
			return 0;
		}
	err = disk_lock_fd(lock, &h);
	if (!err) {
		dev->held[dev->n_held++] = lock;
		return 0;
	}
	close(lock);
	/* Many disks in one run: a disk named twice is held by its other process, and the gate refuses the pair. */
	if (err == EWOULDBLOCK && dev->together_member && h.pid && disk_lock_parent_of(h.pid) == getppid())
		return 0;
	if (err != EWOULDBLOCK)
		return 0;
	f = fopen("/proc/self/comm", "re");
	if (f && fgets(self, sizeof(self), f))
		self[strcspn(self, "\n")] = '\0';
	if (f)
		fclose(f);
	if (!h.pid)
		complain(" %s: %s is locked by another program (flock): refused, nothing sent\n", option, name);
	else if (h.comm[0] && strcmp(h.comm, self) == 0)
		complain(" %s: %s is in use by another hdparm run (process %d): refused, nothing sent\n", option, name,
			 (int)h.pid);
	else
		complain(" %s: %s is in use by %s (process %d): refused, nothing sent\n", option, name,
			 h.comm[0] ? h.comm : "another program", (int)h.pid);
	dev->refused = true;
	return EBUSY;
}

int need_disks_held(struct device *dev, const char *option, const struct reach *r)
{
	dev_t named = block_device_of(dev->fd);
	bool named_held = false;
	int err = 0;

	for (unsigned int i = 0; !err && i < r->n; i++) {
		const struct reached_disk *d = &r->disk[i];
		const char *name = d->devnum == named ? dev->path : d->node[0] ? d->node : d->name;

		/* The disk's own node in /dev, the one every run finds, however the disk was named. */
		if (d->node[0])
			err = hold_node(dev, option, name, -1, d->node);
		else if (d->devnum == named) {
			err = hold_node(dev, option, name, dev->fd, dev->path);
			named_held = true;
		}
	}
	/*
	 * The node named too: an NVMe controller or generic node, an sg node, a block node sysfs does not know
	 * (a chroot).  No other node is opened again: opening some acts (a tape rewinds, a watchdog starts).
	 */
	if (!err && !named_held &&
	    (named || r->kind == NODE_NVME_GENERIC || r->kind == NODE_NVME_CONTROLLER || r->kind == NODE_SCSI_GENERIC))
		err = hold_node(dev, option, dev->path, dev->fd, dev->path);
	return err;
}

int need_disk_unused(struct device *dev, const char *option, enum reach_scope scope)
{
	dev_t named = block_device_of(dev->fd);
	char dir[64], users[1024];
	const struct reach *r = &dev->reach;
	int err = need_whole_disk(dev, 0);

	if (!err)
		err = need_named_target(dev, option, scope, &dev->reach);
	/*
	 * A partition that starts at LBA 0 (an isohybrid image's, one added
	 * with addpart) passes the check of its start, yet what is sent
	 * through it reaches its whole disk all the same.
	 */
	if (!err && r->kind == NODE_PARTITION) {
		complain(" %s: %s is a partition (it starts at LBA 0 of its disk): what is sent through it reaches the"
			 " whole disk; name the disk itself: refused, nothing sent\n", option, dev->path);
		err = EINVAL;
	}
	/* Held before the holders are looked for: a run that comes after is refused by the lock, whatever it finds. */
	if (!err)
		err = need_disks_held(dev, option, r);
	dev->reach_valid = !err;
	for (unsigned int i = 0; dev->reach_valid && i < r->n; i++) {
		const struct reached_disk *d = &r->disk[i];
		/* The disk named keeps the name it was given (a by-id link, say). */
		const char *name = d->devnum == named ? dev->path : d->node[0] ? d->node : d->name;

		snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(d->devnum), minor(d->devnum));
		holders_of_disk(d->devnum == named ? dev->path : d->node, dir, name, r, users, sizeof(users));
		if (users[0]) {
			complain(" %s: %s is in use (%s): refused, nothing sent\n", option, name, users);
			err = EBUSY;
		}
	}
	/* A refusal, like a missing confirmation, leaves the device with no step to run. */
	if (err)
		dev->refused = true;
	return err;
}
