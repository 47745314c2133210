/*
 * Running one device's options: the steps of every option given, in the
 * order their rows' places say (9.65's order, options.h), after the checks
 * that must pass before anything is sent.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "actions.h"
#include "ata_commands.h"
#include "checks.h"
#include "commands.h"
#include "condition.h"
#include "disk.h"
#include "erase_record.h"
#include "erasecheck.h"
#include "files.h"
#include "inuse.h"
#include "json.h"
#include "progress.h"
#include "report.h"
#include "bridge_say.h"
#include "sector_format.h"

/* A step of an option's row, with the option it belongs to. */
struct placed_step {
	enum opt_id opt;
	const struct step *st;
};

static int by_place(const void *a, const void *b)
{
	const struct placed_step *x = a, *y = b;

	return (x->st->at > y->st->at) - (x->st->at < y->st->at);
}

/*
 * Every row's steps, in the order they run (their .at).  Two steps at one
 * place would run in an order qsort picks: that is a mistake in the table,
 * stopped at the first run rather than left to chance.
 */
static const struct placed_step *ordered_steps(size_t *n)
{
	static struct placed_step placed[OPTION_STEPS * OPT_COUNT];
	static size_t count;

	if (!count) {
		for (size_t i = 0; i < option_count; i++)
			for (size_t k = 0; k < OPTION_STEPS && option_table[i].steps[k].run; k++)
				placed[count++] = (struct placed_step){ option_table[i].id, &option_table[i].steps[k] };
		qsort(placed, count, sizeof(placed[0]), by_place);
		for (size_t i = 1; i < count; i++)
			if (placed[i].st->at == placed[i - 1].st->at) {
				char first[48];	/* option_name() has one buffer */

				snprintf(first, sizeof(first), "%s", option_name(placed[i - 1].opt));
				fprintf(stderr, "hdparm: internal error: two steps at place %d (%s, %s)\n", placed[i].st->at, first,
					option_name(placed[i].opt));
				abort();
			}
	}
	*n = count;
	return placed;
}

/* The option's use on this command line is one its row says needs confirming. */
static bool dangerous_form_given(const struct option_desc *o, const struct settings *s)
{
	const struct opt_value *v = &s->v[o->id];
	const struct confirmation *c = &o->confirm;

	return c->needs && v->given && !(c->form == SET_FORM && !v->has_value) &&
	       !(c->form == NONZERO_VALUE && !(v->has_value && v->num));
}

int run_file_option(enum opt_id opt, const struct settings *s)
{
	return opt == OPT_FIBMAP ? fibmap_file(s) : fallocate_file(s);
}

bool carries_dangerous_option(const struct settings *s)
{
	for (size_t i = 0; i < option_count; i++)
		if (dangerous_form_given(&option_table[i], s))
			return true;
	return false;
}

/*
 * How far an erase reaches from the node named: its row says whether it
 * reaches as a sanitize or as a format does (a TCG revert erases what the
 * Locking SP covers: on NVMe, every namespace, as a sanitize does), and the
 * disk's kind says how far that is (an NVMe sanitize: the subsystem).
 */
static enum reach_scope erase_scope(struct device *dev, const struct confirmation *c)
{
	if (!dev->disk->erase_scope || c->reaches == REACHES_NAMED)
		return REACH_NAMED;
	return dev->disk->erase_scope(dev, c->reaches == REACHES_AS_FORMAT ? ERASE_BY_FORMAT : ERASE_BY_SANITIZE);
}

/*
 * A confirmed dangerous option: the disks it reaches checked as its row
 * says, and held locked, every one, until the run ends (need_disks_held):
 * two runs that change one disk at once would interleave their commands.
 */
static int hold_disks(struct device *dev, const char *option, const struct confirmation *c, enum reach_scope scope)
{
	struct reach r;
	int err;

	if (c->whole_disk)
		return need_disk_unused(dev, option, scope);
	if (c->writes_medium)
		return (err = need_named_target(dev, option, scope, &dev->reach)) ? err
										: need_disks_held(dev, option, &dev->reach);
	disk_reach(dev, scope, &r);
	return need_disks_held(dev, option, &r);
}

/*
 * 0, or EPERM when a dangerous option lacks its flag (the message is
 * printed).  Checked before the first command goes out, so a refusal
 * leaves the drive untouched (9.65 checked each one only when its turn
 * came).
 */
static int preflight(struct device *dev, const struct settings *s)
{
	int refused = refuse_through_tunnel(dev, s);

	if (refused)
		return refused;
	for (size_t i = 0; i < option_count; i++) {
		const struct confirmation *c = &option_table[i].confirm;
		int err = 0;

		if (!dangerous_form_given(&option_table[i], s))
			continue;
		/* A format's choices, with their performance, before its confirmation is asked for. */
		if (option_table[i].id == OPT_SET_SECTOR_SIZE && !s->v[OPT_PLEASE_DESTROY].given)
			sector_format_preview(dev, s, OPT_SET_SECTOR_SIZE);
		if (c->needs & NEED_YES)
			err = confirm_dangerous(dev, s, c->label, c->why);
		if (!err && (c->needs & NEED_DESTROY))
			err = confirm_destructive(dev, s, c->label, c->why_destroy ? c->why_destroy : c->why);
		/*
		 * One that writes the whole disk's medium and names no LBA
		 * (--scan-repair): a partition refused in its own words, not in
		 * the sector commands' ("the absolute LBA of sector 0 ...").
		 */
		if (!err && c->whole_disk && c->writes_medium)
			err = need_whole_disk_for(dev, s->v[option_table[i].id].name);
		if (!err)
			err = hold_disks(dev, s->v[option_table[i].id].name, c, erase_scope(dev, c));
		if (err)
			return err;
	}
	return s->v[OPT_ERASE_RECORD].given ? erase_record_check(dev, s) : 0;
}

static bool step_applies(const struct placed_step *ps, const struct settings *s)
{
	const struct step *st = ps->st;
	const struct opt_value *v = &s->v[ps->opt];

	if (st->in_defaults && s->defaults)
		return true;
	switch (st->when) {
	case WHEN_GIVEN:
		return v->given;
	case WHEN_SET:
		return v->given && v->has_value;
	case WHEN_QUERY:
	case WHEN_NOISY:
		return v->given && v->noisy;
	}
	return false;
}

static void json_timing(const char *key, const struct timing_result *t)
{
	if (!t->valid)
		return;
	json_object_begin(key);
	json_uint("mib", t->mib);
	json_fixed("seconds", t->seconds, 6);
	json_fixed("mib_per_sec", t->seconds > 0 ? t->mib / t->seconds : 0, 2);
	json_bool("o_direct", t->direct);
	if (t->has_offset)
		json_uint("offset_gib", t->offset_gib);
	if (t->iodepth) {
		json_uint("iodepth", t->iodepth);
		json_uint("block_kib", t->block_kib);
		json_string("engine", t->engine);
	}
	json_object_end();
}

/* The end of a device's JSON object: timings, then every error its steps reported. */
static void json_device_end(const struct device *dev)
{
	if (dev->cached_reads.valid || dev->disk_reads.valid) {
		json_object_begin("timings");
		json_timing("cached_reads", &dev->cached_reads);
		json_timing("disk_reads", &dev->disk_reads);
		json_object_end();
	}
	report_json_errors();
	json_object_end();
}

/* The device being run, for a signal that stops a long command (progress_on_interrupt). */
static struct {
	struct device *dev;
	const struct settings *s;
	const struct erase_gate *gate;
} running;

/*
 * A signal stopped a long command (an erase, a format), which goes on in
 * the drive: the device's object says so, as the erase record does, and
 * the run ends with 128 + sig.  From the thread that waits for signals,
 * while the one that runs the device waits in the kernel.
 */
static void device_interrupted(int sig)
{
	if (running.dev) {
		if (settings_erase(running.s))
			json_string("erase_outcome", "interrupted");
		json_device_end(running.dev);
	}
	fflush(stdout);
	if (running.gate && running.gate->interrupted)
		running.gate->interrupted(sig);
	exit(128 + sig);
}

/* An ATA command on another kind of disk: refused, with what the disk has instead. */
static int refuse_step(struct device *dev, const struct settings *s, const struct placed_step *ps)
{
	const struct step *st = ps->st;
	int err;

	if (st->hint == HINT_POWER && dev->disk->power_managed)
		return refuse_power_option(dev, s->v[ps->opt].name);
	err = refuse_on_this_disk(dev, s->v[ps->opt].name);
	if (st->hint == HINT_ERASE)
		say_erase_choices(dev);
	return err;
}

/* A row by kind that is not this disk's: the option's other row serves it. */
static bool other_kinds_row(const struct device *dev, const struct step *st)
{
	return (st->for_kind == ATA_KIND && !dev->disk->ata) || (st->for_kind == OTHER_KINDS && dev->disk->ata);
}

static int run_step(struct device *dev, const struct settings *s, const struct placed_step *ps, bool refused[OPT_COUNT])
{
	const struct step *st = ps->st;
	int err;

	if (other_kinds_row(dev, st))
		return 0;
	if (st->ata_only && !dev->disk->ata) {
		/* An option with a set and a query step is refused once. */
		if (refused[ps->opt])
			return EOPNOTSUPP;
		refused[ps->opt] = true;
		return refuse_step(dev, s, ps);
	}
	if (st->when == WHEN_QUERY && refused[ps->opt])
		return 0;	/* the set before it failed, and said why */
	err = st->run(dev, s, ps->opt);
	/* EINVAL: the value was refused, not the disk: what it has now is still worth reading. */
	if (err && err != EINVAL && st->once)
		refused[ps->opt] = true;
	return err;
}

/* Every erase the settings ask for, checked on the disk as its step would, nothing sent: 0, or the refusal's errno. */
static int check_erases(struct device *dev, const struct settings *s)
{
	size_t n;
	const struct placed_step *placed = ordered_steps(&n);

	for (size_t i = 0; i < n; i++) {
		const struct step *st = placed[i].st;
		int err;

		if (!st->check || !step_applies(&placed[i], s) || other_kinds_row(dev, st))
			continue;
		report_operation(option_name(placed[i].opt));
		err = st->ata_only && !dev->disk->ata ? refuse_step(dev, s, &placed[i]) : st->check(dev, s, placed[i].opt);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Many disks at once: the device waits at the gate with what its checks
 * found (0: ready) until every disk is checked; it goes on only when the
 * gate says 0, and otherwise runs no step.
 */
static int pass_gate(struct device *dev, const struct settings *s, const struct erase_gate *gate, int status)
{
	if (!status && dev->fd >= 0)
		status = check_erases(dev, s);
	/* The gate names the run's operation (run/together_member.c): an erase, a format or a firmware download. */
	fflush(stdout);
	status = gate->wait(dev, status, gate->arg);
	if (status)
		dev->refused = true;
	return status;
}

bool option_refused_on(const struct device *dev, enum opt_id opt)
{
	const struct step *steps = option_desc(opt)->steps;
	bool any = false;

	for (size_t i = 0; i < OPTION_STEPS && steps[i].run; i++) {
		if (!steps[i].ata_only || dev->disk->ata)
			return false;
		any = true;
	}
	return any;
}

int run_setting(struct device *dev, const struct settings *s, enum opt_id opt)
{
	bool refused_here[OPT_COUNT] = { false };
	int status = preflight(dev, s);
	size_t n;
	const struct placed_step *placed = ordered_steps(&n);

	for (size_t i = 0; !status && !dev->refused && i < n; i++) {
		int err;

		if (placed[i].opt != opt || placed[i].st->when == WHEN_QUERY || !step_applies(&placed[i], s))
			continue;
		report_operation(option_name(opt));
		if ((err = run_step(dev, s, &placed[i], refused_here)))
			status = err;
	}
	fflush(stdout);
	report_operation(NULL);
	return status;
}

int process_device(const char *path, const struct settings *s, const struct run_flags *run,
		   const struct erase_gate *gate, bool *refused)
{
	struct device dev;
	int flags = O_RDONLY | O_NONBLOCK;
	int status = 0;
	bool querying = false;
	bool refused_here[OPT_COUNT] = { false };
	size_t nsteps;
	const struct placed_step *placed = ordered_steps(&nsteps);

	memset(&dev, 0, sizeof(dev));
	dev.path = path;
	dev.run = *run;
	dev.together_member = gate != NULL;
	running.dev = &dev;
	running.s = s;
	running.gate = gate;
	progress_on_interrupt(device_interrupted);
	json_object_begin(NULL);
	json_string("name", path);
	if (s->v[OPT_DIRECT].given)
		flags |= O_DIRECT;
	if (s->v[OPT_TRIM_RANGES].given)
		flags = (flags & ~O_ACCMODE) | O_RDWR;

	report_operation("open");
	dev.fd = open(path, flags);
	if (dev.fd < 0) {
		status = errno;
		complain_errno(path);
	} else {
		if (!s->quiet)
			out("\n%s:\n", path);
		fflush(stdout);
		status = disk_choose(&dev);
		bridge_say_json(&dev);
		if (!status)
			status = preflight(&dev, s);
	}
	if (gate)
		status = pass_gate(&dev, s, gate, status);

	/* A device that did not open, or an unconfirmed dangerous option, runs no step. */
	for (size_t i = 0; dev.fd >= 0 && !dev.refused && i < nsteps; i++) {
		int err;

		if (!step_applies(&placed[i], s))
			continue;
		/* Settings may have changed the drive: queries read IDENTIFY afresh. */
		if (!querying && placed[i].st->when == WHEN_QUERY) {
			querying = true;
			if (dev.disk->ata)
				ata_identify_forget(&dev);
		}
		fflush(stdout);
		report_operation(option_name(placed[i].opt));
		err = run_step(&dev, s, &placed[i], refused_here);
		/* --condition's verdict after an option that failed: the failure stays the status (the verdict is said). */
		status = condition_exit_after(status, err);
		/* A refused dangerous option stops this device: nothing after it runs. */
		if (dev.refused)
			break;
	}
	fflush(stdout);
	/* Written whatever happened, refusals too: the record says what was and was not done. */
	if (s->v[OPT_ERASE_RECORD].given && !dev.record_unwritable) {
		int err = erase_record_write(&dev, s, status);

		if (err && !status)
			status = err;
	}
	if (settings_erase(s) && erase_outcome(&dev, s, status))
		json_string("erase_outcome", erase_outcome(&dev, s, status));
	if (dev.fd >= 0)
		close(dev.fd);
	disk_release(&dev);
	erase_run_free(&dev);
	erase_record_free(&dev);
	json_device_end(&dev);
	progress_on_interrupt(NULL);
	running.dev = NULL;
	report_operation(NULL);
	*refused = dev.refused;
	return status;
}
