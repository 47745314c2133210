/*
 * The whole disks behind a node, from sysfs.  The kernel forwards
 * pass-through (SG_IO, the NVMe ioctls) from a partition or a
 * device-mapper volume to the disk beneath, an sg node is a SCSI device
 * whose disk is an sd node, a generic NVMe node is a namespace, and a
 * Sanitize reaches every namespace of the NVM subsystem (NVMe Base 1.4
 * 5.24), as does a format where FNA says so: so what an erase reaches is
 * read from the relations sysfs keeps, whatever node named it.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/loop.h>

#include "reach.h"
#include "sysfs.h"

/* Volumes stacked deeper than this are not followed further. */
#define STACK_DEPTH 8

/* tail added to the path in buf (size bytes), cut where it does not fit. */
static void append(char *buf, size_t size, const char *tail)
{
	size_t len = strlen(buf);

	snprintf(buf + len, size - len, "%s", tail);
}

static bool is_dir(const char *path)
{
	DIR *d = opendir(path);

	if (d)
		closedir(d);
	return d != NULL;
}

/* The folder has an entry other than . and .. */
static bool has_entries(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool any = false;

	while (d && !any && (e = readdir(d)))
		any = e->d_name[0] != '.';
	if (d)
		closedir(d);
	return any;
}

/* The name of the class the sysfs device in dir belongs to ("block", "nvme", "scsi_generic"). */
static bool class_is(const char *dir, const char *class)
{
	char name[64];

	return sysfs_link_name(dir, "subsystem", name, sizeof(name)) == 0 && strcmp(name, class) == 0;
}

bool block_node_of(dev_t devnum, const char *name, char *buf, size_t size)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	bool found = false;

	snprintf(buf, size, "/dev/%s", name);
	if (stat(buf, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == devnum)
		return true;
	/* Nodes made by hand under another name (a rescue shell, a test machine). */
	d = opendir("/dev");
	while (d && !found && (e = readdir(d))) {
		snprintf(buf, size, "/dev/%s", e->d_name);
		found = stat(buf, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == devnum;
	}
	if (d)
		closedir(d);
	if (!found)
		buf[0] = '\0';
	return found;
}

/* Add block device devnum, named name, once. */
static void add_devnum(struct reach *r, dev_t devnum, const char *name)
{
	struct reached_disk *d;

	for (unsigned int i = 0; i < r->n; i++)
		if (r->disk[i].devnum == devnum)
			return;
	if (r->n == REACH_MAX) {
		r->more = true;
		return;
	}
	d = &r->disk[r->n++];
	d->devnum = devnum;
	snprintf(d->name, sizeof(d->name), "%s", name);
	block_node_of(devnum, name, d->node, sizeof(d->node));
}

/* "MAJ:MIN", as sysfs's "dev" says it; false for anything else. */
static bool parse_devnum(const char *text, dev_t *devnum)
{
	char *colon, *end;
	unsigned long maj = strtoul(text, &colon, 10), min;

	if (colon == text || *colon != ':')
		return false;
	min = strtoul(colon + 1, &end, 10);
	if (end == colon + 1 || *end)
		return false;
	*devnum = makedev(maj, min);
	return true;
}

/* Add the block device of sysfs folder dir, named name. */
static void add_disk(struct reach *r, const char *dir, const char *name)
{
	char num[32], hidden[8];
	dev_t devnum;

	/* Hidden disks (an NVMe path under native multipath) have no node: their head disk is the one used. */
	if (sysfs_read_line(dir, "dev", num, sizeof(num)) || !parse_devnum(num, &devnum) ||
	    (sysfs_read_line(dir, "hidden", hidden, sizeof(hidden)) == 0 && strcmp(hidden, "1") == 0))
		return;
	add_devnum(r, devnum, name);
}

/* The kernel's name of the device in sysfs folder dir: DEVNAME from its uevent, else the link's last part. */
static void device_name(const char *dir, char *name, size_t size)
{
	char path[600], line[128];
	FILE *f;

	name[0] = '\0';
	snprintf(path, sizeof(path), "%s/uevent", dir);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "DEVNAME=", 8) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(name, size, "%.*s", (int)(size - 1), line + 8);
		}
	if (f)
		fclose(f);
}

/* The whole disks beneath the stacked volume of sysfs folder dir (its slaves, followed down). */
static void disks_beneath(struct reach *r, const char *dir, int depth)
{
	char path[1100], sub[1400], slaves[1410], name[64];
	struct dirent *e;
	DIR *d;

	if (strlen(dir) > 1000)
		return;
	snprintf(path, sizeof(path), "%s/slaves", dir);
	d = opendir(path);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		snprintf(slaves, sizeof(slaves), "%s/slaves", sub);
		/* A volume on a volume (dm on md, or dm on dm): follow it down. */
		if (depth < STACK_DEPTH && has_entries(slaves)) {
			disks_beneath(r, sub, depth + 1);
			continue;
		}
		if (sysfs_read_line(sub, "partition", name, sizeof(name)) == 0)
			append(sub, sizeof(sub), "/..");
		device_name(sub, name, sizeof(name));
		add_disk(r, sub, name[0] ? name : e->d_name);
	}
	if (d)
		closedir(d);
}

/* The sysfs folder of the NVM subsystem of a controller or subsystem ("nvme0", "nvme-subsys0"). */
static bool nvme_subsystem_dir(const char *name, char *buf, size_t size)
{
	struct dirent *e;
	char path[300];
	DIR *d;
	bool found = false;

	if (strncmp(name, "nvme-subsys", 11) == 0) {
		snprintf(buf, size, "/sys/class/nvme-subsystem/%s", name);
		return true;
	}
	/* A subsystem's folder holds a link to each of its controllers. */
	d = opendir("/sys/class/nvme-subsystem");
	while (d && !found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/class/nvme-subsystem/%s/%s", e->d_name, name);
		if ((found = is_dir(path)))
			snprintf(buf, size, "/sys/class/nvme-subsystem/%s", e->d_name);
	}
	if (d)
		closedir(d);
	return found;
}

/* The namespace block devices in folder dir (all, or those of namespace nsid). */
static void namespaces_in(struct reach *r, const char *dir, uint32_t nsid)
{
	char sub[600], id[24];
	struct dirent *e;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (!class_is(sub, "block"))
			continue;
		if (nsid && (sysfs_read_line(sub, "nsid", id, sizeof(id)) || strtoul(id, NULL, 10) != nsid))
			continue;
		add_disk(r, sub, e->d_name);
	}
	if (d)
		closedir(d);
}

/*
 * The namespaces (all, or namespace nsid) of the NVM subsystem of
 * controller or subsystem owner: the subsystem's head disks (native
 * multipath) and each of its controllers' own disks.
 */
static void nvme_namespaces(struct reach *r, const char *owner, uint32_t nsid)
{
	char subsys[300], sub[600];
	struct dirent *e;
	DIR *d;

	if (!nvme_subsystem_dir(owner, subsys, sizeof(subsys))) {
		snprintf(sub, sizeof(sub), "/sys/class/nvme/%s", owner);
		namespaces_in(r, sub, nsid);
		return;
	}
	namespaces_in(r, subsys, nsid);
	d = opendir(subsys);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", subsys, e->d_name);
		if (class_is(sub, "nvme"))
			namespaces_in(r, sub, nsid);
	}
	if (d)
		closedir(d);
}

/* The block device of sysfs folder dir is a volume on others: device-mapper, md, anything with slaves. */
static bool stacked(const char *dir)
{
	char sub[128];

	snprintf(sub, sizeof(sub), "%s/slaves", dir);
	if (has_entries(sub))
		return true;
	snprintf(sub, sizeof(sub), "%s/dm", dir);
	if (is_dir(sub))
		return true;
	snprintf(sub, sizeof(sub), "%s/md", dir);
	return is_dir(sub);
}

/*
 * The device number of the loop's backing file as the loop itself says
 * (LOOP_GET_STATUS64's lo_rdevice: 0 for a regular file), through its node
 * in /dev; 0 where that cannot be asked.
 */
static dev_t loop_rdevice(const char *dir)
{
	char name[64], node[80], num[32], found[32];
	struct loop_info64 info;
	struct stat st;
	dev_t got = 0;
	int fd;

	device_name(dir, name, sizeof(name));
	if (!name[0] || sysfs_read_line(dir, "dev", num, sizeof(num)))
		return 0;
	snprintf(node, sizeof(node), "/dev/%s", name);
	/* Only the loop's own node: a name in /dev that is something else is not opened. */
	if (stat(node, &st) || !S_ISBLK(st.st_mode))
		return 0;
	snprintf(found, sizeof(found), "%u:%u", major(st.st_rdev), minor(st.st_rdev));
	if (strcmp(found, num) != 0)
		return 0;
	fd = open(node, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0 && ioctl(fd, LOOP_GET_STATUS64, &info) == 0)
		got = (dev_t)info.lo_rdevice;
	if (fd >= 0)
		close(fd);
	return got;
}

dev_t reach_loop_backing(const char *dir)
{
	char path[4200];
	struct stat st;

	if (sysfs_read_line(dir, "loop/backing_file", path, sizeof(path)) || !path[0])
		return 0;
	/* Its path as the kernel keeps it, where that path still names what it did here. */
	if (stat(path, &st) == 0 && (S_ISBLK(st.st_mode) || S_ISREG(st.st_mode)))
		return S_ISBLK(st.st_mode) ? st.st_rdev : 0;
	/*
	 * A node since removed (the path ends " (deleted)"), or one made in
	 * another mount namespace (a container's /dev): the path names nothing
	 * here, and the loop is asked what it writes.
	 */
	return loop_rdevice(dir);
}

/*
 * A loop device over a block device writes that device: its whole disk
 * is reached too, and what is beneath that (a loop over a loop, over a
 * volume).  A loop made on a disk holds no claim on it and leaves nothing
 * in its holders/: only the loop's backing file tells.
 */
static void loop_beneath(struct reach *r, const char *dir, int depth)
{
	dev_t under = reach_loop_backing(dir);
	char sub[80], name[64];

	if (!under || depth >= STACK_DEPTH)
		return;
	snprintf(sub, sizeof(sub), "/sys/dev/block/%u:%u", major(under), minor(under));
	if (sysfs_read_line(sub, "partition", name, sizeof(name)) == 0)
		append(sub, sizeof(sub), "/..");
	if (stacked(sub)) {
		disks_beneath(r, sub, 0);
		return;
	}
	device_name(sub, name, sizeof(name));
	add_disk(r, sub, name);
	loop_beneath(r, sub, depth + 1);
}

/* A block device: its disk, or the disks beneath a volume, or a namespace and those it shares a subsystem with. */
static void reach_block(struct reach *r, dev_t devnum, uint32_t nsid, enum reach_scope scope)
{
	char dir[64], owner[64], name[64], id[24];

	snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(devnum), minor(devnum));
	if (sysfs_read_line(dir, "partition", name, sizeof(name)) == 0) {
		r->kind = NODE_PARTITION;
		append(dir, sizeof(dir), "/..");
	} else if (stacked(dir)) {
		r->kind = NODE_STACKED;
		device_name(dir, name, sizeof(name));
		if (sysfs_read_line(dir, "dm/name", owner, sizeof(owner)) == 0 && owner[0])
			snprintf(r->volume, sizeof(r->volume), "%s (%s)", name, owner);
		else
			snprintf(r->volume, sizeof(r->volume), "%s", name);
		disks_beneath(r, dir, 0);
		return;
	} else {
		/* The disk named is reached, whatever sysfs says (a chroot may have none). */
		r->kind = NODE_DISK;
		device_name(dir, name, sizeof(name));
		add_devnum(r, devnum, name);
	}
	if (r->kind == NODE_PARTITION) {
		device_name(dir, name, sizeof(name));
		add_disk(r, dir, name);
	}
	loop_beneath(r, dir, 0);
	/* An NVMe namespace: "device" is its controller, or its subsystem under native multipath. */
	if (sysfs_link_name(dir, "device", owner, sizeof(owner)) || strncmp(owner, "nvme", 4) != 0)
		return;
	if (sysfs_read_line(dir, "nsid", id, sizeof(id)) == 0)
		nsid = (uint32_t)strtoul(id, NULL, 10);
	nvme_namespaces(r, owner, scope == REACH_NVME_SUBSYSTEM ? 0 : nsid);
}

static void reach_char(struct reach *r, dev_t devnum, uint32_t nsid, enum reach_scope scope)
{
	char dir[64], owner[64], sub[400], name[64];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "/sys/dev/char/%u:%u", major(devnum), minor(devnum));
	if (class_is(dir, "nvme-generic") && sysfs_link_name(dir, "device", owner, sizeof(owner)) == 0) {
		r->kind = NODE_NVME_GENERIC;
		nvme_namespaces(r, owner, scope == REACH_NVME_SUBSYSTEM ? 0 : nsid);
	} else if (class_is(dir, "nvme")) {
		r->kind = NODE_NVME_CONTROLLER;
		snprintf(sub, sizeof(sub), "%u:%u", major(devnum), minor(devnum));
		/* A controller's namespace-scoped command names no namespace: it reaches none here, and is refused. */
		if (scope == REACH_NVME_SUBSYSTEM && sysfs_link_name("/sys/dev/char", sub, owner, sizeof(owner)) == 0)
			nvme_namespaces(r, owner, 0);
	} else if (class_is(dir, "scsi_generic")) {
		r->kind = NODE_SCSI_GENERIC;
		snprintf(sub, sizeof(sub), "%s/device/block", dir);
		d = opendir(sub);
		while (d && (e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			snprintf(sub, sizeof(sub), "%s/device/block/%s", dir, e->d_name);
			device_name(sub, name, sizeof(name));
			add_disk(r, sub, name[0] ? name : e->d_name);
		}
		if (d)
			closedir(d);
	}
}

void reach_find(int fd, uint32_t nsid, enum reach_scope scope, struct reach *r)
{
	struct stat st;

	memset(r, 0, sizeof(*r));
	if (fstat(fd, &st))
		return;
	if (S_ISBLK(st.st_mode))
		reach_block(r, st.st_rdev, nsid, scope);
	else if (S_ISCHR(st.st_mode))
		reach_char(r, st.st_rdev, nsid, scope);
}

bool nvme_controller_dir(int fd, char *buf, size_t size)
{
	char dir[64], owner[64], subsys[300], sub[600];
	struct dirent *e;
	struct stat st;
	DIR *d;
	bool found = false;

	if (fstat(fd, &st) || !(S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)))
		return false;
	snprintf(dir, sizeof(dir), "/sys/dev/%s/%u:%u", S_ISBLK(st.st_mode) ? "block" : "char", major(st.st_rdev),
		 minor(st.st_rdev));
	if (S_ISCHR(st.st_mode) && class_is(dir, "nvme")) {
		snprintf(sub, sizeof(sub), "%u:%u", major(st.st_rdev), minor(st.st_rdev));
		if (sysfs_link_name("/sys/dev/char", sub, owner, sizeof(owner)))
			return false;
	} else if (S_ISBLK(st.st_mode) && sysfs_read_line(dir, "partition", sub, sizeof(sub)) == 0) {
		append(dir, sizeof(dir), "/..");
		if (sysfs_link_name(dir, "device", owner, sizeof(owner)))
			return false;
	} else if (sysfs_link_name(dir, "device", owner, sizeof(owner))) {
		return false;
	}
	if (strncmp(owner, "nvme", 4) != 0)
		return false;
	if (strncmp(owner, "nvme-subsys", 11) != 0) {
		snprintf(buf, size, "/sys/class/nvme/%s", owner);
		return true;
	}
	/* A head disk of native multipath belongs to its subsystem: its first controller speaks for it. */
	snprintf(subsys, sizeof(subsys), "/sys/class/nvme-subsystem/%s", owner);
	d = opendir(subsys);
	while (d && !found && (e = readdir(d))) {
		snprintf(sub, sizeof(sub), "%s/%s", subsys, e->d_name);
		if (e->d_name[0] != '.' && class_is(sub, "nvme")) {
			snprintf(buf, size, "/sys/class/nvme/%s", e->d_name);
			found = true;
		}
	}
	if (d)
		closedir(d);
	return found;
}

void reach_list(const struct reach *r, char *buf, size_t size)
{
	buf[0] = '\0';
	for (unsigned int i = 0; i < r->n; i++) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len, "%s%s", i ? ", " : "", r->disk[i].node[0] ? r->disk[i].node : r->disk[i].name);
	}
}
