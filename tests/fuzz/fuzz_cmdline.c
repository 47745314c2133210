/*
 * The command line: the input, split at NUL bytes, is hdparm's argv.
 * Devices are never opened (process_device() is a stub here) and the file
 * options are stubbed too, so nothing reaches a drive.  Each input runs in
 * a child, since hdparm exits on a bad command line; a child killed by a
 * signal (a sanitizer report, a crash) fails the target.
 * Built twice: with TRIM_ONLY the words follow "--trim-sector-ranges".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../actions.h"

int hdparm_main(int argc, char **argv);

int process_device(const char *path, const struct settings *s, bool *refused)
{
	(void)path;
	(void)s;
	*refused = false;
	return 0;
}

bool carries_dangerous_option(const struct settings *s)
{
	(void)s;
	return false;
}

int fallocate_file(const struct settings *s)
{
	(void)s;
	return 0;
}

int fibmap_file(const struct settings *s)
{
	(void)s;
	return 0;
}

/*
 * hdparm leaves through exit() on a bad command line; libFuzzer's own exit
 * handler (inherited by the child) would take that for a crash.  Registered
 * first, this one runs last and leaves before it.
 */
static void leave_quietly(int status, void *arg)
{
	(void)arg;
	_exit(status);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1);
	char *argv[66];
	int argc = 0, status;
	pid_t pid;

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
	pid = fork();
	if (pid == 0) {
		on_exit(leave_quietly, NULL);
		if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr) ||
		    !freopen("/dev/null", "r", stdin))
			_exit(0);
		_exit(hdparm_main(argc, argv));
	}
	free(copy);
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 0;
	if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) > 200))
		abort();
	return 0;
}
