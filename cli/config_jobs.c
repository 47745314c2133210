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

static int add_job(struct config_list *l, const struct config_file *cf, int block, const char *device,
		   char *err, size_t errsize)
{
	struct config_job *j = realloc(l->jobs, (l->n + 1) * sizeof(*j));
	int rc;

	if (!j)
		return ENOMEM;
	l->jobs = j;
	j = &l->jobs[l->n];
	memset(j, 0, sizeof(*j));
	if ((rc = config_settings(cf, block, l->on_battery, j, err, errsize)))
		return rc;
	j->device = device;
	if (block >= 0) {
		j->block = cf->blocks[block].device;
		j->block_line = cf->blocks[block].line;
	}
	l->n++;
	return 0;
}

/* The first block whose device is this one (-1: none). */
static int block_of(const struct config_file *cf, const struct stat *st)
{
	for (size_t b = 0; b < cf->nblocks; b++) {
		struct stat bst;

		if (!cf->blocks[b].command_line && device_number(cf->blocks[b].device, &bst) && same_device(&bst, st))
			return (int)b;
	}
	return -1;
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
		if (!device_number(path, &st) || block_of(cf, &st) >= 0)
			continue;
		if (!(l->names[l->nnames] = strdup(path))) {
			rc = ENOMEM;
			break;
		}
		rc = add_job(l, cf, -1, l->names[l->nnames++], err, errsize);
		if (l->nnames == sizeof(l->names) / sizeof(l->names[0]))
			break;
	}
	closedir(d);
	return rc;
}

int config_jobs(const struct config_file *cf, char *const devices[], int ndevices, struct config_list *l, char *err,
		size_t errsize)
{
	int rc = 0;

	memset(l, 0, sizeof(*l));
	l->on_battery = on_battery();
	if ((rc = config_check_keys(cf, err, errsize)))
		return rc;
	for (int i = 0; i < ndevices && !rc; i++) {
		struct stat st;
		int block = -1;

		/* A device that is not there fails where it is opened, named. */
		if (device_number(devices[i], &st))
			block = block_of(cf, &st);
		rc = add_job(l, cf, block, devices[i], err, errsize);
	}
	if (ndevices)
		return rc;
	for (size_t b = 0; b < cf->nblocks && !rc; b++) {
		struct stat st;

		if (cf->blocks[b].command_line || !device_number(cf->blocks[b].device, &st) ||
		    block_of(cf, &st) != (int)b)
			continue;
		rc = add_job(l, cf, (int)b, cf->blocks[b].device, err, errsize);
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
