/*
 * The command line: the input, split at NUL bytes, is hdparm's argv, given
 * to the parser in-process (check_command_line: it parses, refuses or
 * accepts, and never exits or opens anything).  Its complaints go to
 * stderr: tests/fuzz/run.sh runs this target with -close_fd_mask=2, and
 * libFuzzer keeps its own copy of stderr for its reports.
 * Built twice: with TRIM_ONLY the words follow "--trim-sector-ranges".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "actions.h"
#include "cmdline.h"
#include "config.h"
#include "idle.h"
#include "metrics_run.h"
#include "together.h"

/* The parser links against the runner; nothing here runs a device or a file. */
int process_device(const char *path, const struct settings *s, const struct run_flags *run,
		   const struct erase_gate *gate, bool *refused)
{
	(void)path;
	(void)s;
	(void)run;
	(void)gate;
	*refused = false;
	return 0;
}

bool jobs_erase_together(const struct job *jobs, int njobs)
{
	(void)jobs;
	(void)njobs;
	return false;
}

int run_jobs_together(const struct job *jobs, int njobs, const struct run_flags *run)
{
	(void)jobs;
	(void)njobs;
	(void)run;
	return 0;
}

bool carries_dangerous_option(const struct settings *s)
{
	(void)s;
	return false;
}

int run_file_option(enum opt_id opt, const struct settings *s)
{
	(void)opt;
	(void)s;
	return 0;
}

int idle_spindown(const unsigned int seconds[], const char *const paths[], int n, const struct run_flags *run,
		  bool await)
{
	(void)seconds;
	(void)paths;
	(void)n;
	(void)run;
	(void)await;
	return 0;
}

int config_run(const struct config_job *jobs, size_t n, bool check, const char *file, const struct run_flags *run)
{
	(void)jobs;
	(void)n;
	(void)check;
	(void)file;
	(void)run;
	return 0;
}

int idle_spindown_config(const struct config_job *jobs, size_t n, const struct run_flags *run)
{
	(void)jobs;
	(void)n;
	(void)run;
	return 0;
}

int run_metrics(const char *const *paths, int n, const struct run_flags *run, const char *file)
{
	(void)paths;
	(void)n;
	(void)run;
	(void)file;
	return 0;
}

int run_metrics_config(const struct config_job *jobs, size_t n, const struct run_flags *run, const char *file)
{
	(void)jobs;
	(void)n;
	(void)run;
	(void)file;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1);
	char *argv[66];
	int argc = 0;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[argc++] = "hdparm";
#ifdef TRIM_ONLY
	argv[argc++] = "--trim-sector-ranges";
#endif
	for (size_t i = 0; i <= size && argc < 64; i++) {
		argv[argc++] = copy + i;
		i += strlen(copy + i);
	}
#ifdef TRIM_ONLY
	argv[argc++] = "/dev/null";
#endif
	argv[argc] = NULL;
	check_command_line(argc, argv);
	free(copy);
	return 0;
}
