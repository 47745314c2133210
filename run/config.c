/*
 * --check-config and --apply-config: each setting of a disk's block held
 * against what the disk (or the kernel) reports now.  A check sends
 * nothing that changes anything; an apply sends only what differs, and
 * what cannot be read back.  One line per setting, and for a key the disk
 * cannot do, one line on stderr naming the disk, the key and why.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actions.h"
#include "ata_commands.h"
#include "config.h"
#include "prom.h"
#include "disk.h"
#include "idle.h"
#include "json.h"
#include "options.h"
#include "report.h"
#include "setting_now.h"

/* What became of one setting: its word in the JSON, and in the text. */
enum outcome { HOLDS, DRIFTED, NOT_CHECKED, ALREADY_SET, SET, SENT, UNSUPPORTED, FAILED, SKIPPED, NOT_FOR_IT };

static const struct {
	const char *json, *text;
} outcomes[] = {
	[HOLDS] = { "holds", "holds" },
	[DRIFTED] = { "drifted", "DRIFTED" },
	[NOT_CHECKED] = { "not_checked", "not checked" },
	[ALREADY_SET] = { "already_set", "already set, not sent" },
	[SET] = { "set", "set" },
	[SENT] = { "sent", "sent" },
	[UNSUPPORTED] = { "unsupported", "not supported" },
	[FAILED] = { "failed", "FAILED" },
	[SKIPPED] = { "skipped", "not sent (it acts once: --settings-only)" },
	[NOT_FOR_IT] = { "not_for_this_disk", "not sent (a global line this kind of disk cannot take)" },
};

/* Commands that act once (a disk put to sleep, a password sent), not settings a disk keeps. */
static bool acts_once(enum opt_id opt)
{
	static const enum opt_id once[] = { OPT_STANDBY_NOW, OPT_SLEEP_NOW, OPT_SECURITY_UNLOCK, OPT_SECURITY_SET_PASS,
					    OPT_SECURITY_DISABLE, OPT_SECURITY_FREEZE };

	for (size_t i = 0; i < sizeof(once) / sizeof(once[0]); i++)
		if (once[i] == opt)
			return true;
	return false;
}

/*
 * When a line is sent: the settings first, then standby, then sleep, of
 * one block or of every block naming the disk.  A setting sent after them
 * would wake the disk again, and a disk asleep answers no command until
 * it is reset: "hdparm -y -Y -W0 -B128" (9.65's order) sends them so.
 */
enum { SEND_SETTINGS, SEND_STANDBY, SEND_SLEEP, SEND_PASSES };

static int send_rank(enum opt_id opt)
{
	return opt == OPT_SLEEP_NOW ? SEND_SLEEP : opt == OPT_STANDBY_NOW ? SEND_STANDBY : SEND_SETTINGS;
}

/* The disk no longer answers: nothing more is sent to it (udev kills a rule's program that runs too long). */
static bool disk_gone(int err)
{
	return err == ETIMEDOUT || err == ENODEV || err == ENXIO || err == ENOMEDIUM;
}

struct config_run {
	const char *file;
	bool check;
	bool settings_only;	/* commands that act once are not sent */
	bool drift;		/* a setting does not hold */
	int status;		/* the last failure's errno */
};

/* The value read, in the notation the configuration wrote. */
static void value_text(const struct config_item *it, const struct setting_now *now, char *buf, size_t size)
{
	const char *value = it->value ? it->value : "";
	bool words = strcmp(value, "on") == 0 || strcmp(value, "off") == 0;

	if (it->opt == OPT_EPC_ENABLE || it->opt == OPT_EPC_DISABLE)
		snprintf(buf, size, "%s", (now->num != 0) == (it->opt == OPT_EPC_ENABLE) ? "on" : "off");
	else if (words)
		snprintf(buf, size, "%s", now->num ? "on" : "off");
	else if (it->opt == OPT_EPC_TIMER && now->num % 10)
		snprintf(buf, size, "%.*s=%llu.%llu", (int)strcspn(value, "="), value, (unsigned long long)now->num / 10,
			 (unsigned long long)now->num % 10);
	else if (it->opt == OPT_EPC_TIMER)
		snprintf(buf, size, "%.*s=%llu", (int)strcspn(value, "="), value, (unsigned long long)now->num / 10);
	else if (it->opt == OPT_ERC)
		snprintf(buf, size, "%llu,%llu", (unsigned long long)now->num, (unsigned long long)now->num2);
	else
		snprintf(buf, size, "%llu", (unsigned long long)now->num);
}

static void json_error_message(const char *operation, const char *message, void *arg)
{
	char *buf = arg;
	size_t n = strlen(buf);

	(void)operation;
	snprintf(buf + n, 512 - n, "%s%s", n ? "; " : "", message);
}

/* The setting's line: text on stdout (stderr, naming the disk, where it failed), and its JSON object. */
static void say(const struct config_run *r, const struct config_job *job, const struct config_item *it,
		enum outcome o, const char *actual, const char *why)
{
	char line[600], errors[512] = "";

	snprintf(line, sizeof(line), "%s%s%s", it->key, it->value ? " = " : "", it->value ? it->value : "");
	report_take_errors(json_error_message, errors);
	if (o == UNSUPPORTED || o == FAILED)
		complain("%s: %s (%s:%u): %s%s%s\n", job->device, line, r->file, it->line, outcomes[o].text,
			 why && *why ? ": " : "", why ? why : "");
	else if (o == DRIFTED || (o == SET && actual))
		out(" %s: %s (%s %s)\n", line, outcomes[o].text, o == SET ? "was" : "is", actual);
	else
		out(" %s: %s%s%s%s\n", line, outcomes[o].text, why && *why ? " (" : "", why ? why : "",
		    why && *why ? ")" : "");
	json_object_begin(NULL);
	json_string("key", it->key);
	json_string("value", it->value);
	json_uint("line", it->line);
	json_string("option", option_name(it->opt));
	json_string("state", outcomes[o].json);
	json_string("actual", actual);
	if (why && *why)
		json_string("why", why);
	if (*errors)
		json_string("message", errors);
	json_object_end();
}

/* One option of the job alone, with the modifiers it goes with (--user-master, --security-mode). */
static void one_setting(const struct config_job *job, enum opt_id opt, struct settings *one)
{
	*one = job->s;
	for (size_t i = 0; i < option_count; i++) {
		enum opt_id id = option_table[i].id;

		if (id != opt && option_table[i].cls != CLASS_MODIFIER)
			one->v[id].given = false;
	}
	one->defaults = false;
	one->ranges = NULL;
	one->nranges = 0;
}

/*
 * The setting as the disk has it now (setting_now.h), where the runner
 * would send its option at all: an ATA-only option on another kind of
 * disk reads as SETTING_UNSUPPORTED.
 */
static int read_now(struct device *dev, const struct config_job *job, const struct config_item *it,
		    struct setting_now *now)
{
	if (option_refused_on(dev, it->opt)) {
		memset(now, 0, sizeof(*now));
		now->kind = SETTING_UNSUPPORTED;
		snprintf(now->why, sizeof(now->why), "an ATA setting");
		return EOPNOTSUPP;
	}
	return setting_now(dev, it->opt, &job->s.v[it->opt], now);
}

/* The setting held against the disk's; 0, or the errno of a failure (said). */
static int check_item(struct config_run *r, struct device *dev, const struct config_job *job,
		      const struct config_item *it)
{
	struct setting_now now;
	char actual[64];
	int err;

	err = read_now(dev, job, it, &now);
	if (err == EOPNOTSUPP && now.kind == SETTING_UNSUPPORTED) {
		say(r, job, it, UNSUPPORTED, NULL, now.why);
		return 0;
	}
	if (err == EOPNOTSUPP) {
		say(r, job, it, NOT_CHECKED, NULL, now.why);
		return 0;
	}
	if (err) {
		r->status = err;
		say(r, job, it, FAILED, NULL, now.why);
		return err;
	}
	value_text(it, &now, actual, sizeof(actual));
	if (setting_holds(it->opt, &job->s.v[it->opt], &now)) {
		say(r, job, it, HOLDS, actual, NULL);
		return 0;
	}
	r->drift = true;
	say(r, job, it, DRIFTED, actual, NULL);
	return 0;
}

/* The setting sent where it differs; 0, or the errno of a failure (said). */
static int apply_item(struct config_run *r, struct device *dev, const struct config_job *job,
		      const struct config_item *it)
{
	struct setting_now before, after;
	struct settings one;
	char was[64] = "", now_text[64], why[256];
	int err;

	if (r->settings_only && acts_once(it->opt)) {
		say(r, job, it, SKIPPED, NULL, NULL);
		return 0;
	}
	err = read_now(dev, job, it, &before);
	if (!err) {
		value_text(it, &before, was, sizeof(was));
		if (setting_holds(it->opt, &job->s.v[it->opt], &before)) {
			say(r, job, it, ALREADY_SET, was, NULL);
			return 0;
		}
	} else if (err == EOPNOTSUPP && before.kind == SETTING_UNSUPPORTED && !job->block) {
		/* The global lines reach every disk: one that cannot take a key is not at fault. */
		say(r, job, it, NOT_FOR_IT, NULL, before.why);
		return 0;
	} else if (err == EOPNOTSUPP && before.kind == SETTING_UNSUPPORTED) {
		r->status = EOPNOTSUPP;
		say(r, job, it, UNSUPPORTED, NULL, before.why);
		return 0;
	} else if (disk_gone(err)) {
		r->status = err;
		say(r, job, it, FAILED, NULL, before.why[0] ? before.why : strerror(err));
		return err;
	}
	one_setting(job, it->opt, &one);
	if ((err = run_setting(dev, &one, it->opt))) {
		r->status = err;
		say(r, job, it, FAILED, *was ? was : NULL, strerror(err));
		return err;
	}
	if (!*was) {
		say(r, job, it, SENT, NULL, NULL);
		return 0;
	}
	/* What the disk reports after: a setting it did not take is a failure, said. */
	if (dev->disk->ata)
		ata_identify_forget(dev);
	if (read_now(dev, job, it, &after) == 0 && !setting_holds(it->opt, &job->s.v[it->opt], &after)) {
		value_text(it, &after, now_text, sizeof(now_text));
		snprintf(why, sizeof(why), "sent, but it reads back %s", now_text);
		r->status = EIO;
		say(r, job, it, FAILED, now_text, why);
		return 0;
	}
	say(r, job, it, SET, was, NULL);
	return 0;
}

enum before_check { CHECK_READ, CHECK_ASLEEP, CHECK_DOWN };

/*
 * Before --check-config reads a setting, the power mode, asked as -H and
 * --power-on-hours ask it (ops/checks.c, disk_asleep()): a disk in standby
 * keeps its settings, and reading them (IDENTIFY) would spin it up; a disk
 * that does not answer is not held against the file, since what would
 * still read (the kernel's read-ahead, a double's IDENTIFY) is no answer
 * of the disk.
 * Where the mode cannot be told, the settings are read.
 */
static enum before_check before_check(struct device *dev, int *err)
{
	enum disk_power power = DISK_POWER_UNKNOWN;

	*err = 0;
	if (dev->disk->queries_wake_nothing || !dev->disk->power_state)
		return CHECK_READ;
	*err = dev->disk->power_state(dev, &power);
	if (disk_gone(*err))
		return CHECK_DOWN;
	return !*err && power == DISK_POWER_STANDBY ? CHECK_ASLEEP : CHECK_READ;
}

/* A disk asleep or down: each setting said not checked, why; a disk down is an error, said once. */
static void not_checked(struct config_run *r, const struct config_job *job, enum before_check state, int err)
{
	const char *why = state == CHECK_ASLEEP ? "the disk is in standby: reading it would wake the disk"
						: "the disk is not answering";

	for (size_t i = 0; i < job->nitems; i++) {
		report_operation(option_name(job->items[i].opt));
		say(r, job, &job->items[i], NOT_CHECKED, NULL, why);
	}
	if (state == CHECK_DOWN) {
		r->status = err;
		complain("%s: not answering: %s; its settings were not checked\n", job->device, strerror(err));
	}
}

/*
 * Each setting of the job on its open device, in the file's order, and
 * standby, then sleep, after them all.  A disk that stops answering (a command
 * timed out) is given up at once, said once: the other disks go on.
 */
static void run_items(struct config_run *r, struct device *dev, const struct config_job *job)
{
	int err = 0;

	enum before_check state;

	out("\n%s:\n", job->device);
	if ((err = disk_choose(dev))) {
		/* --bridge refused the disk (one line said): none of its settings is sent or read. */
		r->status = err;
		return;
	}
	json_array_begin("settings");
	if (r->check && (state = before_check(dev, &err)) != CHECK_READ) {
		not_checked(r, job, state, err);
		json_array_end();
		return;
	}
	for (int rank = 0; rank < SEND_PASSES && !disk_gone(err); rank++)
		for (size_t i = 0; i < job->nitems && !disk_gone(err); i++) {
			const struct config_item *it = &job->items[i];

			if (send_rank(it->opt) != rank)
				continue;
			report_operation(option_name(it->opt));
			err = r->check ? check_item(r, dev, job, it) : apply_item(r, dev, job, it);
		}
	json_array_end();
	if (disk_gone(err))
		complain("%s: gave up on this disk: %s; its other settings were not %s\n", job->device, strerror(err),
			 r->check ? "read" : "sent");
}

static void run_job(struct config_run *r, const struct config_job *job, const struct run_flags *run)
{
	struct device dev;

	memset(&dev, 0, sizeof(dev));
	dev.path = job->device;
	dev.run = *run;
	json_object_begin(NULL);
	json_string("name", job->device);
	json_object_begin("config");
	json_string("file", r->file);
	json_string("block", job->block);
	if (job->block)
		json_uint("line", job->block_line);
	json_object_end();
	/* A disk the file gives nothing is not opened: udev runs this for every disk that appears. */
	if (!job->nitems && access(job->device, F_OK) != 0) {
		/* A device named that is not there: a typing error, not a disk without settings. */
		r->status = errno;
		complain_errno(job->device);
	} else if (!job->nitems && job->why_none) {
		out("\n%s:\n no settings for it: the global lines of %s are not sent to %s\n", job->device, r->file,
		    job->why_none);
	} else if (!job->nitems) {
		out("\n%s:\n no settings for it in %s\n", job->device, r->file);
	} else {
		report_operation("open");
		dev.fd = open(job->device, O_RDONLY | O_NONBLOCK);
		if (dev.fd < 0) {
			r->status = errno;
			complain_errno(job->device);
		} else {
			run_items(r, &dev, job);
			close(dev.fd);
			disk_release(&dev);
		}
	}
	report_json_errors();
	json_object_end();
	report_operation(NULL);
}

int config_drift_samples(const struct config_job *job, const struct run_flags *run, const char *name, struct prom *p)
{
	struct device dev;
	enum before_check state;
	int err;

	memset(&dev, 0, sizeof(dev));
	dev.path = job->device;
	dev.run = *run;
	/* One timeout, not one a setting. */
	dev.stop_at_timeout = true;
	if ((dev.fd = open(job->device, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return 0;
	if ((err = disk_choose(&dev))) {
		close(dev.fd);
		return err;
	}
	/* A disk asleep gives no sample, as --check-config reads none from it. */
	state = before_check(&dev, &err);
	for (size_t i = 0; state == CHECK_READ && !dev.timed_out && i < job->nitems; i++) {
		const struct config_item *it = &job->items[i];
		struct setting_now now;

		if (acts_once(it->opt) || read_now(&dev, job, it, &now))
			continue;
		prom_gauge(p, "hdparm_config_drifted", "1 where the disk's setting differs from the configuration's (--check-config)",
			   !setting_holds(it->opt, &job->s.v[it->opt], &now), "device", name, "key", it->key, (const char *)NULL);
	}
	close(dev.fd);
	disk_release(&dev);
	return dev.timed_out ? ETIMEDOUT : state == CHECK_DOWN ? err : 0;
}

int config_run(const struct config_job *jobs, size_t n, bool check, const char *file, const struct run_flags *run)
{
	struct config_run r = { .file = file, .check = check, .settings_only = run->settings_only };

	for (size_t i = 0; i < n; i++)
		run_job(&r, &jobs[i], run);
	fflush(stdout);
	if (check)
		return r.status ? 2 : r.drift ? 1 : 0;
	return r.status;
}

int idle_spindown_config(const struct config_job *jobs, size_t n, const struct run_flags *run)
{
	const char **paths = calloc(n + 1, sizeof(*paths));
	unsigned int *seconds = calloc(n + 1, sizeof(*seconds));
	int count = 0, status = ENOMEM;

	if (paths && seconds) {
		for (size_t i = 0; i < n; i++)
			if (jobs[i].idle_seconds) {
				paths[count] = jobs[i].device;
				seconds[count++] = jobs[i].idle_seconds;
			}
		/* Disks not there yet are watched when they appear: it runs on while any disk is given idle_spindown. */
		if (count)
			status = idle_spindown(seconds, paths, count, run, true);
		else
			note(" --idle-spindown-config: no disk has idle_spindown: nothing to watch\n");
		if (!count)
			status = 0;
	}
	free(paths);
	free(seconds);
	return status;
}
