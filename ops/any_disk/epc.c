/*
 * Power conditions: Idle_a, Idle_b, Idle_c, Standby_y and Standby_z, each
 * a timer that takes the disk there when it runs out.  ATA drives keep
 * them in the Extended Power Conditions feature set (the Power Conditions
 * log, SET FEATURES EPC), SCSI disks in the power condition mode page; the
 * kinds read and change them, and this file shows them (--epc) and says
 * what is done and refused (--epc-enable, --epc-disable, --epc-timer,
 * --epc-goto, --epc-restore).  What the disk says it will not take (a
 * condition it lacks, one not changeable or not saveable, a timer outside
 * its limits) is refused before anything is sent.  A SCSI disk's --epc
 * also shows its background medium scan, which keeps it from its timers.
 * Drives with EPC enabled ignore APM (-B) and take -S as Standby_z's
 * timer: the -B refusal and the note after -S are here too.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "background_scan.h"
#include "checks.h"
#include "epc.h"
#include "json.h"
#include "report.h"

static const struct epc_condition {
	const char *name;	/* as --epc prints it */
	const char *word;	/* as --epc-timer and --epc-goto take it */
} conditions[DISK_PCS] = {
	[DISK_PC_IDLE_A] = { "Idle_a", "idle_a" },
	[DISK_PC_IDLE_B] = { "Idle_b", "idle_b" },
	[DISK_PC_IDLE_C] = { "Idle_c", "idle_c" },
	[DISK_PC_STANDBY_Y] = { "Standby_y", "standby_y" },
	[DISK_PC_STANDBY_Z] = { "Standby_z", "standby_z" },
};

/* The condition --epc-timer or --epc-goto names; DISK_PCS for none. */
static enum disk_pc condition_named(const char *word)
{
	unsigned int i;

	for (i = 0; i < DISK_PCS && strcmp(conditions[i].word, word) != 0; i++)
		;
	return (enum disk_pc)i;
}

/* The disk's power conditions, read as deep as asked; 0, or the errno with the reason said. */
static int epc_read(struct device *dev, const char *option, enum epc_depth depth, struct disk_epc *e)
{
	int err;

	memset(e, 0, sizeof(*e));
	e->depth = depth;
	if (!dev->disk->epc_read)
		return refuse_missing_command(dev, option);
	if (!(err = dev->disk->epc_read(dev, e)))
		return 0;
	say_cause_for(&e->cause, err, option);
	if (err != EOPNOTSUPP && e->source)
		complain(" %s: the drive's %s could not be read\n", option, e->source);
	return err;
}

int epc_condition_now(struct device *dev, const char *word, struct disk_pc_state *st, struct disk_cause *cause)
{
	struct disk_epc e = { .depth = EPC_READ_ALL };
	enum disk_pc pc = condition_named(word);
	int err;

	if (pc == DISK_PCS)
		return EINVAL;
	if (!dev->disk->epc_read)
		return EOPNOTSUPP;
	err = dev->disk->epc_read(dev, &e);
	*cause = e.cause;
	if (!err)
		*st = e.pc[pc];
	return err;
}

int epc_switch_now(struct device *dev, bool *enabled, struct disk_cause *cause)
{
	struct disk_epc e = { .depth = EPC_READ_PRESENCE };
	int err;

	if (!dev->disk->epc_read)
		return EOPNOTSUPP;
	err = dev->disk->epc_read(dev, &e);
	*cause = e.cause;
	if (!err && !e.switchable)
		return EOPNOTSUPP;
	*enabled = e.enabled;
	return err;
}

static void json_conditions(const struct disk_epc *e)
{
	json_object_begin("epc");
	json_bool("enabled", e->enabled);
	json_array_begin("conditions");
	for (unsigned int i = 0; i < DISK_PCS; i++) {
		const struct disk_pc_state *st = &e->pc[i];

		json_object_begin(NULL);
		json_string("name", conditions[i].word);
		json_bool("supported", st->supported);
		if (st->supported) {
			json_bool("enabled", st->current_enabled);
			json_fixed("current_seconds", st->current_timer / 10.0, 1);
			json_fixed("default_seconds", st->default_timer / 10.0, 1);
			json_fixed("saved_seconds", st->saved_timer / 10.0, 1);
			json_bool("changeable", st->changeable);
			json_bool("saveable", st->saveable);
		}
		json_object_end();
	}
	json_array_end();
	json_object_end();
}

/* "    12.5 s" into buf: a timer of 100 ms units. */
static const char *seconds_text(uint32_t tenths, char *buf, size_t size)
{
	snprintf(buf, size, "%7u.%u s", tenths / 10, tenths % 10);
	return buf;
}

static int epc_show(struct device *dev)
{
	struct disk_epc e;
	int err;

	if ((err = epc_read(dev, "--epc", EPC_READ_ALL, &e)))
		return err;
	if (e.switchable)
		out(" Extended Power Conditions (EPC): %s\n", e.enabled ? "enabled" : "disabled");
	else
		out(" Power conditions, as the %s says:\n", e.source);
	out("\tCondition  Enabled     Current     Default       Saved  Changeable  Saveable\n");
	for (unsigned int i = 0; i < DISK_PCS; i++) {
		const struct disk_pc_state *st = &e.pc[i];
		char cur[24], def[24], sav[24];

		if (!st->supported) {
			out("\t%-9s  not supported\n", conditions[i].name);
			continue;
		}
		out("\t%-9s  %-7s  %s  %s  %s  %-10s  %s\n", conditions[i].name, st->current_enabled ? "yes" : "no",
		    seconds_text(st->current_timer, cur, sizeof(cur)), seconds_text(st->default_timer, def, sizeof(def)),
		    seconds_text(st->saved_timer, sav, sizeof(sav)), st->changeable ? "yes" : "no",
		    st->saveable ? "yes" : "no");
	}
	if (json_active())
		json_conditions(&e);
	background_scan_show(dev, " Background medium scan: ");
	return 0;
}

static int change(struct device *dev, const char *option, const struct disk_epc_change *ch)
{
	struct disk_cause cause = { 0 };
	int err = dev->disk->epc_change(dev, ch, &cause);

	return err ? say_cause_for(&cause, err, option) : 0;
}

/* 0 when the disk would take the new setting of st (save: also saved); else EOPNOTSUPP, said. */
static int setting_allowed(enum disk_pc pc, const struct disk_pc_state *st, bool save, const char *option)
{
	const char *name = conditions[pc].name;

	if (!st->supported)
		complain(" %s: this drive does not support the %s power condition\n", option, name);
	else if (!st->changeable)
		complain(" %s: the drive does not let %s be changed\n", option, name);
	else if (save && !st->saveable)
		complain(" %s: the drive cannot save %s's settings: leave out \",save\"\n", option, name);
	else
		return 0;
	return EOPNOTSUPP;
}

/* 0 when tenths (0.1 s) is a timer the drive takes for st; else ERANGE, said. */
static int timer_allowed(enum disk_pc pc, const struct disk_pc_state *st, uint64_t tenths, const char *option)
{
	/* A limit of 0 is one the drive does not report. */
	if ((st->min_timer && tenths < st->min_timer) || (st->max_timer && tenths > st->max_timer)) {
		complain(" %s: %s's timer must be %u.%u s to %u.%u s on this drive\n", option, conditions[pc].name,
			 st->min_timer / 10, st->min_timer % 10, st->max_timer / 10, st->max_timer % 10);
		return ERANGE;
	}
	return 0;
}

static int epc_timer(struct device *dev, const struct opt_value *v)
{
	struct disk_epc_change ch = { .what = EPC_SET, .pc = condition_named(v->str), .on = v->num != 0, .save = v->flag };
	const char *name;
	struct disk_epc e;
	int err;

	if (ch.pc == DISK_PCS)
		return EINVAL;
	name = conditions[ch.pc].name;
	if ((err = epc_read(dev, v->name, EPC_READ_ALL, &e)) || (err = setting_allowed(ch.pc, &e.pc[ch.pc], v->flag, v->name)))
		return err;
	if (v->num && !(ch.tenths = dev->disk->epc_counts(v->num))) {
		complain(" %s: the timer cannot be more than %s\n", v->name, e.timer_limit);
		return ERANGE;
	}
	if (v->num && (err = timer_allowed(ch.pc, &e.pc[ch.pc], ch.tenths, v->name)))
		return err;
	if (!v->num) {
		if (v->noisy)
			out(" disabling the %s power condition%s\n", name, v->flag ? " (saved)" : "");
		return change(dev, v->name, &ch);
	}
	if (ch.tenths != v->num)
		note(" %s: %llu.%llu s is set as %llu minutes: above 6553.5 s the drive counts whole minutes\n", v->name,
		     (unsigned long long)v->num / 10, (unsigned long long)v->num % 10,
		     (unsigned long long)ch.tenths / 600);
	if (v->noisy)
		out(" setting the %s timer to %llu.%llu s%s\n", name, (unsigned long long)ch.tenths / 10,
		    (unsigned long long)ch.tenths % 10, v->flag ? " (saved)" : "");
	return change(dev, v->name, &ch);
}

static int epc_goto(struct device *dev, const struct opt_value *v)
{
	struct disk_epc_change ch = { .what = EPC_GOTO, .pc = condition_named(v->str) };
	struct disk_epc e;
	int err;

	if (ch.pc == DISK_PCS)
		return EINVAL;
	if ((err = epc_read(dev, v->name, EPC_READ_PRESENCE, &e)))
		return err;
	/* Where the conditions were read: the disk enters one only by its timer, which must be on. */
	if (e.conditions_read && !e.pc[ch.pc].supported) {
		complain(" %s: this drive does not support the %s power condition\n", v->name, conditions[ch.pc].name);
		return EOPNOTSUPP;
	}
	if (e.conditions_read && !e.pc[ch.pc].current_enabled) {
		complain(" %s: %s is not enabled on this disk, which enters it only by its timer: enable it with"
			 " --epc-timer %s=SECONDS\n", v->name, conditions[ch.pc].name, conditions[ch.pc].word);
		return EOPNOTSUPP;
	}
	out(" entering the %s power condition\n", conditions[ch.pc].name);
	return change(dev, v->name, &ch);
}

int epc_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct opt_value *v = &s->v[opt];
	struct disk_epc_change ch = { 0 };
	struct disk_epc e;
	int err;

	switch (opt) {
	case OPT_EPC:
		return epc_show(dev);
	case OPT_EPC_TIMER:
		return epc_timer(dev, v);
	case OPT_EPC_GOTO:
		return epc_goto(dev, v);
	case OPT_EPC_ENABLE:
	case OPT_EPC_DISABLE:
		if ((err = epc_read(dev, v->name, EPC_READ_PRESENCE, &e)))
			return err;
		if (!e.switchable) {
			complain(" %s: %s disks have no EPC feature set to switch: each power condition is on while its"
				 " timer is (--epc-timer NAME=SECONDS, 0 turns it off)\n", v->name, dev->disk->kind);
			return EOPNOTSUPP;
		}
		ch.what = EPC_SWITCH;
		ch.on = opt == OPT_EPC_ENABLE;
		out(" %s the Extended Power Conditions feature set\n", ch.on ? "enabling" : "disabling");
		return change(dev, v->name, &ch);
	case OPT_EPC_RESTORE:
		if ((err = epc_read(dev, v->name, EPC_READ_PRESENCE, &e)))
			return err;
		if (v->flag && e.conditions_read && !e.pc[DISK_PC_STANDBY_Z].saveable) {
			complain(" %s: the drive cannot save its power condition settings: leave out \",save\"\n", v->name);
			return EOPNOTSUPP;
		}
		ch.what = EPC_RESTORE;
		ch.from_saved = v->num != 0;
		ch.save = v->flag;
		out(" restoring the %s power condition settings%s\n", v->num == 0 ? "default" : "saved",
		    v->flag ? " (saved)" : "");
		return change(dev, v->name, &ch);
	default:
		return EINVAL;
	}
}

void epc_explain_apm(struct device *dev, const char *option)
{
	struct disk_epc e = { .depth = EPC_READ_PRESENCE };

	if (dev->disk->epc_read && !dev->disk->epc_read(dev, &e) && e.switchable && e.enabled)
		complain(" %s: APM is unavailable while the drive's Extended Power Conditions are enabled: set its timers"
			 " with --epc-timer, or --epc-disable first\n", option);
}

void epc_note_standby(struct device *dev, const char *option)
{
	struct disk_epc e = { .depth = EPC_READ_IF_ENABLED };
	const struct disk_pc_state *z = &e.pc[DISK_PC_STANDBY_Z];
	char others[96] = "";
	int err;

	if (!dev->disk->epc_read)
		return;
	if ((err = dev->disk->epc_read(dev, &e))) {
		/* Said where the conditions are in force and could not be read; silent where there are none. */
		if (err != EOPNOTSUPP && e.source) {
			say_cause(&e.cause, err);
			complain(" %s: the drive's %s could not be read\n", option, e.source);
		}
		return;
	}
	if (!e.enabled || !e.conditions_read)
		return;
	for (unsigned int i = 0; i < DISK_PCS; i++)
		if (i != DISK_PC_STANDBY_Z && e.pc[i].supported && e.pc[i].current_enabled)
			snprintf(others + strlen(others), sizeof(others) - strlen(others), "%s%s", others[0] ? ", " : "",
				 conditions[i].name);
	if (e.switchable)
		note(" %s: this drive has EPC enabled: its spin-down follows the Standby_z timer, now %u.%u s (%s)%s%s\n",
		     option, z->current_timer / 10, z->current_timer % 10, z->current_enabled ? "enabled" : "disabled",
		     others[0] ? "; also enabled: " : "", others);
	else if (others[0])
		note(" %s: the Standby_z timer is now %u.%u s (%s); also enabled: %s\n", option,
		     z->current_timer / 10, z->current_timer % 10, z->current_enabled ? "enabled" : "disabled", others);
}
