/*
 * /etc/hdparm.conf's keys, each the option Debian's hdparm-functions turns
 * it into, with the value read as that option's value.  Where Debian's
 * reader differs on purpose, hdparm.8 (KEEPING SETTINGS) says so.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "config_keys.h"
#include "option_values.h"
#include "options.h"

enum key_power { ANY_POWER, ON_MAINS, ON_BATTERY };

/* A key found: the option it gives, its value's form, and the power it applies on. */
struct config_key {
	enum opt_id opt;
	enum config_form form;
	enum key_power power;
};

/* Keys that are not an option's own (an option's key is in its row: options.c). */
static const struct {
	const char *key;
	struct config_key k;
} other_keys[] = {
	{ "force_spindown_time", { OPT_STANDBY, KEY_NUMBER, ANY_POWER } },
	{ "ROOTFS", { OPT_COUNT, KEY_NONE, ANY_POWER } },	/* Debian's own, not hdparm's: read and left alone */
};

static bool find_key(const char *key, struct config_key *k)
{
	for (size_t i = 0; i < option_count; i++) {
		const struct config_key_spec *c = &option_table[i].config;

		if (!c->key)
			continue;
		if (strcmp(c->key, key) == 0 || (c->battery_key && strcmp(c->battery_key, key) == 0)) {
			*k = (struct config_key){ option_table[i].id, c->form,
						  !c->battery_key ? ANY_POWER
						  : strcmp(c->key, key) == 0 ? ON_MAINS : ON_BATTERY };
			return true;
		}
	}
	for (size_t i = 0; i < ARRAY_SIZE(other_keys); i++)
		if (strcmp(other_keys[i].key, key) == 0) {
			*k = other_keys[i].k;
			return true;
		}
	return false;
}

static int bad(const struct config_file *cf, const struct config_entry *e, unsigned int col, char *err, size_t size,
	       const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = config_verror(err, size, cf->name, e->line, col, e->key, fmt, ap);
	va_end(ap);
	return rc;
}

/* The option's value from the command line's own reader, the value standing as the word after the option. */
static int option_value(const struct option_desc *o, const char *value, struct settings *s)
{
	/* A password's reader wants a device after it: the empty word stands for one. */
	char *words[] = { (char *)value, (char *)"", NULL };
	struct cursor c = { .p = "", .next = words, .left = 2 };
	int err = parse_value(o, &c, s);

	if (!err && (c.left != 1 || *c.p))
		err = EINVAL;
	return err;
}

static bool is_on(const char *value)
{
	return strcmp(value, "on") == 0 || strcmp(value, "1") == 0;
}

/* e's value into s, as key k reads it. */
static int read_value(const struct config_file *cf, const struct config_entry *e, const struct config_key *k,
		      struct settings *s, char *err, size_t size)
{
	const struct option_desc *o = option_desc(k->opt);
	struct opt_value *v = &s->v[k->opt];
	char *end;

	if (k->form == KEY_BARE || k->form == KEY_NONE) {
		if (e->value && k->form == KEY_BARE)
			return bad(cf, e, e->value_col, err, size, "takes no value");
		return 0;
	}
	if (!e->value)
		return bad(cf, e, e->key_col, err, size, "needs '= VALUE'");
	switch (k->form) {
	case KEY_ON_OFF:
		if (!is_on(e->value) && strcmp(e->value, "off") != 0 && strcmp(e->value, "0") != 0)
			return bad(cf, e, e->value_col, err, size, "\"%s\": give on or off", e->value);
		v->num = v->num2 = is_on(e->value);
		v->has_value = true;
		return 0;
	case KEY_NUMBER:
		errno = 0;
		v->num = strtoull(e->value, &end, 10);
		if (*e->value < '0' || *e->value > '9' || *end || errno || v->num < o->min || v->num > o->max)
			return bad(cf, e, e->value_col, err, size, "\"%s\": give a number from %llu to %llu", e->value,
				   (unsigned long long)o->min, (unsigned long long)o->max);
		v->num2 = v->num;
		v->has_value = true;
		return 0;
	default:
		if (option_value(o, e->value, s))
			return bad(cf, e, e->value_col, err, size, "\"%s\": not a value %s takes", e->value,
				   option_name(k->opt));
		return 0;
	}
}

/* One line into the job: its option given, and the item that names it (a key given twice: the later). */
static int add_entry(const struct config_file *cf, const struct config_entry *e, bool on_battery,
		     struct config_job *job, char *err, size_t size)
{
	struct config_key found;
	const struct config_key *k = find_key(e->key, &found) ? &found : NULL;
	struct opt_value *v;
	enum opt_id opt;
	size_t i;
	int rc;

	if (!k)
		return bad(cf, e, e->key_col, err, size, "unknown key");
	if (k->form == KEY_NONE || (k->power == ON_MAINS && on_battery) || (k->power == ON_BATTERY && !on_battery))
		return read_value(cf, e, k, &(struct settings){ 0 }, err, size);
	opt = k->opt;
	/* epc = off is --epc-disable: the two are one setting. */
	if (opt == OPT_EPC_ENABLE) {
		struct settings scratch = { 0 };

		if ((rc = read_value(cf, e, k, &scratch, err, size)))
			return rc;
		opt = scratch.v[OPT_EPC_ENABLE].num ? OPT_EPC_ENABLE : OPT_EPC_DISABLE;
		job->s.v[OPT_EPC_ENABLE].given = job->s.v[OPT_EPC_DISABLE].given = false;
		for (i = 0; i < job->nitems && job->items[i].opt != OPT_EPC_ENABLE && job->items[i].opt != OPT_EPC_DISABLE; i++)
			;
	} else {
		v = &job->s.v[opt];
		v->has_value = false;
		if ((rc = read_value(cf, e, k, &job->s, err, size)))
			return rc;
		for (i = 0; i < job->nitems && job->items[i].opt != opt; i++)
			;
	}
	v = &job->s.v[opt];
	v->given = true;
	v->noisy = false;
	/* --user-master and --security-mode shape the security commands: no setting of their own. */
	if (opt == OPT_QUIET || option_desc(opt)->cls == CLASS_MODIFIER)
		return 0;
	if (opt == OPT_IDLE_SPINDOWN) {
		v->given = false;
		job->idle_seconds = (unsigned int)v->num;
		return 0;
	}
	if (i == job->nitems) {
		if (job->nitems == ARRAY_SIZE(job->items))
			return bad(cf, e, e->key_col, err, size, "too many settings");
		job->nitems++;
	}
	job->items[i] = (struct config_item){ .opt = opt, .key = e->key, .value = e->value, .line = e->line };
	return 0;
}

int config_settings_of(const struct config_file *cf, const bool *named, bool on_battery, struct config_job *job,
		       char *err, size_t errsize)
{
	size_t globals = cf->nentries, seen = 0;
	int rc;

	/* The global lines above the last block named: a block takes those above it, as Debian's file reads. */
	for (size_t b = 0; named && b < cf->nblocks; b++)
		if (named[b])
			globals = cf->blocks[b].globals_before;
	memset(&job->s, 0, sizeof(job->s));
	settings_name_values(&job->s);
	job->nitems = 0;
	job->idle_seconds = 0;
	/* In the file's order: of a key given twice, in one block or two, the later counts. */
	for (size_t i = 0; i < cf->nentries; i++) {
		const struct config_entry *e = &cf->entries[i];

		if (e->block < 0 ? seen++ >= globals : !named || !named[e->block])
			continue;
		if ((rc = add_entry(cf, e, on_battery, job, err, errsize)))
			return rc;
	}
	/* Every option is quiet: what is said of each setting is the configuration's line. */
	job->s.quiet = true;
	return 0;
}

int config_settings(const struct config_file *cf, int block, bool on_battery, struct config_job *job, char *err,
		    size_t errsize)
{
	bool *named = NULL;
	int rc;

	if (block >= 0 && !(named = calloc(cf->nblocks, sizeof(*named))))
		return ENOMEM;
	if (named)
		named[block] = true;
	rc = config_settings_of(cf, named, on_battery, job, err, errsize);
	free(named);
	return rc;
}

int config_check_keys(const struct config_file *cf, char *err, size_t errsize)
{
	struct config_job *job = malloc(sizeof(*job));
	int rc = 0;

	if (!job)
		return ENOMEM;
	for (int battery = 0; battery < 2 && !rc; battery++) {
		rc = config_settings(cf, -1, battery, job, err, errsize);
		for (size_t b = 0; b < cf->nblocks && !rc; b++)
			if (!cf->blocks[b].command_line)
				rc = config_settings(cf, (int)b, battery, job, err, errsize);
	}
	free(job->s.ranges);
	free(job);
	return rc;
}
