/* The devices --apply-config and --check-config act on, each with its settings. */
#ifndef HDPARM_CONFIG_JOBS_H
#define HDPARM_CONFIG_JOBS_H

#include <stdbool.h>

#include "config.h"
#include "config_file.h"

struct config_list {
	struct config_job *jobs;
	size_t n;
	bool on_battery;	/* apm_battery in force, not apm */
	char *names[256];	/* the disks found in /sys/block, for the global lines */
	size_t nnames;
};

/*
 * The devices named (each with the blocks naming the same disk, merged, or
 * the global lines), or, with none named, every block's disk present (and
 * absent_too: every block's whose disk is not there) and, where global
 * lines set anything, every other disk.  The whole file's keys are checked
 * first.  0, or an errno with the one line in err.
 */
int config_jobs(const struct config_file *cf, char *const devices[], int ndevices, bool absent_too,
		struct config_list *l, char *err, size_t errsize);

void config_jobs_free(struct config_list *l);

#endif
