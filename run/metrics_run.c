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
#include <sys/stat.h>
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
			complain("--metrics-file: %s: %s (the file is left as it was)\n", file, file_strerror(err));
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
	report_stdout_error_said();
	return out_err;
}

static int read_disks(const char *const *paths, int n, const bool *keep, const struct run_flags *run, const char *file)
{
	struct prom *p;
	char (*names)[NAME_MAX_DISK] = NULL;

	if (file && file_check_writable("--metrics-file", file, false))
		return EINVAL;
	if (!(p = prom_new()))
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

		if (keep && !keep[i])
			continue;
		if (names)
			snprintf(path, sizeof(path), "/dev/%s", names[i]);
		one_disk(names ? path : paths[i], run, p, name, sizeof(name));
	}
	free(names);
	return emit(p, file);
}

/* A disk named: its device number, and whether a character node gave it (an sg or NVMe node). */
struct named {
	dev_t rdev;
	bool chr;
};

/*
 * A named path, looked at before anything is sent to any disk: a disk (a
 * block device, or a character device such as an sg or NVMe node) gives
 * its device number in *id; a path that does not open gives none (0) and
 * is down later; anything else is refused here, said.  A partition is
 * refused rather than given its disk's facts under its own name.
 */
static int look_at(const char *path, struct named *id)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	unsigned long long part;
	const char *what = NULL;
	struct stat st;

	id->rdev = 0;
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) != 0)
		what = "cannot be looked at";
	else if (S_ISREG(st.st_mode))
		what = "a regular file, not a disk";
	else if (S_ISDIR(st.st_mode))
		what = "a folder, not a disk";
	else if (S_ISCHR(st.st_mode) && isatty(fd))
		what = "a terminal, not a disk";
	else if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode))
		what = "not a device, not a disk";
	else if (S_ISBLK(st.st_mode) && sysfs_read_u64(st.st_rdev, "partition", &part) == 0)
		what = "a partition: --metrics reads whole disks, name its disk";
	else
		*id = (struct named){ st.st_rdev, S_ISCHR(st.st_mode) };
	close(fd);
	if (!what)
		return 0;
	complain("--metrics: %s: %s\n", path, what);
	return EINVAL;
}

/*
 * The disks named, each once: a name whose device another name gave
 * already (a by-id link and its node) is left out, said, so that no series
 * comes twice.  keep[i] says which are read; EINVAL where one is no disk.
 */
static int named_disks(const char *const *paths, int n, bool *keep)
{
	struct named *ids = calloc((size_t)n + 1, sizeof(*ids));
	int err = ids ? 0 : ENOMEM;

	for (int i = 0; i < n && !err; i++) {
		keep[i] = true;
		err = look_at(paths[i], &ids[i]);
		for (int j = 0; j < i && !err && ids[i].rdev; j++)
			if (keep[j] && ids[j].rdev == ids[i].rdev && ids[j].chr == ids[i].chr) {
				complain("--metrics: %s: the same disk as %s, read once\n", paths[i], paths[j]);
				keep[i] = false;
				break;
			}
	}
	free(ids);
	return err;
}

int run_metrics(const char *const *paths, int n, const struct run_flags *run, const char *file)
{
	bool *keep = NULL;
	int err;

	if (n > 0) {
		if (!(keep = calloc((size_t)n, sizeof(*keep))))
			return ENOMEM;
		if ((err = named_disks(paths, n, keep))) {
			free(keep);
			return err;
		}
	}
	err = read_disks(paths, n, keep, run, file);
	free(keep);
	return err;
}

int run_metrics_config(const struct config_job *jobs, size_t n, const struct run_flags *run, const char *file)
{
	struct prom *p;

	if (file && file_check_writable("--metrics-file", file, false))
		return EINVAL;
	if (!(p = prom_new()))
		return ENOMEM;
	for (size_t i = 0; i < n; i++) {
		char name[256];

		one_disk(jobs[i].device, run, p, name, sizeof(name));
		config_drift_samples(&jobs[i], run, name, p);
	}
	return emit(p, file);
}
