/*
 * The Extended Power Conditions feature set of ATA drives (ACS-3): the
 * Power Conditions log (08h) read into five conditions, shown by --epc,
 * and the SET FEATURES EPC subcommands behind --epc-enable, --epc-disable,
 * --epc-timer, --epc-goto and --epc-restore.  What the log says a drive
 * will not take (a condition it lacks, one not changeable or not
 * saveable, a timer outside its limits) is refused before it is sent.
 * Drives with EPC enabled ignore APM (-B) and take -S as Standby_z's
 * timer: the -B refusal and the note after -S are here too.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "array.h"
#include "checks.h"
#include "epc.h"
#include "json.h"
#include "report.h"
#include "ata_commands.h"
#include "unaligned.h"

static const struct epc_condition {
	const char *name;	/* as --epc prints it */
	const char *word;	/* as --epc-timer and --epc-goto take it */
	uint8_t id;		/* the power condition identifier (COUNT) */
	uint8_t page;		/* where the log describes it */
	unsigned int offset;
} conditions[EPC_CONDITIONS] = {
	{ "Idle_a", "idle_a", ATA_PC_IDLE_A, ATA_PCL_PAGE_IDLE, 0 },
	{ "Idle_b", "idle_b", ATA_PC_IDLE_B, ATA_PCL_PAGE_IDLE, 64 },
	{ "Idle_c", "idle_c", ATA_PC_IDLE_C, ATA_PCL_PAGE_IDLE, 128 },
	{ "Standby_y", "standby_y", ATA_PC_STANDBY_Y, ATA_PCL_PAGE_STANDBY, 384 },
	{ "Standby_z", "standby_z", ATA_PC_STANDBY_Z, ATA_PCL_PAGE_STANDBY, 448 },
};

#define STANDBY_Z 4	/* its place in conditions[] */

void epc_decode(const uint8_t desc[ATA_PCL_DESCRIPTOR], struct epc_state *st)
{
	uint8_t flags = desc[1];

	st->supported = flags & ATA_PCL_SUPPORTED;
	st->saveable = flags & ATA_PCL_SAVEABLE;
	st->changeable = flags & ATA_PCL_CHANGEABLE;
	st->default_enabled = flags & ATA_PCL_DEFAULT_ENABLED;
	st->saved_enabled = flags & ATA_PCL_SAVED_ENABLED;
	st->current_enabled = flags & ATA_PCL_CURRENT_ENABLED;
	st->default_timer = get_le32(desc + ATA_PCL_DEFAULT_TIMER);
	st->saved_timer = get_le32(desc + ATA_PCL_SAVED_TIMER);
	st->current_timer = get_le32(desc + ATA_PCL_CURRENT_TIMER);
	st->min_timer = get_le32(desc + ATA_PCL_MIN_TIMER);
	st->max_timer = get_le32(desc + ATA_PCL_MAX_TIMER);
}

int epc_timer_field(uint64_t tenths, uint32_t *lba, uint64_t *effective)
{
	if (tenths <= ATA_EPC_TIMER_MAX) {
		*lba = (uint32_t)tenths << ATA_EPC_TIMER_SHIFT;
		*effective = tenths;
		return 0;
	}
	/* Above 6553.5 s the timer counts whole minutes: rounded up. */
	uint64_t minutes = (tenths + 599) / 600;

	if (minutes > ATA_EPC_TIMER_MAX)
		return ERANGE;
	*lba = (uint32_t)minutes << ATA_EPC_TIMER_SHIFT | ATA_EPC_TIMER_MINUTES;
	*effective = minutes * 600;
	return 0;
}

/* The drive's IDENTIFY page where it has EPC; else NULL, with the reason said (err). */
static const uint16_t *epc_drive(struct device *dev, const char *option, int *err)
{
	const uint16_t *id = identify_or_report(dev, err);

	if (id && !ata_id_has_epc(id)) {
		complain(" %s: the Extended Power Conditions feature set is not supported by this drive\n", option);
		*err = EOPNOTSUPP;
		return NULL;
	}
	return id;
}

static const struct epc_condition *condition_named(const char *word);

/* The five conditions from the Power Conditions log; 0, or EIO with *cause; nothing said. */
static int read_conditions_quietly(struct device *dev, struct epc_state st[EPC_CONDITIONS], struct disk_cause *cause)
{
	uint8_t page[2][512];

	for (unsigned int p = 0; p < 2; p++)
		if (ata_read_log_page(dev, ATA_LOG_POWER_CONDITIONS, (uint8_t)p, page[p], cause))
			return EIO;
	for (unsigned int i = 0; i < EPC_CONDITIONS; i++)
		epc_decode(page[conditions[i].page] + conditions[i].offset, &st[i]);
	return 0;
}

/* The same, said where it fails. */
static int read_conditions(struct device *dev, const char *option, struct epc_state st[EPC_CONDITIONS])
{
	struct disk_cause cause = { 0 };

	if (read_conditions_quietly(dev, st, &cause)) {
		say_cause(&cause, 0);
		complain(" %s: the drive's Power Conditions log (08h) could not be read\n", option);
		return EIO;
	}
	return 0;
}

int epc_condition_now(struct device *dev, const char *word, struct epc_state *st, struct disk_cause *cause)
{
	struct epc_state all[EPC_CONDITIONS];
	const struct epc_condition *c = condition_named(word);
	int err;

	if (!c)
		return EINVAL;
	if ((err = read_conditions_quietly(dev, all, cause)))
		return err;
	*st = all[c - conditions];
	return 0;
}

static void json_conditions(bool enabled, const struct epc_state st[EPC_CONDITIONS])
{
	json_object_begin("epc");
	json_bool("enabled", enabled);
	json_array_begin("conditions");
	for (unsigned int i = 0; i < EPC_CONDITIONS; i++) {
		json_object_begin(NULL);
		json_string("name", conditions[i].word);
		json_bool("supported", st[i].supported);
		if (st[i].supported) {
			json_bool("enabled", st[i].current_enabled);
			json_fixed("current_seconds", st[i].current_timer / 10.0, 1);
			json_fixed("default_seconds", st[i].default_timer / 10.0, 1);
			json_fixed("saved_seconds", st[i].saved_timer / 10.0, 1);
			json_bool("changeable", st[i].changeable);
			json_bool("saveable", st[i].saveable);
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
	struct epc_state st[EPC_CONDITIONS];
	const uint16_t *id;
	int err;

	if (!(id = epc_drive(dev, "--epc", &err)) || (err = read_conditions(dev, "--epc", st)))
		return err;
	out(" Extended Power Conditions (EPC): %s\n", ata_id_epc_enabled(id) ? "enabled" : "disabled");
	out("\tCondition  Enabled     Current     Default       Saved  Changeable  Saveable\n");
	for (unsigned int i = 0; i < EPC_CONDITIONS; i++) {
		char cur[24], def[24], sav[24];

		if (!st[i].supported) {
			out("\t%-9s  not supported\n", conditions[i].name);
			continue;
		}
		out("\t%-9s  %-7s  %s  %s  %s  %-10s  %s\n", conditions[i].name, st[i].current_enabled ? "yes" : "no",
		    seconds_text(st[i].current_timer, cur, sizeof(cur)), seconds_text(st[i].default_timer, def, sizeof(def)),
		    seconds_text(st[i].saved_timer, sav, sizeof(sav)), st[i].changeable ? "yes" : "no",
		    st[i].saveable ? "yes" : "no");
	}
	if (json_active())
		json_conditions(ata_id_epc_enabled(id), st);
	return 0;
}

static int send_epc(struct device *dev, const char *what, uint32_t lba, uint8_t condition)
{
	struct ata_result res;
	int err = ata_set_epc(dev, lba, condition, &res);

	if (err)
		ata_report(what, &res, err);
	/* The drive's settings changed: later queries read IDENTIFY afresh. */
	ata_identify_forget(dev);
	return err;
}

static const struct epc_condition *condition_named(const char *word)
{
	for (unsigned int i = 0; i < EPC_CONDITIONS; i++)
		if (strcmp(conditions[i].word, word) == 0)
			return &conditions[i];
	return NULL;
}

/* 0 when the drive would take the new setting of st (save: also saved); else EOPNOTSUPP, said. */
static int setting_allowed(const struct epc_condition *c, const struct epc_state *st, bool save, const char *option)
{
	if (!st->supported)
		complain(" %s: this drive does not support the %s power condition\n", option, c->name);
	else if (!st->changeable)
		complain(" %s: the drive does not let %s be changed\n", option, c->name);
	else if (save && !st->saveable)
		complain(" %s: the drive cannot save %s's settings: leave out \",save\"\n", option, c->name);
	else
		return 0;
	return EOPNOTSUPP;
}

/* 0 when tenths (0.1 s) is a timer the drive takes for st; else ERANGE, said. */
static int timer_allowed(const struct epc_condition *c, const struct epc_state *st, uint64_t tenths, const char *option)
{
	/* A limit of 0 is one the drive does not report. */
	if ((st->min_timer && tenths < st->min_timer) || (st->max_timer && tenths > st->max_timer)) {
		complain(" %s: %s's timer must be %u.%u s to %u.%u s on this drive\n", option, c->name, st->min_timer / 10,
			 st->min_timer % 10, st->max_timer / 10, st->max_timer % 10);
		return ERANGE;
	}
	return 0;
}

static int epc_timer(struct device *dev, const struct opt_value *v)
{
	const struct epc_condition *c = condition_named(v->str);
	struct epc_state st[EPC_CONDITIONS];
	uint64_t effective = 0;
	uint32_t lba = 0;
	int err;

	if (!c)
		return EINVAL;
	if (!epc_drive(dev, v->name, &err) || (err = read_conditions(dev, v->name, st)) ||
	    (err = setting_allowed(c, &st[c - conditions], v->flag, v->name)))
		return err;
	if (v->num && epc_timer_field(v->num, &lba, &effective)) {
		complain(" %s: the timer cannot be more than 65535 minutes\n", v->name);
		return ERANGE;
	}
	if (v->num && (err = timer_allowed(c, &st[c - conditions], effective, v->name)))
		return err;
	if (v->flag)
		lba |= ATA_EPC_SAVE;
	if (!v->num) {
		if (v->noisy)
			out(" disabling the %s power condition%s\n", c->name, v->flag ? " (saved)" : "");
		return send_epc(dev, "SET FEATURES EPC (set power condition state)", lba | ATA_EPC_SET_STATE, c->id);
	}
	if (effective != v->num)
		note(" %s: %llu.%llu s is set as %llu minutes: above 6553.5 s the drive counts whole minutes\n", v->name,
		     (unsigned long long)v->num / 10, (unsigned long long)v->num % 10, (unsigned long long)effective / 600);
	if (v->noisy)
		out(" setting the %s timer to %llu.%llu s%s\n", c->name, (unsigned long long)effective / 10,
	    (unsigned long long)effective % 10, v->flag ? " (saved)" : "");
	return send_epc(dev, "SET FEATURES EPC (set power condition timer)", lba | ATA_EPC_SET_TIMER | ATA_EPC_ENABLE_BIT,
			c->id);
}

int epc_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct opt_value *v = &s->v[opt];
	const struct epc_condition *c;
	int err;

	switch (opt) {
	case OPT_EPC:
		return epc_show(dev);
	case OPT_EPC_ENABLE:
	case OPT_EPC_DISABLE:
		if (!epc_drive(dev, v->name, &err))
			return err;
		out(" %s the Extended Power Conditions feature set\n", opt == OPT_EPC_ENABLE ? "enabling" : "disabling");
		return send_epc(dev, opt == OPT_EPC_ENABLE ? "SET FEATURES EPC (enable)" : "SET FEATURES EPC (disable)",
				opt == OPT_EPC_ENABLE ? ATA_EPC_ENABLE : ATA_EPC_DISABLE, 0);
	case OPT_EPC_TIMER:
		return epc_timer(dev, v);
	case OPT_EPC_GOTO:
		if (!(c = condition_named(v->str)) || !epc_drive(dev, v->name, &err))
			return c ? err : EINVAL;
		out(" entering the %s power condition\n", c->name);
		return send_epc(dev, "SET FEATURES EPC (go to power condition)", ATA_EPC_GOTO, c->id);
	case OPT_EPC_RESTORE:
		if (!epc_drive(dev, v->name, &err))
			return err;
		out(" restoring the %s power condition settings%s\n", v->num == 0 ? "default" : "saved", v->flag ? " (saved)" : "");
		return send_epc(dev, "SET FEATURES EPC (restore power condition settings)",
				ATA_EPC_RESTORE | (v->num == 0 ? ATA_EPC_RESTORE_DEFAULT : 0) | (v->flag ? ATA_EPC_SAVE : 0),
				ATA_PC_ALL);
	default:
		return EINVAL;
	}
}

/* The drive's IDENTIFY page (read quietly where it is not at hand) where EPC is enabled; else NULL. */
static const uint16_t *epc_enabled_drive(struct device *dev)
{
	struct ata_result res;
	const uint16_t *id;
	int err;

	id = ata_identify(dev, &err, &res);
	return id && ata_id_epc_enabled(id) ? id : NULL;
}

void epc_explain_apm(struct device *dev, const char *option)
{
	if (epc_enabled_drive(dev))
		complain(" %s: APM is unavailable while the drive's Extended Power Conditions are enabled: set its timers"
			 " with --epc-timer, or --epc-disable first\n", option);
}

void epc_note_standby(struct device *dev, const char *option)
{
	struct epc_state st[EPC_CONDITIONS];
	char others[96] = "";

	if (!epc_enabled_drive(dev) || read_conditions(dev, option, st))
		return;
	for (unsigned int i = 0; i < EPC_CONDITIONS; i++)
		if (i != STANDBY_Z && st[i].supported && st[i].current_enabled)
			snprintf(others + strlen(others), sizeof(others) - strlen(others), "%s%s", others[0] ? ", " : "",
				 conditions[i].name);
	note(" %s: this drive has EPC enabled: its spin-down follows the Standby_z timer, now %u.%u s (%s)%s%s\n", option,
	     st[STANDBY_Z].current_timer / 10, st[STANDBY_Z].current_timer % 10,
	     st[STANDBY_Z].current_enabled ? "enabled" : "disabled", others[0] ? "; also enabled: " : "", others);
}
