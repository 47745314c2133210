/* sysfs attributes of block devices: queue depth, partition start, the disk's driver and cache. */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sysfs.h"

void sysfs_path(dev_t devnum, const char *attr, char *buf, size_t size)
{
	snprintf(buf, size, "/sys/dev/block/%u:%u/%s", major(devnum), minor(devnum), attr);
}

/*
 * The completed I/Os of the stat file's line (Documentation/block/stat):
 * fields 1 (reads), 5 (writes), 12 (discards) and 15 (flushes), where the
 * kernel has them.  false when the line is not one.
 */
bool sysfs_parse_stat(const char *line, unsigned long long *ios)
{
	unsigned long long f[17] = { 0 };
	unsigned int n = 0;
	const char *p = line;

	/* Blank-separated decimal fields; anything else ends the line. */
	while (n < 17) {
		char *end;

		p += strspn(p, " \t");
		if (*p < '0' || *p > '9')
			break;
		errno = 0;
		f[n] = strtoull(p, &end, 10);
		if (errno)
			return false;
		n++;
		p = end;
	}
	if (n < 11)
		return false;
	*ios = f[0] + f[4] + f[11] + f[15];
	return true;
}

int sysfs_parse_u64(const char *line, unsigned long long *value)
{
	char *end;

	if (*line < '0' || *line > '9')
		return EINVAL;
	errno = 0;
	*value = strtoull(line, &end, 10);
	if (errno || end == line || (*end && *end != '\n'))
		return EINVAL;
	return 0;
}

int sysfs_read_u64(dev_t devnum, const char *attr, unsigned long long *value)
{
	char path[128], line[64];
	FILE *f;
	int err = 0;

	sysfs_path(devnum, attr, path, sizeof(path));
	f = fopen(path, "r");
	if (!f)
		return errno;
	if (!fgets(line, sizeof(line), f))
		err = EIO;
	else
		err = sysfs_parse_u64(line, value);
	fclose(f);
	return err;
}

bool diskstats_parse(const char *line, unsigned int *major_nr, unsigned int *minor_nr, unsigned long long *ios)
{
	unsigned long v[2];
	const char *p = line;
	char *end;

	for (int i = 0; i < 2; i++) {
		p += strspn(p, " \t");
		if (*p < '0' || *p > '9')
			return false;
		errno = 0;
		v[i] = strtoul(p, &end, 10);
		if (errno || v[i] > UINT32_MAX)
			return false;
		p = end;
	}
	/* The name: a word of its own. */
	p += strspn(p, " \t");
	if (!*p || *p == '\n' || p == end)
		return false;
	p += strcspn(p, " \t\n");
	*major_nr = (unsigned int)v[0];
	*minor_nr = (unsigned int)v[1];
	return sysfs_parse_stat(p, ios);
}

dev_t block_device_of(int fd)
{
	struct stat st;

	if (fstat(fd, &st) || !S_ISBLK(st.st_mode))
		return 0;
	return st.st_rdev;
}

bool sysfs_disk_dir(int fd, char *buf, size_t size)
{
	dev_t devnum = block_device_of(fd);
	char path[128];
	FILE *f;

	if (!devnum)
		return false;
	sysfs_path(devnum, "partition", path, sizeof(path));
	f = fopen(path, "r");
	if (f)
		fclose(f);
	/* A partition's folder sits inside its disk's. */
	snprintf(buf, size, "/sys/dev/block/%u:%u%s", major(devnum), minor(devnum), f ? "/.." : "");
	return true;
}

bool sysfs_scsi_dir(int fd, char *buf, size_t size)
{
	struct stat st;
	char link[64];

	if (sysfs_disk_dir(fd, buf, size))
		return true;
	/* An sg node: its folder leads to the same SCSI device as the disk's ("device"). */
	if (fstat(fd, &st) || !S_ISCHR(st.st_mode))
		return false;
	snprintf(buf, size, "/sys/dev/char/%u:%u", major(st.st_rdev), minor(st.st_rdev));
	return sysfs_link_name(buf, "device", link, sizeof(link)) == 0;
}

int sysfs_read_line(const char *dir, const char *attr, char *buf, size_t size)
{
	char path[512];
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return errno;
	if (!fgets(buf, (int)size, f))
		err = EIO;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return err;
}

int sysfs_write_line(const char *dir, const char *attr, const char *text)
{
	char path[512];
	FILE *f;
	int err = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	f = fopen(path, "w");
	if (!f)
		return errno;
	/* The attribute's store runs when the write reaches it: at the flush, which fclose reports. */
	if (fputs(text, f) == EOF)
		err = errno;
	if (fclose(f) == EOF && !err)
		err = errno;
	return err;
}

int sysfs_link_name(const char *dir, const char *attr, char *name, size_t size)
{
	char path[512], target[256];
	const char *base;
	ssize_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	len = readlink(path, target, sizeof(target) - 1);
	if (len <= 0)
		return len ? errno : ENOENT;
	target[len] = '\0';
	base = strrchr(target, '/');
	snprintf(name, size, "%s", base ? base + 1 : target);
	return 0;
}

/*
 * One of the drivers named is bound to the disk's device or one of the
 * devices above it (up to its USB interface): which one (*driver), and
 * that device's folder relative to dir (where: "device/../../..").
 * where and driver may be NULL.
 */
static bool sysfs_driver_above(const char *dir, const char *const drivers[], size_t n, char *where, size_t size,
			       const char **driver)
{
	char rel[64] = "device/driver", name[64];

	/* The disk's SCSI device, its target, its host, then the bridge's USB interface. */
	for (int up = 0; up < 6; up++) {
		if (sysfs_link_name(dir, rel, name, sizeof(name)) == 0)
			for (size_t i = 0; i < n; i++)
				if (strcmp(name, drivers[i]) == 0) {
					if (where)
						snprintf(where, size, "%.*s", (int)(strlen(rel) - 7), rel);
					if (driver)
						*driver = drivers[i];
					return true;
				}
		/* "device/driver" becomes "device/../driver". */
		memmove(rel + strlen(rel) - 6, "../driver", 10);
	}
	return false;
}

bool sysfs_usb_bridge(int fd, char id[12], const char **driver)
{
	static const char *const usb_drivers[] = { "usb-storage", "uas" };
	char dir[160], where[64], usb[80], vid[8] = "", pid[8] = "";

	id[0] = '\0';
	if (!sysfs_scsi_dir(fd, dir, sizeof(dir)) ||
	    !sysfs_driver_above(dir, usb_drivers, sizeof(usb_drivers) / sizeof(usb_drivers[0]), where, sizeof(where), driver))
		return false;
	/* The interface's parent is the USB device, which has the IDs. */
	snprintf(usb, sizeof(usb), "%s/../idVendor", where);
	if (sysfs_read_line(dir, usb, vid, sizeof(vid)) == 0) {
		snprintf(usb, sizeof(usb), "%s/../idProduct", where);
		/* Four characters each, as the kernel writes them: a longer line is not cut to a table's id. */
		if (sysfs_read_line(dir, usb, pid, sizeof(pid)) == 0 && strlen(vid) == 4 && strlen(pid) == 4)
			snprintf(id, 12, "%.4s:%.4s", vid, pid);
	}
	return true;
}

/* sda, hdb, nvme0n1: the kernel's names of the disks --metrics reads by default. */
static const char *digits(const char *p)
{
	const char *start = p;

	while (*p >= '0' && *p <= '9')
		p++;
	return p > start ? p : NULL;
}

static bool spoken_disk(const char *n)
{
	const char *p;

	if ((n[0] == 's' || n[0] == 'h') && n[1] == 'd' && n[2] >= 'a' && n[2] <= 'z')
		return true;
	/* nvmeCnN, a namespace; not nvmeCcPnN, one path to it. */
	return strncmp(n, "nvme", 4) == 0 && (p = digits(n + 4)) && *p == 'n' && (p = digits(p + 1)) && !*p;
}

static int by_name(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

int sysfs_whole_disks(char (*names)[NAME_MAX_DISK], int max)
{
	DIR *d = opendir("/sys/block");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)) && n < max) {
		size_t len = strlen(e->d_name);

		if (spoken_disk(e->d_name) && len < NAME_MAX_DISK)
			memcpy(names[n++], e->d_name, len + 1);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), by_name);
	return n;
}
