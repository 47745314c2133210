/* The parsed command line: one value slot per option. */
#ifndef HDPARM_OPTIONS_H
#define HDPARM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Every option hdparm knows; the table in options.c describes each one. */
enum opt_id {
	OPT_READAHEAD, OPT_LOOKAHEAD, OPT_BUSSTATE, OPT_APM, OPT_IO32BIT, OPT_POWERMODE,
	OPT_DMA, OPT_DEFECTS, OPT_CDROMSPEED, OPT_FLUSH_BUFFERS, OPT_FLUSH_WCACHE, OPT_GEOMETRY,
	OPT_HELP, OPT_HITACHI_TEMP, OPT_IDENTITY, OPT_IDENTIFY, OPT_WDIDLE3, OPT_KEEP,
	OPT_DRIVE_KEEP, OPT_DOORLOCK, OPT_MULTCOUNT, OPT_ACOUSTIC, OPT_NOWERR, OPT_MAX_SECTORS,
	OPT_PIOMODE, OPT_PREFETCH, OPT_QUIET, OPT_QUEUE_DEPTH, OPT_READONLY, OPT_WRV,
	OPT_POWERUP_STANDBY, OPT_STANDBY, OPT_TIMINGS, OPT_CACHE_TIMINGS, OPT_UNMASK,
	OPT_OBSOLETE_U, OPT_DEFAULTS, OPT_VERSION, OPT_RESET, OPT_WCACHE, OPT_OBSOLETE_X,
	OPT_XFERMODE, OPT_STANDBY_NOW, OPT_SLEEP_NOW, OPT_REREAD_PARTITIONS, OPT_SEAGATE,
	OPT_DCO_FREEZE, OPT_DCO_IDENTIFY, OPT_DCO_RESTORE, OPT_DCO_SETMAX, OPT_DIRECT,
	OPT_DRQ_HSM_ERROR, OPT_FALLOCATE, OPT_FIBMAP, OPT_FWDOWNLOAD, OPT_FWDOWNLOAD_MODE3,
	OPT_FWDOWNLOAD_MODE3_MAX, OPT_FWDOWNLOAD_MODE7, OPT_FWDOWNLOAD_MODEE,
	OPT_FWDOWNLOAD_MODEE_MAX, OPT_IDLE_IMMEDIATE, OPT_IDLE_UNLOAD, OPT_IRAW, OPT_ISTDIN,
	OPT_ISTDOUT, OPT_MAKE_BAD_SECTOR, OPT_OFFSET, OPT_PREFER_ATA12, OPT_READ_SECTOR,
	OPT_REPAIR_SECTOR, OPT_SANITIZE_ANTIFREEZE, OPT_SANITIZE_BLOCK_ERASE,
	OPT_SANITIZE_CRYPTO, OPT_SANITIZE_FREEZE, OPT_SANITIZE_OVERWRITE,
	OPT_SANITIZE_PASSES, OPT_SANITIZE_STATUS, OPT_SECURITY_HELP, OPT_SET_SECTOR_SIZE,
	OPT_TRIM_RANGES, OPT_TRIM_STDIN, OPT_VERBOSE, OPT_WRITE_SECTOR,
	OPT_SECURITY_FREEZE, OPT_SECURITY_UNLOCK, OPT_SECURITY_SET_PASS,
	OPT_SECURITY_DISABLE, OPT_SECURITY_ERASE, OPT_SECURITY_ERASE_ENHANCED,
	OPT_SECURITY_MODE, OPT_USER_MASTER, OPT_SECURITY_PROMPT, OPT_YES_I_KNOW,
	OPT_PLEASE_DESTROY, OPT_JSON, OPT_IODEPTH, OPT_BLOCK_SIZE, OPT_SEEKS, OPT_SANITIZE_WAIT,
	OPT_COUNT
};

struct sector_range {
	uint64_t lba;
	uint64_t count;
};

/* What the command line said about one option. */
struct opt_value {
	bool given;		/* it appeared */
	bool noisy;		/* not silenced by a -q just before it */
	bool has_value;		/* a value came with it (the "set" form) */
	bool flag;		/* -N's 'p', --make-bad-sector's 'f' */
	uint64_t num;
	const char *str;	/* file name, password, mode letter */
};

/* Everything that applies to one device: options accumulate left to right. */
struct settings {
	struct opt_value v[OPT_COUNT];
	bool defaults;		/* no option before the first device: the -v query set */
	bool quiet;		/* a -q was seen: no device header */
	struct sector_range *ranges;
	unsigned int nranges;
};

enum arg_kind {
	ARG_NONE,		/* -C, -I, --idle-immediate */
	ARG_OPTIONAL_NUM,	/* -a [N]: query, or set when digits follow */
	ARG_NUM,		/* -S N: a value is required */
	ARG_XFERMODE,		/* -X udma5 | 69 */
	ARG_MAX_SECTORS,	/* -N [p]N */
	ARG_U64,		/* --read-sector LBA */
	ARG_FLAGGED_U64,	/* --make-bad-sector [f]LBA */
	ARG_FILE,		/* --Iraw FILE */
	ARG_PASSWORD,		/* --security-unlock PASSWD */
	ARG_LETTER,		/* --security-mode h|m */
	ARG_PATTERN,		/* --sanitize-overwrite hex:XXXXXXXX */
	ARG_RANGES,		/* --trim-sector-ranges LBA:COUNT ... */
	ARG_SIZE_FILE,		/* --fallocate KB FILE */
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
};

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
	struct confirmation confirm;
};

extern const struct option_desc option_table[];
extern const size_t option_count;

/* The option's row of the table. */
const struct option_desc *option_desc(enum opt_id opt);

/* How the option is spelled on the command line: "-S", "--read-sector". */
const char *option_name(enum opt_id opt);

#endif
