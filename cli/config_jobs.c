/*
 * Which disks a configuration speaks of: a block's device is whatever its
 * name resolves to today (a by-id or WWN link follows the disk across
 * sdX names), matched by device number, and a block whose disk is absent
 * is skipped without a word.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "config_jobs.h"
#include "config_keys.h"
#include "report.h"

/* The node's device: its type and number; false when there is no such node. */
static bool device_number(const char *path, struct stat *st)
{
	return stat(path, st) == 0 && (S_ISBLK(st->st_mode) || S_ISCHR(st->st_mode));
}

static bool same_device(const struct stat *a, const struct stat *b)
{
	return (a->st_mode & S_IFMT) == (b->st_mode & S_IFMT) && a->st_rdev == b->st_rdev;
}

/* Debian's on_ac_power: on battery when the machine has a mains supply and none is online. */
static bool on_battery(void)
{
	const char *root = "/sys/class/power_supply";
	DIR *d = opendir(root);
	struct dirent *de;
	bool mains = false, online = false;

	if (!d)
		return false;
	while ((de = readdir(d))) {
		char path[512], line[32] = "";
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/type", root, de->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
		if (strncmp(line, "Mains", 5) != 0)
			continue;
		mains = true;
		snprintf(path, sizeof(path), "%s/%s/online", root, de->d_name);
		if ((f = fopen(path, "r"))) {
			if (fgets(line, sizeof(line), f) && line[0] == '1')
				online = true;
			fclose(f);
		}
	}
	closedir(d);
	return mains && !online;
}

/* A whole disk's attribute in sysfs, as a number (-1: unknown). */
static long long disk_attr(const struct stat *st, const char *attr)
{
	char path[128], line[32];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/dev/%s/%u:%u/%s", S_ISBLK(st->st_mode) ? "block" : "char",
		 major(st->st_rdev), minor(st->st_rdev), attr);
	if (!(f = fopen(path, "r")))
		return -1;
	if (fgets(line, sizeof(line), f))
		v = strtoll(line, NULL, 10);
	fclose(f);
	return v;
}

/*
 * The global lines reach every disk that no block names, but not one that
 * answers nothing: a card reader without a card, a USB stick.
 */
static const char *refuses_global_lines(const struct stat *st)
{
	if (disk_attr(st, "size") == 0)
		return "a disk without a medium";
	if (disk_attr(st, "removable") == 1)
		return "a removable disk";
	return NULL;
}

/*
 * The blocks whose device is st's: named[b] set for each (named: NULL where
 * st is none); the first one's index, or -1.
 */
static int blocks_of(const struct config_file *cf, const struct stat *st, bool *named)
{
	int first = -1;

	for (size_t b = 0; st && b < cf->nblocks; b++) {
		struct stat bst;

		if (cf->blocks[b].command_line || !device_number(cf->blocks[b].device, &bst) || !same_device(&bst, st))
			continue;
		if (first < 0)
			first = (int)b;
		if (named)
			named[b] = true;
	}
	return first;
}

/*
 * The job of device, whose node is st (NULL: none): every block that names
 * that disk, merged, or the global lines; absent >= 0: that block, whose
 * disk is not there.
 */
static int add_job_of(struct config_list *l, const struct config_file *cf, const struct stat *st, int absent,
		      const char *device, char *err, size_t errsize)
{
	struct config_job *j = realloc(l->jobs, (l->n + 1) * sizeof(*j));
	bool *named = calloc(cf->nblocks + 1, sizeof(*named));
	int rc, block;

	if (!j || !named) {
		free(named);
		if (j)
			l->jobs = j;
		return ENOMEM;
	}
	l->jobs = j;
	j = &l->jobs[l->n];
	memset(j, 0, sizeof(*j));
	block = blocks_of(cf, st, named);
	if (absent >= 0)
		named[block = absent] = true;
	rc = config_settings_of(cf, block >= 0 ? named : NULL, l->on_battery, j, err, errsize);
	free(named);
	if (rc)
		return rc;
	if (block < 0 && st && (j->nitems || j->idle_seconds) && (j->why_none = refuses_global_lines(st))) {
		j->nitems = 0;
		j->idle_seconds = 0;
	}
	j->device = device;
	if (block >= 0) {
		j->block = cf->blocks[block].device;
		j->block_line = cf->blocks[block].line;
	}
	l->n++;
	return 0;
}

static int add_job(struct config_list *l, const struct config_file *cf, const struct stat *st, const char *device,
		   char *err, size_t errsize)
{
	return add_job_of(l, cf, st, -1, device, err, errsize);
}

static bool has_global_settings(const struct config_file *cf, bool battery, char *err, size_t errsize)
{
	struct config_job j;

	memset(&j, 0, sizeof(j));
	return config_settings(cf, -1, battery, &j, err, errsize) == 0 && (j.nitems || j.idle_seconds);
}

/* Every whole disk the global lines reach, as Debian's rule does (sd, hd) and NVMe namespaces. */
static int add_other_disks(struct config_list *l, const struct config_file *cf, char *err, size_t errsize)
{
	DIR *d = opendir("/sys/block");
	struct dirent *de;
	int rc = 0;

	if (!d)
		return 0;
	while (!rc && (de = readdir(d))) {
		char path[300];
		struct stat st;

		if (fnmatch("sd*", de->d_name, 0) && fnmatch("hd*", de->d_name, 0) &&
		    fnmatch("nvme[0-9]*n[0-9]*", de->d_name, 0))
			continue;
		snprintf(path, sizeof(path), "/dev/%s", de->d_name);
		if (!device_number(path, &st) || blocks_of(cf, &st, NULL) >= 0)
			continue;
		if (!(l->names[l->nnames] = strdup(path))) {
			rc = ENOMEM;
			break;
		}
		/* Its node's number: the sleep hook's form gives it the global lines as the udev form would. */
		rc = add_job(l, cf, &st, l->names[l->nnames++], err, errsize);
		if (l->nnames == sizeof(l->names) / sizeof(l->names[0]))
			break;
	}
	closedir(d);
	return rc;
}

int config_jobs(const struct config_file *cf, char *const devices[], int ndevices, bool absent_too,
		struct config_list *l, char *err, size_t errsize)
{
	int rc = 0;

	memset(l, 0, sizeof(*l));
	l->on_battery = on_battery();
	if ((rc = config_check_keys(cf, err, errsize)))
		return rc;
	for (int i = 0; i < ndevices && !rc; i++) {
		struct stat st;

		/* A device that is not there fails where it is opened, named. */
		rc = add_job(l, cf, device_number(devices[i], &st) ? &st : NULL, devices[i], err, errsize);
	}
	if (ndevices)
		return rc;
	/* A disk named by two blocks (its node and a by-id link) is one job, named as its first block names it. */
	for (size_t b = 0; b < cf->nblocks && !rc; b++) {
		struct stat st;

		if (cf->blocks[b].command_line)
			continue;
		if (!device_number(cf->blocks[b].device, &st)) {
			/* The watcher looks for it again and again: a disk plugged in later. */
			if (absent_too)
				rc = add_job_of(l, cf, NULL, (int)b, cf->blocks[b].device, err, errsize);
			continue;
		}
		if (blocks_of(cf, &st, NULL) != (int)b)
			continue;
		rc = add_job(l, cf, &st, cf->blocks[b].device, err, errsize);
	}
	if (!rc && has_global_settings(cf, l->on_battery, err, errsize))
		rc = add_other_disks(l, cf, err, errsize);
	return rc;
}

void config_jobs_free(struct config_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->jobs[i].s.ranges);
	for (size_t i = 0; i < l->nnames; i++)
		free(l->names[i]);
	free(l->jobs);
	memset(l, 0, sizeof(*l));
}
