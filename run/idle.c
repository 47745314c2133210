/*
 * --idle-spindown SECONDS DEVICE...: a spin-down in hdparm itself, for
 * disks and USB bridges that ignore the drive's own timers.  It runs in
 * the foreground (a systemd unit or an init script starts it), wakes once
 * every min(SECONDS, 600)/10 s to read every disk's I/O counters from one
 * file (/proc/diskstats), and once a disk has done no I/O for
 * SECONDS it asks the disk where its power stands with a command that does
 * not wake it, and sends the disk's standby command only if it spins.
 * While a disk sleeps nothing is sent to it: only its counters are read,
 * and their moving says someone woke it.  What hdparm sends is not counted
 * as the disk's I/O: the counters are read again after it.  A disk is
 * open only while a command goes to it, so that one unplugged (or a loop
 * device detached) goes away at once, and is then dropped (or, for the
 * configuration's watcher, looked for again at each look, as is a disk
 * not present yet: a USB disk plugged in later is watched from then on).
 * A suspend (the boot clock moves on past the monotonic one, however
 * briefly) starts every disk's time again: a resume spins disks up behind
 * the I/O counters' back, so each is taken as awake, and stopped again
 * after SECONDS unless its quiet power question says it sleeps.
 * Each transition is a line on stderr, in the journal's form under systemd.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "catch_signal.h"
#include "disk.h"
#include "file_write.h"
#include "idle.h"
#include "prom.h"
#include "reach.h"
#include "report.h"
#include "sysfs.h"
#include "wake_trace.h"

/* The processes a disk counts wake-ups of, the last one "other". */
#define WOKE_BY_MAX 8

struct watched {
	struct device dev;
	char node[64];		/* the whole disk's node, where a partition or a volume was named */
	char stat_dir[160];	/* the whole disk's sysfs folder: its "size" says it is still there */
	char diskseq[24];	/* its "diskseq" when watched ("" where the kernel has none): another disk at the node has another */
	dev_t devnum;		/* the whole disk: its line of /proc/diskstats */
	unsigned long long ios;	/* reads, writes, discards and flushes completed */
	unsigned long long now_ios;	/* ... as this look read them */
	bool listed;		/* this look found the disk's line */
	time_t last_io;		/* when ios last moved (monotonic seconds) */
	time_t asleep_since;
	unsigned int seconds;	/* idle this long: standby */
	bool asleep;		/* in standby, by us or found so: nothing is sent until it moves */
	bool gone;
	int wanted;		/* the path (of those given) that named it */
	/* --metrics-file: what it did, since the watcher started. */
	unsigned long long standbys;	/* standby commands sent */
	unsigned long long wakeups;	/* I/O after a standby */
	struct woke_by {
		char comm[16];
		unsigned long long n;
	} by[WOKE_BY_MAX];		/* --why: the wake-ups by the process that issued the first I/O */
	int nby;
};

static volatile sig_atomic_t stop_signal;
/* --why: the trace of who issues I/O to the disks asleep (no instance: not asked, or unavailable). */
static struct wake_trace why;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static time_t clock_s(clockid_t which)
{
	struct timespec ts;

	clock_gettime(which, &ts);
	return ts.tv_sec;
}

/* Time that stands still while the machine is suspended. */
static time_t now_s(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

/* One line of the log per transition, with its syslog priority (the journal keeps it). */
static void say(const struct watched *w, int priority, const char *what)
{
	log_line(priority, "%s: %s\n", w->dev.path, what);
}

/* The counters, where the disk is still there: its sysfs folder, and a size (a detached loop device has 0). */
static bool read_ios(const struct watched *w, unsigned long long *ios)
{
	char line[512];
	unsigned long long blocks;

	return sysfs_read_line(w->stat_dir, "size", line, sizeof(line)) == 0 && sysfs_parse_u64(line, &blocks) == 0 &&
	       blocks > 0 && sysfs_read_line(w->stat_dir, "stat", line, sizeof(line)) == 0 && sysfs_parse_stat(line, ios);
}

/*
 * The disk is the one watched: a loop device detached and attached again
 * (by anyone: losetup -f takes the first free one) or a medium changed keeps
 * its node, number and sysfs folder, and a size again; the kernel's
 * sequence number of the disk (Linux 5.15) is another one.
 */
static bool same_disk(const struct watched *w)
{
	char now[sizeof(w->diskseq)];

	if (!w->diskseq[0])
		return true;
	return sysfs_read_line(w->stat_dir, "diskseq", now, sizeof(now)) == 0 && strcmp(now, w->diskseq) == 0;
}

/* Open a disk to watch: a block device with counters and a standby command; else a line and false. */
static bool watch(struct watched *w, const char *path, const struct run_flags *run)
{
	char node[sizeof(w->node)];

	/* The node's name may live in w itself; a watcher left in the slot (a disk named twice) goes. */
	snprintf(node, sizeof(node), "%s", w->node);
	disk_release(&w->dev);
	memset(w, 0, sizeof(*w));
	snprintf(w->node, sizeof(w->node), "%s", node);
	w->dev.path = path;
	w->dev.run = *run;
	w->dev.fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (w->dev.fd < 0) {
		complain_errno(path);
		return false;
	}
	if (disk_choose(&w->dev)) {
		close(w->dev.fd);
		w->dev.fd = -1;
		return false;
	}
	w->devnum = block_device_of(w->dev.fd);
	if (!sysfs_disk_dir(w->dev.fd, w->stat_dir, sizeof(w->stat_dir)) || !read_ios(w, &w->ios)) {
		complain(" --idle-spindown: %s is not a block device with I/O counters in sysfs: not watched\n", path);
	} else if (!w->dev.disk->standby_now || !w->dev.disk->power_state) {
		complain(" --idle-spindown: %s has no standby command: not watched\n", path);
	} else {
		if (sysfs_read_line(w->stat_dir, "diskseq", w->diskseq, sizeof(w->diskseq)) != 0)
			w->diskseq[0] = '\0';
		w->last_io = now_s();
		close(w->dev.fd);
		w->dev.fd = -1;
		return true;
	}
	close(w->dev.fd);
	disk_release(&w->dev);
	return false;
}

/* Idle long enough: standby, unless the disk says it is in standby already. */
static void spin_down(struct watched *w)
{
	unsigned int seconds = w->seconds;
	enum disk_power state = DISK_POWER_UNKNOWN;
	char text[96];
	int err;

	w->dev.fd = open(w->dev.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (w->dev.fd < 0)
		return;	/* gone: the look after says so */
	(void)w->dev.disk->power_state(&w->dev, &state);
	if (state == DISK_POWER_STANDBY) {
		say(w, LOG_NOTICE, "in standby already: nothing sent");
	} else if ((err = w->dev.disk->standby_now(&w->dev, NULL, &(struct disk_cause){ 0 }))) {
		snprintf(text, sizeof(text), "standby failed: %s (tried again after %u s without I/O)", strerror(err), seconds);
		say(w, LOG_WARNING, text);
		w->last_io = now_s();
		close(w->dev.fd);
		return;
	} else {
		snprintf(text, sizeof(text), "standby after %u s without I/O", seconds);
		say(w, LOG_NOTICE, text);
	}
	close(w->dev.fd);
	if (state != DISK_POWER_STANDBY)
		w->standbys++;
	w->asleep = true;
	w->asleep_since = now_s();
	wake_trace_mark(&why, w->devnum);
	/* Our own commands are not the disk's I/O. */
	(void)read_ios(w, &w->ios);
}

/* One more wake-up by the process comm (the first WOKE_BY_MAX names each; the rest under "other"). */
static void count_waker(struct watched *w, const char *comm)
{
	int i;

	/* The last place counts the rest, as "other": the names before it are the first ones seen. */
	for (i = 0; i < w->nby && strncmp(w->by[i].comm, comm, sizeof(w->by[0].comm) - 1) != 0; i++)
		;
	if (i == w->nby && w->nby < WOKE_BY_MAX - 1) {
		memcpy(w->by[i].comm, comm, strnlen(comm, sizeof(w->by[0].comm) - 1));
		w->nby++;
	} else if (i == w->nby) {
		i = WOKE_BY_MAX - 1;
	}
	w->by[i].n++;
}

/*
 * --metrics-file: each disk watched, whole, as node_exporter's textfile
 * collector wants it, with the time of this look (looked: Unix seconds), a
 * heartbeat: the file is written at every look, at least once a minute,
 * so that a watcher that died or hangs is told from one with nothing new.
 */
static void write_metrics(const struct watched *ws, int count, const char *file, time_t looked)
{
	static int said;
	struct prom *p = prom_new();
	char *text = NULL;
	size_t len = 0;
	int err = ENOMEM;

	if (p)
		prom_gauge(p, "hdparm_idle_last_look_timestamp_seconds",
			   "When the watcher last read the disks' I/O counters, in Unix seconds", (double)looked,
			   (const char *)NULL);
	for (int i = 0; p && i < count; i++) {
		const struct watched *w = &ws[i];
		/* The kernel's name, as --metrics and node_exporter label a disk, whatever link named it. */
		char *real = realpath(w->node[0] ? w->node : w->dev.path, NULL);
		const char *path = real ? real : w->node[0] ? w->node : w->dev.path;
		const char *slash = strrchr(path, '/');
		char name[64];

		snprintf(name, sizeof(name), "%s", slash ? slash + 1 : path);
		free(real);
		if (w->gone)
			continue;
		prom_gauge(p, "hdparm_idle_asleep", "1 while the watcher has the disk in standby", w->asleep, "device", name,
			   (const char *)NULL);
		prom_counter(p, "hdparm_idle_standbys_total", "Standby commands the watcher sent", (double)w->standbys,
			     "device", name, (const char *)NULL);
		prom_counter(p, "hdparm_idle_wakeups_total", "I/O that woke the disk after a standby", (double)w->wakeups,
			     "device", name, (const char *)NULL);
		for (int j = 0; j < WOKE_BY_MAX; j++)
			if (w->by[j].n)
				prom_counter(p, "hdparm_idle_wakeups_by_process_total",
				     "Wake-ups by the process of the first I/O (--why)", (double)w->by[j].n, "device", name,
				     "process", j == WOKE_BY_MAX - 1 ? "other" : w->by[j].comm, (const char *)NULL);
	}
	if (p && (text = prom_render(p, &len)))
		err = file_write_whole(file, text, len, 0);
	free(text);
	prom_free(p);
	/* Said once, and again once it works: a watcher runs for months. */
	if (err && !said++)
		complain(" --metrics-file: %s: %s (tried again at each look)\n", file, file_strerror(err));
	if (!err)
		said = 0;
}

static bool awaiting;	/* the configuration's watcher: a disk gone or not there yet is looked for again */

static bool gone(struct watched *w)
{
	say(w, LOG_WARNING, awaiting ? "gone (no longer in sysfs, or no medium): watched again when it comes back"
				     : "gone (no longer in sysfs, or no medium): no longer watched");
	w->gone = true;
	return false;
}

/* One look at a disk, its counters read (now_ios, listed); false once it is gone. */
static bool look(struct watched *w)
{
	unsigned long long ios;
	char text[256];

	if (!w->listed || !same_disk(w))
		return gone(w);
	if (w->now_ios != w->ios) {
		w->ios = w->now_ios;
		w->last_io = now_s();
		if (w->asleep) {
			struct wake_io io;
			int len = snprintf(text, sizeof(text), "active again after %lld s in standby",
					   (long long)(w->last_io - w->asleep_since));

			if (wake_trace_first(&why, w->devnum, &io)) {
				snprintf(text + len, sizeof(text) - (size_t)len,
					 "; woken by %s (pid %ld): %s of %u sectors at LBA %llu", io.comm, io.pid, io.op,
					 io.sectors, (unsigned long long)io.lba);
				count_waker(w, io.comm);
			}
			say(w, LOG_NOTICE, text);
			w->wakeups++;
		}
		w->asleep = false;
	} else if (!w->asleep && now_s() - w->last_io >= (time_t)w->seconds) {
		/* A detached loop device or an emptied drive keeps its line: its size says it left. */
		if (!read_ios(w, &ios))
			return gone(w);
		spin_down(w);
	}
	return true;
}

/* Every watched disk's counters from /proc/diskstats, one read for all (each disk's own file where it cannot be read). */
static void read_counters(struct watched *ws, int count)
{
	FILE *f = fopen("/proc/diskstats", "re");
	char line[512];

	for (int i = 0; i < count; i++)
		ws[i].listed = !f && read_ios(&ws[i], &ws[i].now_ios);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		unsigned int maj, min;
		unsigned long long ios;

		if (!diskstats_parse(line, &maj, &min, &ios))
			continue;
		for (int i = 0; i < count; i++)
			if (ws[i].devnum == makedev(maj, min)) {
				ws[i].now_ios = ios;
				ws[i].listed = true;
			}
	}
	fclose(f);
}

/*
 * After a suspend, the boot clock has run on while the monotonic one stood:
 * the disks were woken by the resume (or lost power), so each one's idle
 * time starts again, and one asleep is looked at again after its SECONDS.
 */
static void after_resume(struct watched *ws, int count, time_t suspended)
{
	char text[96];
	bool said = false;

	for (int i = 0; i < count; i++) {
		if (ws[i].gone)
			continue;
		if (!said) {
			snprintf(text, sizeof(text), "resumed after %lld s suspended: idle times start again", (long long)suspended);
			say(&ws[i], LOG_NOTICE, text);
			said = true;
		}
		ws[i].last_io = now_s();
		ws[i].asleep = false;
	}
}

/*
 * The whole disks to watch for path: a partition or a device-mapper or md
 * volume shares its disks with others, whose I/O its own counters miss,
 * and a standby reaches the whole disk; so the disks beneath are watched
 * (said once), as hd-idle does.  Each disk once, whatever named it.
 */
static int add_watches_of(struct watched *ws, int count, const char *path, unsigned int seconds,
			  const struct run_flags *run)
{
	struct reach r = { .kind = NODE_OTHER };
	char list[600];
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0) {
		reach_find(fd, 0, REACH_NAMED, &r);
		close(fd);
	}
	if (r.kind != NODE_PARTITION && r.kind != NODE_STACKED) {
		if (!watch(&ws[count], path, run))
			return count;
		ws[count].seconds = seconds;
		for (int i = 0; i < count; i++)
			if (!ws[i].gone && strcmp(ws[i].stat_dir, ws[count].stat_dir) == 0)
				return count;	/* named twice */
		return count + 1;
	}
	reach_list(&r, list, sizeof(list));
	note(" --idle-spindown: %s is %s on %s: the whole disk%s watched, as %s counters count every user's I/O\n", path,
	     r.kind == NODE_PARTITION ? "a partition" : "a volume", list[0] ? list : "no disk sysfs names",
	     r.n > 1 ? "s are" : " is", r.n > 1 ? "their" : "its");
	for (unsigned int d = 0; d < r.n; d++) {
		bool seen = false;
		char dir[64];

		snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(r.disk[d].devnum), minor(r.disk[d].devnum));
		for (int i = 0; i < count; i++)
			seen = seen || (!ws[i].gone && strcmp(ws[i].stat_dir, dir) == 0);
		if (seen || !r.disk[d].node[0])
			continue;
		snprintf(ws[count].node, sizeof(ws[count].node), "%s", r.disk[d].node);
		if (watch(&ws[count], ws[count].node, run))
			ws[count++].seconds = seconds;
	}
	return count;
}

/* The watches for path, the wanted-th of those given. */
static int add_watches(struct watched *ws, int count, const char *path, unsigned int seconds,
		       const struct run_flags *run, int wanted)
{
	int before = count;

	count = add_watches_of(ws, count, path, seconds, run);
	for (int i = before; i < count; i++)
		ws[i].wanted = wanted;
	return count;
}

/* --why: trace the disks asleep now, where their set changed since the last look. */
static void trace_asleep(const struct watched *ws, int count)
{
	static dev_t traced[64];
	static int ntraced = -1;
	dev_t now[64];
	int n = 0;

	for (int i = 0; i < count && n < 64; i++)
		if (ws[i].asleep && !ws[i].gone)
			now[n++] = ws[i].devnum;
	if (n == ntraced && memcmp(now, traced, sizeof(now[0]) * (size_t)n) == 0)
		return;
	(void)wake_trace_disks(&why, now, n);
	memcpy(traced, now, sizeof(now[0]) * (size_t)n);
	ntraced = n;
}

/* The boot clock's lead on the monotonic one, in ms: it grows only while the machine is suspended. */
static long long suspended_ms(void)
{
	struct timespec boot, mono;

	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_BOOTTIME, &boot);
	return (boot.tv_sec - mono.tv_sec) * 1000LL + (boot.tv_nsec - mono.tv_nsec) / 1000000;
}

/* The gone disks' places taken by those after them (a disk named by a partition points into its own place). */
static int drop_gone(struct watched *ws, int count)
{
	int kept = 0;

	for (int i = 0; i < count; i++) {
		if (ws[i].gone) {
			disk_release(&ws[i].dev);
			continue;
		}
		if (kept != i) {
			ws[kept] = ws[i];
			if (ws[kept].node[0])
				ws[kept].dev.path = ws[kept].node;
			/* Its kind's state moved with it: the slot left holds none. */
			memset(&ws[i], 0, sizeof(ws[i]));
		}
		kept++;
	}
	return kept;
}

/* The configuration's watcher: each path given whose disk is not watched now, looked for (a stat each). */
static int look_for_absent(struct watched *ws, int count, const unsigned int seconds[], const char *const paths[],
			   int n, const struct run_flags *run, bool quiet)
{
	for (int p = 0; p < n; p++) {
		struct stat st;
		bool watched = false;
		int before;

		for (int i = 0; i < count && !watched; i++)
			watched = !ws[i].gone && ws[i].wanted == p;
		if (watched)
			continue;
		if (stat(paths[p], &st) != 0 || !S_ISBLK(st.st_mode)) {
			if (!quiet)
				log_line(LOG_INFO, "%s: not present: watched when it appears\n", paths[p]);
			continue;
		}
		count = drop_gone(ws, count);
		before = count;
		count = add_watches(ws, count, paths[p], seconds[p], run, p);
		for (int i = before; i < count; i++) {
			char text[80];

			snprintf(text, sizeof(text), "%s: standby after %u s without I/O", quiet ? "appeared, watched" : "watched",
				 ws[i].seconds);
			say(&ws[i], LOG_INFO, text);
		}
	}
	return count;
}

int idle_spindown(const unsigned int seconds[], const char *const paths[], int n, const struct run_flags *run,
		  bool await)
{
	struct watched *ws;
	struct sigaction sa;
	unsigned int shortest = UINT_MAX, poll;
	int alive = 0, count = 0;
	long long suspended;

	if (run->metrics_file && file_check_writable("--metrics-file", run->metrics_file, false))
		return EINVAL;
	if (!(ws = calloc((size_t)n * REACH_MAX, sizeof(*ws))))
		return ENOMEM;
	awaiting = await;
	for (int i = 0; i < n; i++)
		shortest = seconds[i] < shortest ? seconds[i] : shortest;
	/* A tenth of SECONDS (of 600 s at most) late at worst; waking the CPU less often than hd-idle's once a minute. */
	poll = (shortest < 600 ? shortest : 600) / 10;
	poll = poll ? poll : 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;
	/* A closed terminal or ssh session ends it as SIGTERM does: the trace instance is removed.  Not where ignored (nohup). */
	catch_signal(SIGTERM, &sa, NULL);
	catch_signal(SIGINT, &sa, NULL);
	catch_signal(SIGHUP, &sa, NULL);
	if (await) {
		count = look_for_absent(ws, count, seconds, paths, n, run, false);
	} else {
		for (int i = 0; i < n; i++)
			count = add_watches(ws, count, paths[i], seconds[i], run, i);
		for (int i = 0; i < count; i++) {
			char text[64];

			snprintf(text, sizeof(text), "watched: standby after %u s without I/O", ws[i].seconds);
			say(&ws[i], LOG_INFO, text);
		}
	}
	if (run->why && (count || await)) {
		char reason[300];

		if (wake_trace_open(&why, reason, sizeof(reason)))
			note(" --why: unavailable (%s): watching without it\n", reason);
	}
	alive = count;
	if (run->metrics_file)
		write_metrics(ws, count, run->metrics_file, time(NULL));
	suspended = suspended_ms();
	while ((alive || await) && !stop_signal) {
		long long now_suspended;

		sleep(poll);
		if (stop_signal)
			break;
		/* However short the suspend (the clocks keep step to the microsecond otherwise). */
		now_suspended = suspended_ms();
		if (now_suspended - suspended >= 1000)
			after_resume(ws, count, (time_t)((now_suspended - suspended) / 1000));
		suspended = now_suspended;
		if (await)
			count = look_for_absent(ws, count, seconds, paths, n, run, true);
		read_counters(ws, count);
		alive = 0;
		for (int i = 0; i < count && !stop_signal; i++)
			alive += !ws[i].gone && look(&ws[i]);
		trace_asleep(ws, count);
		if (run->metrics_file)
			write_metrics(ws, count, run->metrics_file, time(NULL));
	}
	wake_trace_close(&why);
	for (int i = 0; i < count; i++)
		disk_release(&ws[i].dev);
	free(ws);
	if (stop_signal)
		return 0;
	complain(" --idle-spindown: no disk left to watch\n");
	return ENODEV;
}
