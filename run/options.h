/*
 * The option table: how each option is spelled, parsed, listed and
 * confirmed, its /etc/hdparm.conf key, and the steps it runs.
 */
#ifndef HDPARM_OPTIONS_H
#define HDPARM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "commands.h"
#include "values.h"

/* --apply-config's file when none is named; a packager may move it (CPPFLAGS=-DHDPARM_CONFIG=...). */
#ifndef HDPARM_CONFIG
#define HDPARM_CONFIG "/etc/hdparm.conf"
#endif

enum arg_kind {
	ARG_NONE,		/* -C, -I, --idle-immediate */
	ARG_OPTIONAL_NUM,	/* -a [N]: query, or set when digits follow */
	ARG_OPTIONAL_PAIR,	/* --erc [N[,M]]: query, or set both (M: the second; N alone: both the same) */
	ARG_NUM,		/* -S N: a value is required */
	ARG_XFERMODE,		/* -X udma5 | 69 */
	ARG_MAX_SECTORS,	/* -N [p]N */
	ARG_U64,		/* --read-sector LBA */
	ARG_FLAGGED_U64,	/* --make-bad-sector [f]LBA */
	ARG_FILE,		/* --Iraw FILE */
	ARG_PASSWORD,		/* --security-unlock PASSWD */
	ARG_PSID,		/* --tcg-psid-revert PSID: the next word, as given (at most 32 bytes) */
	ARG_LETTER,		/* --security-mode h|m */
	ARG_PATTERN,		/* --sanitize-overwrite hex:XXXXXXXX */
	ARG_RANGES,		/* --trim-sector-ranges LBA:COUNT ... */
	ARG_SIZE_FILE,		/* --fallocate KB FILE */
	ARG_WORD,		/* --format-erase user|crypto: one of the row's words */
	ARG_WORD_SECONDS,	/* --epc-timer idle_a=SECONDS: one of the row's words, and a time */
	ARG_LBA_RANGE,		/* --scan-range FIRST-LAST | FIRST+COUNT: num the first LBA, num2 the last */
	ARG_DECIMAL_U64,	/* --scan-errors-max N: decimal digits only, as --scan-range reads its LBAs */
	ARG_CONFIG,		/* --apply-config [FILE]: the next word, unless it is a device (/dev/...) or an option */
};

enum opt_class {
	CLASS_ACTION,		/* does something to the device */
	CLASS_MODIFIER,		/* changes how actions behave: not an action itself */
	CLASS_ALONE,		/* only modifiers may come before it, no option after it */
	CLASS_SOLE,		/* the only action, for one device */
};

/* What a dangerous option needs before anything is sent (a row's .confirm). */
enum confirm_needs {
	NEED_YES = 1,		/* --yes-i-know-what-i-am-doing */
	NEED_DESTROY = 2,	/* --please-destroy-my-drive */
	/*
	 * No flag asked before the run, but dangerous all the same (a run that
	 * carries it stops at a failure): -N and --dco-setmax confirm in their
	 * step, and 9.65 asked no flag for the security commands.
	 */
	NEED_IN_STEP = 4,
};

/* Which uses of the option are dangerous. */
enum confirm_form {
	ANY_FORM,		/* every use */
	SET_FORM,		/* with a value (-J 30, not -J) */
	NONZERO_VALUE,		/* with a value other than 0 (-s1) */
};

struct confirmation {
	unsigned int needs;	/* enum confirm_needs bits; 0: not dangerous */
	enum confirm_form form;
	const char *label;	/* the option as the warning names it */
	const char *why;	/* the warning shown when a flag is missing */
	const char *why_destroy;	/* for --please-destroy-my-drive, when not the same */
	bool whole_disk;	/* it erases the whole disk: refused on a partition, or while the kernel holds any disk it reaches */
	/* Beyond the disk named, it reaches what the disk's kind says a sanitize or a format reaches (an NVMe subsystem). */
	enum erase_reach { REACHES_NAMED, REACHES_AS_SANITIZE, REACHES_AS_FORMAT } reaches;
	bool writes_medium;	/* it writes the medium by pass-through: refused through a volume or an NVMe controller node */
};

/* How /etc/hdparm.conf gives the option (a row's .config): Debian's key and the form of its value. */
enum config_form {
	KEY_NONE,		/* not a key of the file */
	KEY_NUMBER,		/* a number within the option's range */
	KEY_ON_OFF,		/* on, off, 1 or 0 */
	KEY_BARE,		/* a word alone: standby, quiet */
	KEY_OPTION_VALUE,	/* anything the option takes on the command line: udma5, 70,70, idle_a=60 */
};

struct config_key_spec {
	const char *key;	/* on mains power, or always when there is no battery_key */
	enum config_form form;
	const char *battery_key;	/* on battery power (apm_battery) */
};

/* Many disks in one command are checked all before any is sent a command (run/together.c). */
enum together {
	ONE_BY_ONE,		/* each disk in turn */
	TOGETHER_ERASE,		/* an erase, or the wait for one: also what an erase record tells of */
	TOGETHER_FORMAT,	/* a format (not an erase: recorded, but nothing read back) */
	TOGETHER_FIRMWARE,	/* a firmware download: no record */
	TOGETHER_SCAN,		/* a surface scan: reads only, no record */
	TOGETHER_SELF_TEST,	/* the drives' own self-tests, or the wait for them: no record */
	TOGETHER_CONDITION,	/* --condition: reads only, no record, no status lines; the worst verdict is the run's */
};

enum when {
	WHEN_GIVEN,		/* the option appeared */
	WHEN_SET,		/* the option came with a value */
	WHEN_QUERY,		/* the option appeared without -q before it (or -v's set) */
	WHEN_NOISY,		/* the option appeared without -q before it */
};

/*
 * Where a step runs (a step's .at): hdparm 9.65 runs every "set" first,
 * then every query, then timings and power commands, whatever the order on
 * the command line, and scripts depend on the order of the output lines.
 * The runner sorts every row's steps by .at; no two share one.  A new step
 * takes a free number between the two it runs between.
 */
enum { IN_SETTINGS = 1000, IN_QUERIES = 2000, IN_LAST = 3000 };

/* One of an option's steps: its work in one phase (run/actions.c runs them). */
struct step {
	int at;			/* its place in 9.65's order */
	enum when when;
	bool in_defaults;	/* part of the default query set (-v, or no option) */
	step_fn *run;
	bool ata_only;		/* an ATA command, refused on other disks */
	enum { HINT_NONE, HINT_ERASE, HINT_POWER } hint;	/* refused on a disk: what it has instead */
	step_fn *check;		/* an erase: the disk's refusal, nothing sent (many disks check all first) */
	/* One of an option's steps by kind (--set-sector-size: ATA's command, the others' format): skipped on the rest. */
	enum { ALL_KINDS, ATA_KIND, OTHER_KINDS } for_kind;
	bool once;		/* a set the disk could not do said why: its option's query, which would say it again, is left out */
};

/* The most steps an option has: a set and its query, or one step for ATA and one for the other kinds. */
#define OPTION_STEPS 2

struct option_desc {
	enum opt_id id;
	char letter;		/* short form, or 0 */
	const char *name;	/* long form (without "--"), or NULL */
	enum arg_kind arg;
	uint64_t min, max;
	const char *what;	/* names the value in error messages */
	enum opt_class cls;
	const char *usage;	/* its line in "hdparm -h", NULL when not listed there */
	const char *letters;	/* ARG_LETTER: the accepted first letters */
	const char *const *words;	/* ARG_WORD: the accepted words, NULL-terminated */
	bool save_suffix;	/* ARG_WORD(_SECONDS): ",save" may follow (v->flag) */
	struct confirmation confirm;
	struct config_key_spec config;	/* its key in /etc/hdparm.conf (cli/config_keys.c), if any */
	enum together together;
	struct step steps[OPTION_STEPS];	/* what it does, and when; .run NULL: none (a modifier) */
};

extern const struct option_desc option_table[];
extern const size_t option_count;

/* The option's row of the table. */
const struct option_desc *option_desc(enum opt_id opt);

/* How the option is spelled on the command line: "-S", "--read-sector". */
const char *option_name(enum opt_id opt);

/* Each value carries its option's name, so that the steps name it without the table. */
void settings_name_values(struct settings *s);

/* An option that erases a disk, or waits for its erase, was given: the run an erase record tells of. */
bool settings_erase(const struct settings *s);

/* What many disks do at once, each checked before any is sent a command: an erase, or a format. */
bool settings_together(const struct settings *s);

/* An erase or a format was given: what --erase-record writes of. */
bool settings_recorded(const struct settings *s);

/* The settings ask for an option that runs many disks together as kind does. */
bool settings_together_as(const struct settings *s, enum together kind);

#endif
