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

/* Everything that holds the block device of sysfs folder dir, named name ("/dev/sda1"). */
static void users_of(const char *dir, const char *name, char *buf, size_t size)
{
	char num[32];

	if (sysfs_read_line(dir, "dev", num, sizeof(num)))
		return;
	mounts_of(num, name, buf, size);
	swap_of(num, name, buf, size);
	holders_of(dir, name, buf, size);
}

/* The users of the disk (sysfs folder dir) and of each of its partitions (its subfolders with "partition"). */
static void describe_users(const char *dir, const char *disk_name, char *buf, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char sub[600], part[64], name[300];

	buf[0] = '\0';
	users_of(dir, disk_name, buf, size);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (sysfs_read_line(sub, "partition", part, sizeof(part)))
			continue;
		snprintf(name, sizeof(name), "/dev/%s", e->d_name);
		users_of(sub, name, buf, size);
	}
	if (d)
		closedir(d);
	if (!buf[0])
		snprintf(buf, size, "another program holds it open exclusively");
}

/*
 * Who holds the whole disk of sysfs folder dir, named name, whose node is
 * node ("" when none was found): "" when nobody does.  The kernel refuses
 * an exclusive open while the disk or a partition of it is claimed; /proc
 * and sysfs then name the claimant.  Without a node, they alone say.
 */
static void holders_of_disk(const char *node, const char *dir, const char *name, char *users, size_t size)
{
	int excl;

	users[0] = '\0';
	if (node[0]) {
		excl = open(node, O_RDONLY | O_EXCL | O_NONBLOCK | O_CLOEXEC);
		if (excl >= 0) {
			close(excl);
			return;
		}
		if (errno != EBUSY)
			return;
		describe_users(dir, name, users, size);
		return;
	}
	describe_users(dir, name, users, size);
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

int need_disk_unused(struct device *dev, const char *option, enum reach_scope scope)
{
	dev_t named = block_device_of(dev->fd);
	char dir[64], users[1024];
	const struct reach *r = &dev->reach;
	int err = need_whole_disk(dev, 0);

	if (!err)
		err = need_named_target(dev, option, scope, &dev->reach);
	dev->reach_valid = !err;
	for (unsigned int i = 0; dev->reach_valid && i < r->n; i++) {
		const struct reached_disk *d = &r->disk[i];
		/* The disk named keeps the name it was given (a by-id link, say). */
		const char *name = d->devnum == named ? dev->path : d->node[0] ? d->node : d->name;

		snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(d->devnum), minor(d->devnum));
		holders_of_disk(d->devnum == named ? dev->path : d->node, dir, name, users, sizeof(users));
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
