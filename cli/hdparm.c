/*
 * hdparm: the command line, parsed by the option table of run/options.c (each
 * option's spelling, the kind and range of its value, the message used
 * when the value is bad, and its line in the usage text).  The command line
 * is parsed whole before any device is opened, so a bad option never
 * leaves a command half sent; each device then gets the options given
 * before it (they accumulate left to right, as in hdparm 9.65), its rows'
 * steps run in hdparm 9.65's fixed order (run/actions.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "ata.h"
#include "actions.h"
#include "config.h"
#include "config_file.h"
#include "config_jobs.h"
#include "erase_record.h"
#include "scan_picture.h"
#include "file_write.h"
#include "version.h"
#include "identify.h"
#include "idle.h"
#include "metrics_run.h"
#include "json.h"
#include "options.h"
#include "psid.h"
#include "std_streams.h"
#include "option_values.h"
#include "cmdline.h"
#include "report.h"
#include "together.h"


static const char *progname = HDPARM_NAME;

static void usage(FILE *f)
{
	fprintf(f, "\n%s - get/set hard disk parameters - version %s, by Mark Lord.\n\n", progname, HDPARM_VERSION);
	fprintf(f, "Usage:  %s  [options] [device ...]\n\n", progname);
	fprintf(f, "Options:\n");
	for (size_t i = 0; i < option_count; i++)
		if (option_table[i].usage)
			fprintf(f, " %s\n", option_table[i].usage);
	fprintf(f, "\n");
}

static void security_help(FILE *f)
{
	fprintf(f, "\n"
		"ATA Security Commands:\n"
		" Most of these are VERY DANGEROUS and can destroy all of your data!\n"
		" Due to bugs in older Linux kernels, use of these commands may even\n"
		" trigger kernel segfaults or worse.  EXPERIMENT AT YOUR OWN RISK!\n"
		"\n"
		" --security-freeze           Freeze security settings until reset.\n"
		"\n"
		" --security-set-pass PASSWD  Lock drive, using password PASSWD:\n"
		"                                  Use 'NULL' to set empty password.\n"
		"                                  Drive gets locked if user-passwd is selected.\n"
		" --security-prompt-for-password   Prompt user to enter the drive password.\n"
		"\n"
		" --security-unlock   PASSWD  Unlock drive.\n"
		" --security-disable  PASSWD  Disable drive locking.\n"
		" --security-erase    PASSWD  Erase a (locked) drive.\n"
		" --security-erase-enhanced PASSWD   Enhanced-erase a (locked) drive.\n"
		"\n"
		" The above four commands may optionally be preceded by these options:\n"
		" --security-mode  LEVEL      Use LEVEL to select security level:\n"
		"                                  h   high security (default).\n"
		"                                  m   maximum security.\n"
		" --user-master    WHICH      Use WHICH to choose password type:\n"
		"                                  u   user-password (default).\n"
		"                                  m   master-password\n");
}


/* ---- parsing ---- */

static const struct option_desc *find_letter(char letter)
{
	for (size_t i = 0; i < option_count; i++)
		if (option_table[i].letter == letter)
			return &option_table[i];
	return NULL;
}

static const struct option_desc *find_name(const char *name)
{
	for (size_t i = 0; i < option_count; i++)
		if (option_table[i].name && strcasecmp(option_table[i].name, name) == 0)
			return &option_table[i];
	return NULL;
}

/* A parsed command line: the settings in force at each device. */
struct parse_state {
	struct settings s;
	int actions;		/* action options seen so far */
	bool noisy;		/* cleared by -q for the next option */
	bool no_more_options;	/* after an ALONE option */
	const struct option_desc *alone;	/* ... which was this one */
	const struct option_desc *sole;
	struct job *jobs;
	int njobs;
	bool istdin;
	bool stopped;		/* parsing stopped at an option that runs at once: */
	enum opt_id immediate;	/* -h, -V, --security-help, --fibmap, --fallocate */
	struct run_flags run;	/* --verbose, --prefer-ata12, --json: for every device */
};

/*
 * Options that end the command line where they stand, as in 9.65: what
 * follows them is not parsed.  main() runs them.
 */
static int note_immediate(const struct option_desc *o, struct parse_state *ps, const struct cursor *c)
{
	switch (o->id) {
	case OPT_FALLOCATE:
	case OPT_FIBMAP:
		/* These work on a file: nothing may come before or after them. */
		if (ps->actions || c->left || *c->p) {
			complain("--%s: must be the only option, with nothing after its file\n", o->name);
			return EINVAL;
		}
		ps->immediate = o->id;
		ps->stopped = true;
		break;
	case OPT_HELP:
	case OPT_VERSION:
	case OPT_SECURITY_HELP:
		ps->immediate = o->id;
		ps->stopped = true;
		break;
	default:
		break;
	}
	return 0;
}

/* An --erase-record that takes a record per disk: a folder, or standard output. */
static bool erase_record_to_many(const char *given)
{
	return strcmp(given, "-") == 0 || erase_record_is_folder(given);
}

/*
 * After an option that must stand alone, what may still come: the wait for
 * a sanitize, and how any erase is verified and recorded.
 */
static bool may_follow(const struct option_desc *alone, enum opt_id id)
{
	bool sanitize = alone && alone->name && strncmp(alone->name, "sanitize-", 9) == 0;
	bool erase = sanitize || (alone && alone->id == OPT_FORMAT_ERASE);

	bool erase_modifier = id == OPT_ERASE_VERIFY || id == OPT_ERASE_RECORD || id == OPT_ERASE_OPERATOR ||
			      id == OPT_CONTINUE_ON_REFUSAL;

	erase = erase || (alone && (alone->id == OPT_SECURITY_ERASE || alone->id == OPT_SECURITY_ERASE_ENHANCED ||
				    alone->id == OPT_TCG_PSID_REVERT));
	bool idle = alone && (alone->id == OPT_IDLE_SPINDOWN || alone->id == OPT_IDLE_CONFIG);
	bool apply = alone && alone->id == OPT_APPLY_CONFIG;
	bool metrics = alone && (alone->id == OPT_METRICS || alone->id == OPT_METRICS_FILE);

	return (id == OPT_SANITIZE_WAIT && sanitize) || (erase_modifier && erase) ||
	       ((id == OPT_WHY || id == OPT_METRICS_FILE) && idle) || (id == OPT_SETTINGS_ONLY && apply) ||
	       ((id == OPT_CHECK_CONFIG || id == OPT_TCG) && metrics);
}

static int parse_option(struct parse_state *ps, const struct option_desc *o, struct cursor *c, const char *spelled)
{
	struct opt_value *v = &ps->s.v[o->id];
	int err;

	if (o->id == OPT_OBSOLETE_U || o->id == OPT_OBSOLETE_X) {
		complain("%s: obsolete option, no longer supported (see '%s -h')\n", spelled, progname);
		return EINVAL;
	}
	if (ps->no_more_options && !may_follow(ps->alone, o->id)) {
		complain("%s: no option may follow the one before it\n", spelled);
		return EINVAL;
	}
	if (o->cls == CLASS_ALONE && ps->actions && !(ps->no_more_options && may_follow(ps->alone, o->id))) {
		complain("%s: must come before any other option\n", spelled);
		return EINVAL;
	}
	/* -I, --Istdout and --Iraw are one setting: the last one given wins. */
	if (o->id == OPT_IDENTIFY || o->id == OPT_ISTDOUT || o->id == OPT_IRAW) {
		ps->s.v[OPT_IDENTIFY].given = false;
		ps->s.v[OPT_ISTDOUT].given = false;
		ps->s.v[OPT_IRAW].given = false;
	}
	v->given = true;
	v->noisy = ps->noisy;
	ps->noisy = true;
	if (o->id == OPT_QUIET) {
		ps->s.quiet = true;
		ps->noisy = false;
	}
	if ((err = parse_value(o, c, &ps->s)))
		return err;
	if ((err = note_immediate(o, ps, c)) || ps->stopped)
		return err;
	if (o->cls != CLASS_MODIFIER)
		ps->actions++;
	/* The first one rules the run: --idle-spindown's --metrics-file only says where its counters go. */
	if (o->cls == CLASS_ALONE && !ps->alone) {
		ps->no_more_options = true;
		ps->alone = o;
	}
	if (o->cls == CLASS_SOLE)
		ps->sole = o;
	if (o->id == OPT_ISTDIN)
		ps->istdin = true;
	if (o->id == OPT_VERBOSE)
		ps->run.verbose = true;
	if (o->id == OPT_PREFER_ATA12)
		ps->run.prefer_ata12 = true;
	if (o->id == OPT_BRIDGE)
		ps->run.bridge = (enum bridge_protocol)ps->s.v[OPT_BRIDGE].num;
	if (o->id == OPT_WHY)
		ps->run.why = true;
	if (o->id == OPT_SETTINGS_ONLY)
		ps->run.settings_only = true;
	if (o->id == OPT_METRICS_FILE)
		ps->run.metrics_file = ps->s.v[OPT_METRICS_FILE].str;
	if (o->id == OPT_TCG && ps->alone && (ps->alone->id == OPT_METRICS || ps->alone->id == OPT_METRICS_FILE))
		ps->run.metrics_tcg = true;
	return 0;
}

static int parse_word(struct parse_state *ps, struct cursor *c)
{
	char spelled[64];
	int err;

	if (!*c->p)
		return bad_command_line("%s: a lone '-' is not an option", HDPARM_NAME);
	while (*c->p) {
		char letter = *c->p++;
		const struct option_desc *o;

		if (letter == '-') {
			/* "--name": the rest of the word is the name. */
			const char *name = c->p;

			o = find_name(name);
			if (!o || !o->name) {
				complain("--%s: unknown flag\n", name);
				return EINVAL;
			}
			snprintf(spelled, sizeof(spelled), "--%s", o->name);
			c->p = "";
			if ((err = parse_option(ps, o, c, spelled)) || ps->stopped)
				return err;
			continue;
		}
		o = find_letter(letter);
		if (!o) {
			complain("%s: invalid option -- '%c' (see '%s -h')\n", progname, letter, progname);
			return EINVAL;
		}
		snprintf(spelled, sizeof(spelled), "-%c", letter);
		if ((err = parse_option(ps, o, c, spelled)) || ps->stopped)
			return err;
	}
	return 0;
}

static int add_job(struct parse_state *ps, const char *device)
{
	struct job *j = realloc(ps->jobs, (size_t)(ps->njobs + 1) * sizeof(*ps->jobs));

	if (!j) {
		complain_errno("realloc");
		return ENOMEM;
	}
	ps->jobs = j;
	j = &ps->jobs[ps->njobs++];
	j->device = device;
	j->s = ps->s;
	j->s.defaults = ps->actions == 0 || ps->s.v[OPT_DEFAULTS].given;
	return 0;
}

/* --apply-config, --check-config, --idle-spindown-config: devices are optional, the file's blocks name them. */
static bool config_given(const struct settings *s)
{
	return s->v[OPT_APPLY_CONFIG].given || s->v[OPT_CHECK_CONFIG].given || s->v[OPT_IDLE_CONFIG].given;
}

/* Options whose devices are optional: the configuration's, and --metrics (every disk). */
static bool devices_optional(const struct settings *s)
{
	return config_given(s) || s->v[OPT_METRICS].given ||
	       (s->v[OPT_METRICS_FILE].given && !s->v[OPT_IDLE_SPINDOWN].given);
}

/* The modifiers of the timed reads, each with the option it modifies. */
static int check_read_modifiers(const struct settings *s)
{
	if ((s->v[OPT_IODEPTH].given || s->v[OPT_BLOCK_SIZE].given) && !s->v[OPT_TIMINGS].given && !s->v[OPT_SEEKS].given) {
		complain("--iodepth and --block-size go with -t or --seeks\n");
		return EINVAL;
	}
	if ((s->v[OPT_SCAN_RANGE].given || s->v[OPT_SCAN_ERRORS_MAX].given) && !s->v[OPT_SURFACE_SCAN].given) {
		complain("--scan-range and --scan-errors-max go with --surface-scan\n");
		return EINVAL;
	}
	if (s->v[OPT_SCAN_DEPTH].given && !s->v[OPT_SURFACE_SCAN].given) {
		complain("--scan-depth goes with --surface-scan\n");
		return EINVAL;
	}
	if ((s->v[OPT_SCAN_VERIFY].given || s->v[OPT_SCAN_REPAIR].given) && !s->v[OPT_SURFACE_SCAN].given) {
		complain("%s goes with --surface-scan\n", s->v[OPT_SCAN_VERIFY].given ? "--scan-verify" : "--scan-repair");
		return EINVAL;
	}
	return 0;
}

/*
 * --scan-map and --scan-picture FILE: with --surface-scan, of one disk, a
 * name where the file can be made (looked at again when it is opened).
 */
static int check_scan_files(const struct parse_state *ps)
{
	const struct opt_value *map = &ps->s.v[OPT_SCAN_MAP], *picture = &ps->s.v[OPT_SCAN_PICTURE];
	int err = 0;

	if ((map->given || picture->given) && !ps->s.v[OPT_SURFACE_SCAN].given) {
		complain("%s goes with --surface-scan\n", map->given ? "--scan-map" : "--scan-picture");
		return EINVAL;
	}
	if (map->given && ps->njobs > 1) {
		complain("--scan-map %s: one map for %d disks; scan them one at a time, each with its own map\n", map->str,
			 ps->njobs);
		return EINVAL;
	}
	if (picture->given && ps->njobs > 1) {
		complain("--scan-picture %s: one picture for %d disks: scan them one at a time\n", picture->str, ps->njobs);
		return EINVAL;
	}
	/* A repair writes: many disks would need their confirmation and in-use checks at the gate, not built yet. */
	if (ps->s.v[OPT_SCAN_REPAIR].given && ps->njobs > 1) {
		complain("--scan-repair: repairs one disk at a time (%d named)\n", ps->njobs);
		return EINVAL;
	}
	/* The picture, written last, would replace the map (a day's scan) with itself. */
	if (map->given && picture->given && file_same(map->str, picture->str)) {
		complain("--scan-map %s and --scan-picture %s name the same file: refused, nothing was sent\n", map->str,
			 picture->str);
		return EINVAL;
	}
	if (map->given)
		err = file_check_writable("--scan-map", map->str, false);
	if (!err && picture->given)
		err = scan_picture_path_check(picture->str);
	return err;
}

static int parse_command_line(struct parse_state *ps, int argc, char **argv)
{
	struct cursor c = { .next = argv + 1, .left = argc - 1 };
	bool options_done = false;
	int err;

	settings_name_values(&ps->s);
	ps->noisy = true;
	while (c.left > 0) {
		const char *word = *c.next++;

		c.left--;
		if (options_done || word[0] != '-') {
			if ((err = add_job(ps, word)))
				return err;
			continue;
		}
		if (strcmp(word, "--") == 0) {
			options_done = true;
			continue;
		}
		c.p = word + 1;
		if ((err = parse_word(ps, &c)) || ps->stopped)
			return err;
		if (c.left == 0 && !ps->istdin && !devices_optional(&ps->s)) {
			complain("%s: no device given after %s\n", progname, word);
			return EINVAL;
		}
	}
	if (ps->istdin && ps->njobs) {
		complain("--Istdin: takes no device\n");
		return EINVAL;
	}
	if ((err = check_read_modifiers(&ps->s)))
		return err;
	if ((err = check_scan_files(ps)))
		return err;
	/* The blocks are read back where an erase is waited for: a format, a security erase, a sanitize's wait. */
	if (ps->s.v[OPT_ERASE_VERIFY].given && !ps->s.v[OPT_FORMAT_ERASE].given && !ps->s.v[OPT_SANITIZE_WAIT].given &&
	    !ps->s.v[OPT_SECURITY_ERASE].given && !ps->s.v[OPT_SECURITY_ERASE_ENHANCED].given &&
	    !ps->s.v[OPT_TCG_PSID_REVERT].given) {
		complain("--erase-verify goes with --format-erase, --security-erase, --tcg-psid-revert or --sanitize-wait\n");
		return EINVAL;
	}
	if (ps->s.v[OPT_ERASE_RECORD].given && !settings_recorded(&ps->s)) {
		complain("--erase-record goes with an erase (--sanitize-*, --format-erase, --security-erase, --tcg-psid-revert),"
			 " --sanitize-wait, or a format (--set-sector-size, --format-wait)\n");
		return EINVAL;
	}
	if (ps->run.why && !ps->s.v[OPT_IDLE_SPINDOWN].given && !ps->s.v[OPT_IDLE_CONFIG].given) {
		complain("--why goes with --idle-spindown or --idle-spindown-config\n");
		return EINVAL;
	}
	if (ps->run.settings_only && !ps->s.v[OPT_APPLY_CONFIG].given) {
		complain("--settings-only goes with --apply-config\n");
		return EINVAL;
	}
	if (ps->s.v[OPT_ERASE_OPERATOR].given && !ps->s.v[OPT_ERASE_RECORD].given) {
		complain("--erase-operator goes with --erase-record\n");
		return EINVAL;
	}
	if (ps->s.v[OPT_CONTINUE_ON_REFUSAL].given && !settings_together(&ps->s)) {
		complain("--continue-on-refusal goes with an erase, a format or a surface scan of many disks\n");
		return EINVAL;
	}
	if (ps->s.v[OPT_ERASE_RECORD].given && ps->njobs > 1 && !erase_record_to_many(ps->s.v[OPT_ERASE_RECORD].str)) {
		complain("--erase-record %s: one file for %d disks; give a folder (ending in /) or -\n",
			 ps->s.v[OPT_ERASE_RECORD].str, ps->njobs);
		return EINVAL;
	}
	if (ps->s.v[OPT_ERASE_RECORD].given && strcmp(ps->s.v[OPT_ERASE_RECORD].str, "-") == 0 && ps->run.json) {
		complain("--erase-record -: standard output already carries the --json document\n");
		return EINVAL;
	}
	if ((err = erase_record_path_check(&ps->s)))
		return err;
	if ((ps->s.v[OPT_PROTECTION_INFO].given || ps->s.v[OPT_LBAF].given) && !ps->s.v[OPT_SET_SECTOR_SIZE].given) {
		complain("--protection-info and --lbaf go with --set-sector-size\n");
		return EINVAL;
	}
	if (ps->s.v[OPT_FORMAT_WAIT].given && ps->actions > 1 && !ps->s.v[OPT_SET_SECTOR_SIZE].given) {
		complain("--format-wait: must be the only option, or follow --set-sector-size\n");
		return EINVAL;
	}
	/* A format of many disks runs them together; its wait is part of it. */
	if (ps->sole && ps->sole->id == OPT_SET_SECTOR_SIZE && ps->s.v[OPT_FORMAT_WAIT].given)
		ps->actions--;
	if ((ps->s.v[OPT_FW_SLOT].given || ps->s.v[OPT_FW_ACTIVATE_NOW].given) && !ps->s.v[OPT_FWDOWNLOAD].given) {
		complain("--fw-slot and --fw-activate-now go with --fwdownload\n");
		return EINVAL;
	}
	/* Many disks of a format or a firmware download run together: each checked before any is sent a command. */
	if (ps->sole && (ps->actions > 1 || (ps->njobs > 1 && ps->sole->together == ONE_BY_ONE))) {
		complain("--%s: must be the only option, for a single device\n", ps->sole->name);
		return EINVAL;
	}
	return 0;
}

/* The option the command line stopped at: help, version, or a file helper. */
static int run_at_once(const struct parse_state *ps)
{
	switch (ps->immediate) {
	case OPT_HELP:
		usage(stdout);
		return 0;
	case OPT_VERSION:
		out("%s %s\n", progname, HDPARM_VERSION);
		return 0;
	case OPT_SECURITY_HELP:
		security_help(stdout);
		return 0;
	default:
		return run_file_option(ps->immediate, &ps->s);
	}
}

static int identify_from_stdin(bool json)
{
	uint16_t id[IDENTIFY_WORDS];
	int n = identify_read_hex(stdin, id);
	char why[128];

	if (n < IDENTIFY_WORDS) {
		snprintf(why, sizeof(why), "read only %d/256 IDENTIFY words from stdin: %s", n,
			 ferror(stdin) ? strerror(errno) : "not enough hex words");
		complain("%s\n", why);
		return EIO;
	}
	if (json) {
		json_object_begin(NULL);
		json_string("name", "stdin");
		identify_json(id);
		json_object_end();
		return (id[ATA_ID_CONFIG] & 0xc000) == 0xc000 && !(id[ATA_ID_CONFIG] == 0x848a || id[ATA_ID_CONFIG] == 0x844a) ? EINVAL : 0;
	}
	out_char('\n');
	return identify_print(id, NULL);
}

static void start_json_if_asked(int argc, char **argv, struct run_flags *run)
{
	bool asked = false;

	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcasecmp(argv[i], "--json") == 0)
			asked = true;
	if (!asked)
		return;
	run->json = true;
	/* What the parser complains of goes to the document's top-level "errors". */
	report_use_json(true);
	json_start(stdout, HDPARM_VERSION);
}

int check_command_line(int argc, char **argv)
{
	struct parse_state ps;
	int err;

	memset(&ps, 0, sizeof(ps));
	err = parse_command_line(&ps, argc, argv);
	free(ps.s.ranges);
	free(ps.jobs);
	return err;
}

/* --idle-spindown SECONDS DEVICE...: every device of the command line, watched by one process. */
static int run_idle_spindown(const struct parse_state *ps)
{
	const char **paths = calloc((size_t)ps->njobs, sizeof(*paths));
	unsigned int *seconds = calloc((size_t)ps->njobs, sizeof(*seconds));
	int status = ENOMEM;

	if (paths && seconds) {
		for (int i = 0; i < ps->njobs; i++) {
			paths[i] = ps->jobs[i].device;
			seconds[i] = (unsigned int)ps->jobs[0].s.v[OPT_IDLE_SPINDOWN].num;
		}
		status = idle_spindown(seconds, paths, ps->njobs, &ps->run, false);
	}
	free(paths);
	free(seconds);
	return status;
}

/* --metrics or --metrics-file ruling the run (--idle-spindown's --metrics-file does not). */
static bool metrics_asked(const struct parse_state *ps)
{
	return ps->alone && (ps->alone->id == OPT_METRICS || ps->alone->id == OPT_METRICS_FILE);
}

/*
 * The configuration's settings for the devices named (or every disk its
 * blocks name): checked, applied, or watched for idleness.  A file that
 * does not parse sends nothing: 2 for a check (its 0 and 1 are answers), EINVAL otherwise.
 */
static int run_config(const struct parse_state *ps)
{
	enum opt_id opt = ps->s.v[OPT_CHECK_CONFIG].given ? OPT_CHECK_CONFIG
			  : ps->s.v[OPT_APPLY_CONFIG].given ? OPT_APPLY_CONFIG : OPT_IDLE_CONFIG;
	const char *file = ps->s.v[opt].str;
	char **devices = calloc((size_t)ps->njobs + 1, sizeof(*devices));
	struct config_file cf;
	struct config_list l;
	char err[600] = "";
	int status;

	if (!devices)
		return ENOMEM;
	for (int i = 0; i < ps->njobs; i++)
		devices[i] = (char *)ps->jobs[i].device;
	status = config_load(file, &cf, err, sizeof(err));
	if (!status)
		status = config_jobs(&cf, devices, ps->njobs, opt == OPT_IDLE_CONFIG, &l, err, sizeof(err));
	if (status) {
		complain("%s\n", err);
		config_free(&cf);
		free(devices);
		return opt == OPT_CHECK_CONFIG ? 2 : status;
	}
	if (metrics_asked(ps))
		status = run_metrics_config(l.jobs, l.n, &ps->run,
					    ps->s.v[OPT_METRICS_FILE].given ? ps->s.v[OPT_METRICS_FILE].str : NULL);
	else if (opt == OPT_IDLE_CONFIG)
		status = idle_spindown_config(l.jobs, l.n, &ps->run);
	else
		status = config_run(l.jobs, l.n, opt == OPT_CHECK_CONFIG, file, &ps->run);
	config_jobs_free(&l);
	config_free(&cf);
	free(devices);
	return status;
}

/* --metrics or --metrics-file FILE [DEV...]: the devices named, or (none) every disk. */
static int run_metrics_of(const struct parse_state *ps)
{
	const char *file = ps->s.v[OPT_METRICS_FILE].given ? ps->s.v[OPT_METRICS_FILE].str : NULL;
	const char **paths;
	int status;

	/* --metrics --check-config: the configuration's disks (those named, or its blocks'), with their drift. */
	if (ps->s.v[OPT_CHECK_CONFIG].given)
		return run_config(ps);
	if (!(paths = calloc((size_t)ps->njobs + 1, sizeof(*paths))))
		return ENOMEM;
	for (int i = 0; i < ps->njobs; i++)
		paths[i] = ps->jobs[i].device;
	status = run_metrics(paths, ps->njobs, &ps->run, file);
	free(paths);
	return status;
}

/*
 * --tcg-psid-revert - (or no PSID): read once, before any disk is opened,
 * for every disk named; given or read, the PSID is held (psid.h).
 */
static int read_psid(struct parse_state *ps)
{
	struct opt_value *v = &ps->s.v[OPT_TCG_PSID_REVERT];
	const char *psid;

	if (!v->given)
		return 0;
	if (!(psid = psid_read(v->name, v->str)))
		return EINVAL;
	for (int i = 0; i < ps->njobs; i++)
		ps->jobs[i].s.v[OPT_TCG_PSID_REVERT].str = psid;
	return 0;
}

/* What main() returns, for check_stdout(). */
static int exit_status;
/* The signals blocked when hdparm started: a run that holds the stop signals (run/together.c) gets this back at exit. */
static sigset_t mask_at_start;

/*
 * Run at exit, after the JSON document is written (registered before it):
 * a run whose output was lost (a full disk, a closed pipe) must not exit 0
 * as if a script's file held it all; it is said even where the run failed
 * too (its own exit status, which says why, stays).  Then a stop signal
 * held until the output was out (a run of many disks) acts.
 */
static void check_stdout(void)
{
	int err = report_stdout_error();

	if (err)
		fprintf(stderr, "%s: standard output: %s\n", progname, strerror(err));
	sigprocmask(SIG_SETMASK, &mask_at_start, NULL);
	if (err && !exit_status)
		_exit(err < 256 ? err : EIO);
}

/*
 * A run that changes a disk goes to its end when the reader of its
 * standard output went away (`| head -1`): the erase already sent, its
 * record still written; the lost output is said at exit.  A query dies of
 * SIGPIPE as 9.65 does.
 */
static void keep_going_without_reader(const struct parse_state *ps)
{
	for (int i = 0; i < ps->njobs; i++)
		if (carries_dangerous_option(&ps->jobs[i].s)) {
			signal(SIGPIPE, SIG_IGN);
			return;
		}
}

static int run_command(int argc, char **argv)
{
	struct parse_state ps;
	int status = 0;
	const char *slash = strrchr(argv[0], '/');

	progname = slash ? slash + 1 : argv[0];
	/*
	 * Line by line even into a pipe, so that a log of stdout and stderr
	 * together reads in the order things happened.
	 */
	setvbuf(stdout, NULL, _IOLBF, BUFSIZ);
	atexit(check_stdout);
	if (argc < 2) {
		usage(stderr);
		return EINVAL;
	}
	memset(&ps, 0, sizeof(ps));
	start_json_if_asked(argc, argv, &ps.run);
	status = parse_command_line(&ps, argc, argv);
	if (status || ps.stopped) {
		if (!status)
			status = run_at_once(&ps);
		free(ps.s.ranges);
		free(ps.jobs);
		return status;
	}
	if (ps.istdin) {
		free(ps.jobs);
		return identify_from_stdin(ps.run.json);
	}
	if ((status = read_psid(&ps))) {
		free(ps.s.ranges);
		free(ps.jobs);
		return status;
	}
	if (metrics_asked(&ps)) {
		status = run_metrics_of(&ps);
		free(ps.s.ranges);
		free(ps.jobs);
		return status;
	}
	if (config_given(&ps.s)) {
		status = run_config(&ps);
		free(ps.s.ranges);
		free(ps.jobs);
		return status;
	}
	keep_going_without_reader(&ps);
	if (ps.njobs && ps.jobs[0].s.v[OPT_IDLE_SPINDOWN].given) {
		status = run_idle_spindown(&ps);
		free(ps.s.ranges);
		free(ps.jobs);
		return status;
	}
	if (jobs_erase_together(ps.jobs, ps.njobs)) {
		status = run_jobs_together(ps.jobs, ps.njobs, &ps.run);
		free(ps.s.ranges);
		free(ps.jobs);
		return status;
	}
	for (int i = 0; i < ps.njobs; i++) {
		bool refused = false;
		int err = process_device(ps.jobs[i].device, &ps.jobs[i].s, &ps.run, NULL, &refused);

		if (err)
			status = err;
		/*
		 * "Program aborted." means what it says: no later device is
		 * touched.  Where a dangerous command failed, 9.65 exited too;
		 * a run that only queries goes on to the next device.  A signal
		 * that ended a long operation (a scan, a wait) ends the run.
		 */
		if (refused || err == EINTR || (err && carries_dangerous_option(&ps.jobs[i].s)))
			break;
	}
	fflush(stdout);
	free(ps.s.ranges);
	free(ps.jobs);
	return status;
}

int main(int argc, char **argv)
{
	if (!std_streams_open())
		return EBADF;
	sigprocmask(SIG_SETMASK, NULL, &mask_at_start);
	/* A file past the size limit (ulimit -f) is a write that fails with EFBIG, said, not a death by SIGXFSZ. */
	signal(SIGXFSZ, SIG_IGN);
	exit_status = run_command(argc, argv);
	/*
	 * The JSON document is written at exit: a stop signal from here on
	 * waits until it is out, then acts (check_stdout()), as one that came
	 * while a run of many disks wrote its report does.
	 */
	std_streams_hold_stops();
	return exit_status;
}
