/*
 * --metrics: each disk opened in turn, its samples gathered (a disk that
 * does not open or answer is down, and the others are still read), and
 * the exposition written once at the end, each family's samples together.
 * Without a device, every whole disk that /sys/block lists: sd*, hd*,
 * NVMe namespaces.  A disk that is down is data, not a failure of the run:
 * the exit status is 0 once the text is out, on stdout or (--metrics-file)
 * written whole into its file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "disk.h"
#include "file_write.h"
#include "metrics.h"
#include "prom.h"
#include "report.h"
#include "metrics_run.h"
#include "sysfs.h"

#define MAX_DISKS 4096

/* The kernel's name of the disk at path: the last part of where its links lead ("sda", "nvme0n1"). */
static void kernel_name(const char *path, char *name, size_t size)
{
	char *real = realpath(path, NULL);
	const char *base = real ? real : path, *slash = strrchr(base, '/');

	snprintf(name, size, "%s", slash ? slash + 1 : base);
	free(real);
}

static void one_disk(const char *path, const struct run_flags *run, struct prom *p, char *name, size_t size)
{
	struct device dev;

	kernel_name(path, name, size);
	memset(&dev, 0, sizeof(dev));
	dev.path = path;
	dev.run = *run;
	report_operation("open");
	dev.fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (dev.fd < 0) {
		complain_errno(path);
		metrics_down(name, p);
		return;
	}
	disk_choose(&dev);
	report_operation("--metrics");
	metrics_collect(&dev, name, p, run->metrics_tcg);
	close(dev.fd);
	disk_release(&dev);
}

/* The samples rendered, on stdout or written whole into file; p freed. */
static int emit(struct prom *p, const char *file)
{
	size_t len;
	char *text = prom_render(p, &len);
	int out_err;

	prom_free(p);
	if (!text) {
		complain("--metrics: out of memory\n");
		return ENOMEM;
	}
	if (file) {
		int err = file_write_whole(file, text, len, 0);

		free(text);
		if (err)
			complain("--metrics-file: %s: %s (the file is left as it was)\n", file, strerror(err));
		return err;
	}
	errno = 0;
	out_str(text);	/* stdout is line-buffered: a failed write sets errno here */
	out_err = errno;
	free(text);
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	out_err = errno ? errno : out_err ? out_err : EIO;
	/* Said: an exit status alone does not tell a full disk from a disk that is down. */
	complain("--metrics: standard output: %s\n", strerror(out_err));
	return out_err;
}

int run_metrics(const char *const *paths, int n, const struct run_flags *run, const char *file)
{
	struct prom *p = prom_new();
	char (*names)[NAME_MAX_DISK] = NULL;

	if (!p)
		return ENOMEM;
	if (n == 0) {
		if (!(names = calloc(MAX_DISKS, sizeof(*names)))) {
			prom_free(p);
			return ENOMEM;
		}
		if ((n = sysfs_whole_disks(names, MAX_DISKS)) < 0) {
			complain("--metrics: /sys/block cannot be read: name the disks\n");
			free(names);
			prom_free(p);
			return ENOENT;
		}
	}
	for (int i = 0; i < n; i++) {
		char path[NAME_MAX_DISK + 8], name[256];

		if (names)
			snprintf(path, sizeof(path), "/dev/%s", names[i]);
		one_disk(names ? path : paths[i], run, p, name, sizeof(name));
	}
	free(names);
	return emit(p, file);
}

int run_metrics_config(const struct config_job *jobs, size_t n, const struct run_flags *run, const char *file)
{
	struct prom *p = prom_new();

	if (!p)
		return ENOMEM;
	for (size_t i = 0; i < n; i++) {
		char name[256];

		one_disk(jobs[i].device, run, p, name, sizeof(name));
		config_drift_samples(&jobs[i], run, name, p);
	}
	return emit(p, file);
}
