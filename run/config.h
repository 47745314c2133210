/* --apply-config and --check-config: a configuration's settings, held against each disk's own. */
#ifndef HDPARM_RUN_CONFIG_H
#define HDPARM_RUN_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "device.h"
#include "values.h"

/* One setting of the configuration, as written. */
struct config_item {
	enum opt_id opt;
	const char *key;
	const char *value;	/* NULL: a bare word (standby, quiet) */
	unsigned int line;
};

#define CONFIG_MAX_ITEMS 48

/* A device, and what the configuration asks of it. */
struct config_job {
	const char *device;		/* the node opened */
	const char *block;		/* the block that named it, as written; NULL: only the global lines */
	unsigned int block_line;
	struct settings s;		/* each item's option, given, with its value */
	struct config_item items[CONFIG_MAX_ITEMS];
	size_t nitems;
	unsigned int idle_seconds;	/* idle_spindown (0: none): for --idle-spindown-config, not applied */
	const char *why_none;	/* why the global lines were not given to it (NULL: they were, or none) */
};

/*
 * Check (nothing sent but reads) or apply every job; file names the
 * configuration in the output.  Check: 0 when every setting holds, 1 when
 * any does not, 2 on an error.  Apply: 0, or the errno of the last failure.
 */
int config_run(const struct config_job *jobs, size_t n, bool check, const char *file, const struct run_flags *run);

struct prom;

/*
 * --metrics --check-config: each setting of the job held against the disk's
 * (nothing sent but reads, as --check-config reads), one sample a setting:
 * hdparm_config_drifted{device=name,key=KEY} 1 where it differs, 0 where it
 * holds; none where it cannot be read or is no setting (standby).  0, or
 * the errno of a disk that stopped answering (a command timed out): it is
 * asked nothing more.
 */
int config_drift_samples(const struct config_job *job, const struct run_flags *run, const char *name, struct prom *p);

/* --idle-spindown-config: the jobs with idle_spindown, each watched for its own time (idle.h); 0 where none has it. */
int idle_spindown_config(const struct config_job *jobs, size_t n, const struct run_flags *run);

#endif
