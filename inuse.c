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

/* 0, or EBUSY (said) when the kernel holds the whole-disk node path (open as fd) for somebody. */
static int node_unused(const char *path, int fd, const char *option)
{
	char dir[160], users[1024];
	int excl;

	/* The kernel refuses an exclusive open while the disk or a partition of it is claimed. */
	excl = open(path, O_RDONLY | O_EXCL | O_NONBLOCK | O_CLOEXEC);
	if (excl >= 0) {
		close(excl);
		return 0;
	}
	if (errno != EBUSY)
		return 0;
	if (sysfs_disk_dir(fd, dir, sizeof(dir)))
		describe_users(dir, path, users, sizeof(users));
	else
		snprintf(users, sizeof(users), "another program holds it open exclusively");
	complain(" %s: %s is in use (%s): refused, nothing sent\n", option, path, users);
	return EBUSY;
}

int need_disk_unused(struct device *dev, const char *option)
{
	int err = need_whole_disk(dev, 0);

	if (!err && block_device_of(dev->fd))
		err = node_unused(dev->path, dev->fd, option);
	/* A refusal, like a missing confirmation, leaves the device with no step to run. */
	if (err)
		dev->refused = true;
	return err;
}

int need_other_disk_unused(struct device *dev, const char *path, const char *option)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int err;

	if (fd < 0)
		return 0;	/* gone, or not ours to open: the erase reaches nothing held there */
	err = block_device_of(fd) ? node_unused(path, fd, option) : 0;
	close(fd);
	if (err)
		dev->refused = true;
	return err;
}
