/*
 * --metrics: each disk asked in a process of its own, up to AT_ONCE at a
 * time, its samples and its lines for stderr kept in memory files and
 * taken here in the order the disks were named: a disk that hangs holds
 * its own process in the kernel for one timeout (15 s ATA, 30 s SCSI),
 * and N hung disks then cost one timeout, not N, inside the service's
 * time limit.  A disk that does not open or answer is down, and the
 * others are still read; the exposition is written once at the end, each
 * family's samples together.  Without a device, every whole disk that
 * /sys/block lists: sd*, hd*, NVMe namespaces.  A disk that is down is
 * data, not a failure of the run: the exit status is 0 once the text is
 * out, on stdout or (--metrics-file) written whole into its file, which
 * holds only a comment while the disks are asked: a run killed meanwhile
 * (a service's time limit) leaves no sample, never the last run's "up".
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "disk.h"
#include "file_write.h"
#include "metrics.h"
#include "prom.h"
#include "reach.h"
#include "report.h"
#include "metrics_run.h"
#include "sysfs.h"

#define MAX_DISKS 4096
#define AT_ONCE 32

/* A disk to ask, and what it gave. */
struct asked {
	const char *path;
	char name[256];			/* its device label */
	const struct config_job *job;	/* --check-config: its settings; else NULL */
	char *samples, *said;		/* prom_pack()'s, and its lines for stderr */
	size_t samples_len, said_len;
	int samples_fd, said_fd;	/* the memory files its process writes them into */
	pid_t pid;
};

/* The kernel's name of the disk at path: the last part of where its links lead ("sda", "nvme0n1"). */
static void kernel_name(const char *path, char *name, size_t size)
{
	char *real = realpath(path, NULL);
	const char *base = real ? real : path, *slash = strrchr(base, '/');

	snprintf(name, size, "%s", slash ? slash + 1 : base);
	free(real);
}

static void one_disk(const struct asked *a, const struct run_flags *run, struct prom *p)
{
	struct prom *mine = prom_new();
	struct device dev;
	bool down;
	int err;

	memset(&dev, 0, sizeof(dev));
	dev.path = a->path;
	dev.run = *run;
	report_operation("open");
	dev.fd = open(a->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (dev.fd < 0 || !mine) {
		complain_errno(a->path);
		metrics_down(a->name, p);
		prom_free(mine);
		if (dev.fd >= 0)
			close(dev.fd);
		return;
	}
	if (disk_choose(&dev)) {
		/* Refused before anything was sent (--bridge), or a bridge that hung at its probe: said down, not read. */
		metrics_down(a->name, p);
		prom_free(mine);
		close(dev.fd);
		return;
	}
	report_operation("--metrics");
	down = metrics_collect(&dev, a->name, mine, run->metrics_tcg) != 0;
	close(dev.fd);
	disk_release(&dev);
	/*
	 * A disk down (one that let a command time out) is asked nothing more: its drift would cost a second
	 * timeout.  One that stops answering while its settings are read is down too, not "up" without them.
	 */
	if (a->job && !down && (err = config_drift_samples(a->job, run, a->name, mine))) {
		complain("%s: not answering: %s while its settings were read for --check-config (nothing more is asked of it)\n",
			 a->path, err == ETIMEDOUT ? "a command timed out" : strerror(err));
		metrics_down(a->name, p);
	} else {
		prom_merge(p, mine);
	}
	prom_free(mine);
}

/* a's samples, asked in this process: packed into a->samples. */
static void ask_here(struct asked *a, const struct run_flags *run)
{
	struct prom *p = prom_new();

	if (p)
		one_disk(a, run, p);
	a->samples = p ? prom_pack(p, &a->samples_len) : NULL;
	prom_free(p);
}

static int write_all(int fd, const char *s, size_t len)
{
	while (len) {
		ssize_t n = write(fd, s, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : EIO;
		s += n;
		len -= (size_t)n;
	}
	return 0;
}

/* A memory file, above the standard streams (one closed must not be taken: this process's lines would land in it). */
static int memory_file(const char *name)
{
	int fd = memfd_create(name, MFD_CLOEXEC), high;

	if (fd < 0 || fd > STDERR_FILENO)
		return fd;
	high = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
	close(fd);
	return high;
}

/* The whole of fd, malloc'd (NUL-ended, *len without it); fd closed.  NULL where it cannot be read. */
static char *take_file(int fd, size_t *len)
{
	struct stat st;
	char *text = NULL;
	size_t got = 0;

	if (fstat(fd, &st) == 0 && st.st_size >= 0 && (text = malloc((size_t)st.st_size + 1))) {
		while (got < (size_t)st.st_size) {
			ssize_t n = pread(fd, text + got, (size_t)st.st_size - got, (off_t)got);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			got += (size_t)n;
		}
		text[got] = '\0';
	}
	close(fd);
	*len = got;
	return text;
}

/* a's process, which asks it: its samples and its stderr into the memory files; never returns. */
static _Noreturn void ask_there(struct asked *a, const struct run_flags *run, pid_t parent)
{
	/* A run killed (a service's time limit) takes its disks' processes with it. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent || dup2(a->said_fd, STDERR_FILENO) < 0)
		_exit(ECANCELED);
	ask_here(a, run);
	fflush(stdout);
	/* Not exit(): the output's buffers and what runs at exit are this process's copies of the run's. */
	_exit(!a->samples ? ENOMEM : write_all(a->samples_fd, a->samples, a->samples_len) ? EIO : 0);
}

/* a's process started (a->pid), or 0 where none could be: then a is asked in this one. */
static void start(struct asked *a, const struct run_flags *run)
{
	/* Taken here, not in the child: a run killed before the child asks would give it its new parent's pid. */
	pid_t parent = getpid();

	a->pid = 0;
	a->said_fd = memory_file("hdparm-metrics-said");
	a->samples_fd = a->said_fd < 0 ? -1 : memory_file("hdparm-metrics-samples");
	if (a->samples_fd >= 0) {
		fflush(stdout);
		fflush(stderr);
		a->pid = fork();
		if (a->pid == 0)
			ask_there(a, run, parent);
	}
	if (a->pid > 0)
		return;
	a->pid = 0;
	if (a->said_fd >= 0)
		close(a->said_fd);
	if (a->samples_fd >= 0)
		close(a->samples_fd);
	ask_here(a, run);
}

/* a's process ended with status: what it gave taken, or (killed, failed) its disk said to be down. */
static void ended(struct asked *a, int status)
{
	a->said = take_file(a->said_fd, &a->said_len);
	a->samples = take_file(a->samples_fd, &a->samples_len);
	a->pid = 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return;
	free(a->samples);
	a->samples = NULL;
	a->said_len = 0;
	free(a->said);
	a->said = NULL;
	if (asprintf(&a->said, "--metrics: %s: its process ended %s %d: down\n", a->path,
		     WIFSIGNALED(status) ? "by signal" : "with status",
		     WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status)) > 0)
		a->said_len = strlen(a->said);
}

/*
 * Every disk of list asked, AT_ONCE at a time, each in its own process.
 * A SIGCHLD that the caller ignored would reap them unseen: the default
 * while they run.
 */
static void ask_all(struct asked *list, int n, const struct run_flags *run)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL }, old;
	int next = 0, running = 0;

	/* A disk alone has nothing to overlap: it is asked here. */
	if (n == 1) {
		ask_here(&list[0], run);
		return;
	}
	sigemptyset(&dfl.sa_mask);
	sigaction(SIGCHLD, &dfl, &old);
	while (next < n || running) {
		int status;
		pid_t pid;

		while (next < n && running < AT_ONCE) {
			start(&list[next++], run);
			running += list[next - 1].pid > 0;
		}
		if (!running)
			continue;
		pid = waitpid(-1, &status, 0);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			break;	/* none left to wait for (not expected): what ended unseen is down */
		for (int i = 0; i < next; i++)
			if (list[i].pid == pid) {
				ended(&list[i], status);
				running--;
			}
	}
	for (int i = 0; i < next; i++)
		if (list[i].pid > 0)
			ended(&list[i], 1 << 8);
	while (next < n)
		ask_here(&list[next++], run);
	sigaction(SIGCHLD, &old, NULL);
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
 * is down later; anything else is refused here, said.  A partition, or a
 * volume over disks, is refused rather than given a disk's facts under its
 * own name.
 */
static int look_at(const char *path, struct named *id)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	/* A volume's pass-through (SG_IO) reaches a disk beneath it, which would be read under the volume's name. */
	struct reach beneath;
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
	else if (S_ISBLK(st.st_mode) && (reach_find(fd, 0, REACH_NAMED, &beneath), beneath.kind == NODE_STACKED))
		what = "a volume (device-mapper, md) over disks: --metrics reads whole disks, name those beneath it";
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
 * already (a by-id link and its node), or whose label another has (one
 * name given twice), is left out, said, so that no series comes twice.
 * keep[i] says which are read; EINVAL where one is no disk.
 */
static int named_disks(const struct asked *list, int n, bool *keep)
{
	struct named *ids = calloc((size_t)n + 1, sizeof(*ids));
	int err = ids ? 0 : ENOMEM;

	for (int i = 0; i < n && !err; i++) {
		keep[i] = true;
		err = look_at(list[i].path, &ids[i]);
		for (int j = 0; j < i && !err; j++) {
			if (!keep[j])
				continue;
			if ((ids[i].rdev && ids[j].rdev == ids[i].rdev && ids[j].chr == ids[i].chr) ||
			    strcmp(list[i].path, list[j].path) == 0)
				complain("--metrics: %s: the same disk as %s, read once\n", list[i].path, list[j].path);
			else if (strcmp(list[i].name, list[j].name) == 0)
				complain("--metrics: %s: the same name (device=\"%s\") as %s, read once\n", list[i].path,
					 list[i].name, list[j].path);
			else
				continue;
			keep[i] = false;
			break;
		}
	}
	free(ids);
	return err;
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

/*
 * With file, the last run's samples replaced by a comment alone, before
 * any disk is opened (an open waits while the kernel recovers a hung
 * disk): a run that cannot finish (killed at a service's time limit) must
 * leave no "hdparm_disk_up 1" of a disk that may have hung since.  Where
 * the comment cannot be written (a full file system), the last run's
 * file is removed, as the comment would have replaced it: left, it would
 * say every disk up, run after run.
 */
static int stand_in(const char *file)
{
	static const char waiting[] = "# hdparm --metrics: the disks are being asked; no samples until every one has answered\n";
	int err = file ? file_write_whole(file, waiting, sizeof(waiting) - 1, 0) : 0;
	struct stat st;
	bool removed;

	if (!err)
		return 0;
	removed = err != FILE_NOT_REGULAR && lstat(file, &st) == 0 && S_ISREG(st.st_mode) && unlink(file) == 0;
	complain("--metrics-file: %s: %s (%s)\n", file, file_strerror(err),
		 removed ? "the last run's file removed: its samples are not this run's" : "the file is left as it was");
	return err;
}

/* The disks of list that keep says (NULL: all) asked, their samples taken in list's order, the text written. */
static int read_disks(struct asked *list, int n, const bool *keep, const struct run_flags *run, const char *file)
{
	struct prom *p;
	int kept = 0;

	for (int i = 0; i < n; i++)
		if (!keep || keep[i])
			list[kept++] = list[i];
	if (!(p = prom_new()))
		return ENOMEM;
	ask_all(list, kept, run);
	for (int i = 0; i < kept; i++) {
		if (list[i].said_len)
			fwrite(list[i].said, 1, list[i].said_len, stderr);
		/* A disk whose samples were lost (memory, a process that died) is down, never left out. */
		if (!list[i].samples || !list[i].samples_len || prom_take(p, list[i].samples, list[i].samples_len) != 0)
			metrics_down(list[i].name, p);
		free(list[i].said);
		free(list[i].samples);
	}
	fflush(stderr);
	return emit(p, file);
}

/* list[i] for each path (or each job's device), its label from where it leads. */
static struct asked *list_of(const char *const *paths, const struct config_job *jobs, int n)
{
	struct asked *list = calloc((size_t)n + 1, sizeof(*list));

	for (int i = 0; list && i < n; i++) {
		/* One of the two is given; "" (no disk, down) only satisfies the analysers. */
		list[i].job = jobs ? &jobs[i] : NULL;
		list[i].path = jobs ? jobs[i].device : paths ? paths[i] : "";
		kernel_name(list[i].path, list[i].name, sizeof(list[i].name));
	}
	return list;
}

/* The n disks of list, each once, read; list freed. */
static int run_list(struct asked *list, int n, const struct run_flags *run, const char *file)
{
	bool *keep = list ? calloc((size_t)n + 1, sizeof(*keep)) : NULL;
	int err = ENOMEM;

	if (keep && !(err = stand_in(file)) && !(err = named_disks(list, n, keep)))
		err = read_disks(list, n, keep, run, file);
	free(keep);
	free(list);
	return err;
}

int run_metrics(const char *const *paths, int n, const struct run_flags *run, const char *file)
{
	char (*names)[NAME_MAX_DISK] = NULL, (*nodes)[NAME_MAX_DISK + 8] = NULL;
	const char **all = NULL;
	int err = ENOMEM;

	if (file && file_check_writable("--metrics-file", file, false))
		return EINVAL;
	if (n > 0)
		return run_list(list_of(paths, NULL, n), n, run, file);
	/* None named: every whole disk /sys/block lists. */
	if (!(names = calloc(MAX_DISKS, sizeof(*names))) || !(nodes = calloc(MAX_DISKS, sizeof(*nodes))) ||
	    !(all = calloc(MAX_DISKS, sizeof(*all))))
		goto out;
	if ((n = sysfs_whole_disks(names, MAX_DISKS)) < 0) {
		complain("--metrics: /sys/block cannot be read: name the disks\n");
		err = ENOENT;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		snprintf(nodes[i], sizeof(nodes[i]), "/dev/%s", names[i]);
		all[i] = nodes[i];
	}
	err = run_list(list_of(all, NULL, n), n, run, file);
out:
	free(all);
	free(nodes);
	free(names);
	return err;
}

int run_metrics_config(const struct config_job *jobs, size_t n, const struct run_flags *run, const char *file)
{
	int err;

	if (file && file_check_writable("--metrics-file", file, false))
		return EINVAL;
	if (n == 0)
		return (err = stand_in(file)) ? err : read_disks(NULL, 0, NULL, run, file);
	/* The configuration's disks are named as --metrics names them: each once, whole disks only. */
	return run_list(list_of(NULL, jobs, (int)n), (int)n, run, file);
}
