/*
 * hdparm: the command line.  One table describes every option: its
 * spelling, what kind of value it takes and the range, the message used
 * when the value is bad, and its line in the usage text.  The command line
 * is parsed whole before any device is opened, so a bad option never
 * leaves a command half sent; each device then gets the options given
 * before it (they accumulate left to right, as in hdparm 9.65), run in
 * the fixed order of the step table in actions.c.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "array.h"
#include "actions.h"
#include "hdparm.h"
#include "identify.h"
#include "json.h"
#include "modes.h"
#include "options.h"
#include "cmdline.h"
#include "report.h"

struct run_flags run;

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
};

#define LBA48_MAX ((1ULL << 48) - 1)

static const struct option_desc options[] = {
	{ OPT_READAHEAD, 'a', NULL, ARG_OPTIONAL_NUM, 0, 2048, "filesystem-read-ahead", CLASS_ACTION, "-a   Get/set fs readahead", NULL },
	{ OPT_LOOKAHEAD, 'A', NULL, ARG_OPTIONAL_NUM, 0, 1, "look-ahead", CLASS_ACTION, "-A   Get/set the drive look-ahead flag (0/1)", NULL },
	{ OPT_BUSSTATE, 'b', NULL, ARG_OPTIONAL_NUM, 0, 2, "bus-state", CLASS_ACTION, "-b   Get/set bus state (0 == off, 1 == on, 2 == tristate)", NULL },
	{ OPT_APM, 'B', NULL, ARG_OPTIONAL_NUM, 1, 255, "power-management-mode", CLASS_ACTION, "-B   Set Advanced Power Management setting (1-255)", NULL },
	{ OPT_IO32BIT, 'c', NULL, ARG_OPTIONAL_NUM, 0, 3, "32-bit-IO", CLASS_ACTION, "-c   Get/set IDE 32-bit IO setting", NULL },
	{ OPT_POWERMODE, 'C', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-C   Check drive power mode status", NULL },
	{ OPT_DMA, 'd', NULL, ARG_OPTIONAL_NUM, 0, 1, "dma-enable", CLASS_ACTION, "-d   Get/set using_dma flag", NULL },
	{ OPT_DEFECTS, 'D', NULL, ARG_NUM, 0, 1, "defects-management", CLASS_ACTION, "-D   Enable/disable drive defect management", NULL },
	{ OPT_CDROMSPEED, 'E', NULL, ARG_NUM, 0, 255, "CDROM/DVD-speed", CLASS_ACTION, "-E   Set cd/dvd drive speed", NULL },
	{ OPT_FLUSH_BUFFERS, 'f', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-f   Flush buffer cache for device on exit", NULL },
	{ OPT_FLUSH_WCACHE, 'F', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-F   Flush drive write cache", NULL },
	{ OPT_GEOMETRY, 'g', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-g   Display drive geometry", NULL },
	{ OPT_HELP, 'h', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-h   Display terse usage information", NULL },
	{ OPT_HITACHI_TEMP, 'H', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-H   Read temperature from drive (Hitachi only)", NULL },
	{ OPT_IDENTITY, 'i', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-i   Display drive identification", NULL },
	{ OPT_IDENTIFY, 'I', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-I   Detailed/current information directly from drive", NULL },
	{ OPT_WDIDLE3, 'J', NULL, ARG_OPTIONAL_NUM, 0, 300, "WDC-idle3-timeout", CLASS_ACTION, "-J   Get/set Western DIgital \"Idle3\" timeout for a WDC \"Green\" drive (DANGEROUS)", NULL },
	{ OPT_KEEP, 'k', NULL, ARG_OPTIONAL_NUM, 0, 1, "kernel-keep-settings", CLASS_ACTION, "-k   Get/set keep_settings_over_reset flag (0/1)", NULL },
	{ OPT_DRIVE_KEEP, 'K', NULL, ARG_NUM, 0, 1, "drive-keep-settings", CLASS_ACTION, "-K   Set drive keep_features_over_reset flag (0/1)", NULL },
	{ OPT_DOORLOCK, 'L', NULL, ARG_NUM, 0, 1, "door-lock", CLASS_ACTION, "-L   Set drive doorlock (0/1) (removable harddisks only)", NULL },
	{ OPT_MULTCOUNT, 'm', NULL, ARG_OPTIONAL_NUM, 0, 64, "multmode-count", CLASS_ACTION, "-m   Get/set multiple sector count", NULL },
	{ OPT_ACOUSTIC, 'M', NULL, ARG_OPTIONAL_NUM, 0, 255, "acoustic-management", CLASS_ACTION, "-M   Get/set acoustic management (0-254, 128: quiet, 254: fast)", NULL },
	{ OPT_NOWERR, 'n', NULL, ARG_OPTIONAL_NUM, 0, 1, "ignore-write-errors", CLASS_ACTION, "-n   Get/set ignore-write-errors flag (0/1)", NULL },
	{ OPT_MAX_SECTORS, 'N', NULL, ARG_MAX_SECTORS, 1, LBA48_MAX, "sector", CLASS_ACTION, "-N   Get/set max visible number of sectors (HPA) (VERY DANGEROUS)", NULL },
	{ OPT_PIOMODE, 'p', NULL, ARG_XFERMODE, 0, 255, "PIO-mode", CLASS_ACTION, "-p   Set PIO mode on IDE interface chipset (0,1,2,3,4,...)", NULL },
	{ OPT_PREFETCH, 'P', NULL, ARG_NUM, 0, 255, "prefetch", CLASS_ACTION, "-P   Set drive prefetch count", NULL },
	{ OPT_QUIET, 'q', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-q   Change next setting quietly", NULL },
	{ OPT_QUEUE_DEPTH, 'Q', NULL, ARG_OPTIONAL_NUM, 0, 1024, "queue-depth", CLASS_ACTION, "-Q   Get/set DMA queue_depth (if supported)", NULL },
	{ OPT_READONLY, 'r', NULL, ARG_OPTIONAL_NUM, 0, 1, "read-only", CLASS_ACTION, "-r   Get/set device readonly flag (DANGEROUS to set)", NULL },
	{ OPT_WRV, 'R', NULL, ARG_OPTIONAL_NUM, 0, 3, "write-read-verify", CLASS_ACTION, "-R   Get/set device write-read-verify flag", NULL },
	{ OPT_POWERUP_STANDBY, 's', NULL, ARG_NUM, 0, 1, "powerup-in-standby", CLASS_ACTION, "-s   Set power-up in standby flag (0/1) (DANGEROUS)", NULL },
	{ OPT_STANDBY, 'S', NULL, ARG_NUM, 0, 255, "standby-interval", CLASS_ACTION, "-S   Set standby (spindown) timeout", NULL },
	{ OPT_TIMINGS, 't', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-t   Perform device read timings", NULL },
	{ OPT_CACHE_TIMINGS, 'T', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-T   Perform cache read timings", NULL },
	{ OPT_UNMASK, 'u', NULL, ARG_OPTIONAL_NUM, 0, 1, "unmask-irq", CLASS_ACTION, "-u   Get/set unmaskirq flag (0/1)", NULL },
	{ OPT_OBSOLETE_U, 'U', NULL, ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, "-U   Obsolete", NULL },
	{ OPT_DEFAULTS, 'v', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-v   Use defaults; same as -acdgkmur for IDE drives", NULL },
	{ OPT_VERSION, 'V', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-V   Display program version and exit immediately", NULL },
	{ OPT_RESET, 'w', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-w   Perform device reset (DANGEROUS)", NULL },
	{ OPT_WCACHE, 'W', NULL, ARG_OPTIONAL_NUM, 0, 1, "write-cache", CLASS_ACTION, "-W   Get/set drive write-caching flag (0/1)", NULL },
	{ OPT_OBSOLETE_X, 'x', NULL, ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, "-x   Obsolete", NULL },
	{ OPT_XFERMODE, 'X', NULL, ARG_XFERMODE, 0, 255, "transfer-mode", CLASS_ACTION, "-X   Set IDE xfer mode (DANGEROUS)", NULL },
	{ OPT_STANDBY_NOW, 'y', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-y   Put drive in standby mode", NULL },
	{ OPT_SLEEP_NOW, 'Y', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-Y   Put drive to sleep", NULL },
	{ OPT_REREAD_PARTITIONS, 'z', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-z   Re-read partition table", NULL },
	{ OPT_SEAGATE, 'Z', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-Z   Disable Seagate auto-powersaving mode", NULL },

	{ OPT_DCO_FREEZE, 0, "dco-freeze", ARG_NONE, 0, 0, NULL, CLASS_ACTION, "--dco-freeze      Freeze/lock current device configuration until next power cycle", NULL },
	{ OPT_DCO_IDENTIFY, 0, "dco-identify", ARG_NONE, 0, 0, NULL, CLASS_ACTION, "--dco-identify    Read/dump device configuration identify data", NULL },
	{ OPT_DCO_RESTORE, 0, "dco-restore", ARG_NONE, 0, 0, NULL, CLASS_ALONE, "--dco-restore     Reset device configuration back to factory defaults", NULL },
	{ OPT_DCO_SETMAX, 0, "dco-setmax", ARG_U64, 1, LBA48_MAX, "bad/missing sector value", CLASS_ALONE, "--dco-setmax      Use DCO to set maximum addressable sectors", NULL },
	{ OPT_DIRECT, 0, "direct", ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, "--direct          Use O_DIRECT to bypass page cache for timings", NULL },
	{ OPT_DRQ_HSM_ERROR, 0, "drq-hsm-error", ARG_NONE, 0, 0, NULL, CLASS_ACTION, "--drq-hsm-error   Crash system with a \"stuck DRQ\" error (VERY DANGEROUS)", NULL },
	{ OPT_FALLOCATE, 0, "fallocate", ARG_SIZE_FILE, 0, 1ULL << 53, "bad/missing block-count", CLASS_SOLE, "--fallocate       Create a file without writing data to disk", NULL },
	{ OPT_FIBMAP, 0, "fibmap", ARG_FILE, 0, 0, NULL, CLASS_SOLE, "--fibmap          Show device extents (and fragmentation) for a file", NULL },
	{ OPT_FWDOWNLOAD, 0, "fwdownload", ARG_FILE, 0, 0, NULL, CLASS_SOLE, "--fwdownload            Download firmware file to drive (EXTREMELY DANGEROUS)", NULL },
	{ OPT_FWDOWNLOAD_MODE3, 0, "fwdownload-mode3", ARG_FILE, 0, 0, NULL, CLASS_SOLE, "--fwdownload-mode3      Download firmware using min-size segments (EXTREMELY DANGEROUS)", NULL },
	{ OPT_FWDOWNLOAD_MODE3_MAX, 0, "fwdownload-mode3-max", ARG_FILE, 0, 0, NULL, CLASS_SOLE, "--fwdownload-mode3-max  Download firmware using max-size segments (EXTREMELY DANGEROUS)", NULL },
	{ OPT_FWDOWNLOAD_MODE7, 0, "fwdownload-mode7", ARG_FILE, 0, 0, NULL, CLASS_SOLE, "--fwdownload-mode7      Download firmware using a single segment (EXTREMELY DANGEROUS)", NULL },
	{ OPT_FWDOWNLOAD_MODEE, 0, "fwdownload-modee", ARG_FILE, 0, 0, NULL, CLASS_SOLE, "--fwdownload-modee      Download firmware using mode E (min-size segments) (EXTREMELY DANGEROUS)", NULL },
	{ OPT_FWDOWNLOAD_MODEE_MAX, 0, "fwdownload-modee-max", ARG_FILE, 0, 0, NULL, CLASS_SOLE, "--fwdownload-modee-max  Download firmware using mode E (max-size segments) (EXTREMELY DANGEROUS)", NULL },
	{ OPT_IDLE_IMMEDIATE, 0, "idle-immediate", ARG_NONE, 0, 0, NULL, CLASS_ACTION, "--idle-immediate  Idle drive immediately", NULL },
	{ OPT_IDLE_UNLOAD, 0, "idle-unload", ARG_NONE, 0, 0, NULL, CLASS_ACTION, "--idle-unload     Idle immediately and unload heads", NULL },
	{ OPT_IRAW, 0, "Iraw", ARG_FILE, 0, 0, NULL, CLASS_ACTION, "--Iraw filename   Write raw binary identify data to the specfied file", NULL },
	{ OPT_ISTDIN, 0, "Istdin", ARG_NONE, 0, 0, NULL, CLASS_ALONE, "--Istdin          Read identify data from stdin as ASCII hex", NULL },
	{ OPT_ISTDOUT, 0, "Istdout", ARG_NONE, 0, 0, NULL, CLASS_ACTION, "--Istdout         Write identify data to stdout as ASCII hex", NULL },
	{ OPT_MAKE_BAD_SECTOR, 0, "make-bad-sector", ARG_FLAGGED_U64, 0, LBA48_MAX, "bad/missing sector value", CLASS_ACTION, "--make-bad-sector Deliberately corrupt a sector directly on the media (VERY DANGEROUS)", NULL },
	{ OPT_OFFSET, 0, "offset", ARG_U64, 0, UINT64_MAX >> 30, "GB offset for -t flag", CLASS_ACTION, "--offset          use with -t, to begin timings at given offset (in GiB) from start of drive", NULL },
	{ OPT_PREFER_ATA12, 0, "prefer-ata12", ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, "--prefer-ata12    Use 12-byte (instead of 16-byte) SAT commands when possible", NULL },
	{ OPT_READ_SECTOR, 0, "read-sector", ARG_U64, 0, LBA48_MAX, "bad/missing sector value", CLASS_ACTION, "--read-sector     Read and dump (in hex) a sector directly from the media", NULL },
	{ OPT_REPAIR_SECTOR, 0, "repair-sector", ARG_U64, 0, LBA48_MAX, "bad/missing sector value", CLASS_SOLE, "--repair-sector   Alias for the --write-sector option (VERY DANGEROUS)", NULL },
	{ OPT_SANITIZE_ANTIFREEZE, 0, "sanitize-antifreeze-lock", ARG_NONE, 0, 0, NULL, CLASS_ALONE, "--sanitize-antifreeze-lock  Block sanitize-freeze-lock command until next power cycle", NULL },
	{ OPT_SANITIZE_BLOCK_ERASE, 0, "sanitize-block-erase", ARG_NONE, 0, 0, NULL, CLASS_ALONE, "--sanitize-block-erase      Start block erase operation", NULL },
	{ OPT_SANITIZE_CRYPTO, 0, "sanitize-crypto-scramble", ARG_NONE, 0, 0, NULL, CLASS_ALONE, "--sanitize-crypto-scramble  Change the internal encryption keys that used for used data", NULL },
	{ OPT_SANITIZE_FREEZE, 0, "sanitize-freeze-lock", ARG_NONE, 0, 0, NULL, CLASS_ALONE, "--sanitize-freeze-lock      Lock drive's sanitize features until next power cycle", NULL },
	{ OPT_SANITIZE_OVERWRITE, 0, "sanitize-overwrite", ARG_PATTERN, 0, 0, NULL, CLASS_ALONE, "--sanitize-overwrite  PATTERN  Overwrite the internal media with constant PATTERN", NULL },
	{ OPT_SANITIZE_PASSES, 0, "sanitize-overwrite-passes", ARG_U64, 0, 7, "Number of passes must be in range 0..7", CLASS_MODIFIER, "--sanitize-overwrite-passes COUNT  Number of overwrite passes from 0 to 7, default 0 means 16 passes", NULL },
	{ OPT_SANITIZE_STATUS, 0, "sanitize-status", ARG_NONE, 0, 0, NULL, CLASS_ALONE, "--sanitize-status           Show sanitize status information", NULL },
	{ OPT_SECURITY_HELP, 0, "security-help", ARG_NONE, 0, 0, NULL, CLASS_ALONE, "--security-help             Display help for ATA security commands", NULL },
	{ OPT_SET_SECTOR_SIZE, 0, "set-sector-size", ARG_U64, 0x200, 0x1080, "sector size out of range", CLASS_SOLE, "--set-sector-size           Change logical sector size of drive", NULL },
	{ OPT_TRIM_RANGES, 0, "trim-sector-ranges", ARG_RANGES, 0, LBA48_MAX, NULL, CLASS_SOLE, "--trim-sector-ranges        Tell SSD firmware to discard unneeded data sectors: lba:count ..", NULL },
	{ OPT_TRIM_STDIN, 0, "trim-sector-ranges-stdin", ARG_NONE, 0, 0, NULL, CLASS_SOLE, "--trim-sector-ranges-stdin  Same as above, but reads lba:count pairs from stdin", NULL },
	{ OPT_VERBOSE, 0, "verbose", ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, "--verbose                   Display extra diagnostics from some commands", NULL },
	{ OPT_WRITE_SECTOR, 0, "write-sector", ARG_U64, 0, LBA48_MAX, "bad/missing sector value", CLASS_SOLE, "--write-sector              Repair/overwrite a (possibly bad) sector directly on the media (VERY DANGEROUS)", NULL },

	/* Listed by --security-help rather than -h, as in 9.65. */
	{ OPT_SECURITY_FREEZE, 0, "security-freeze", ARG_NONE, 0, 0, NULL, CLASS_ACTION, NULL, NULL },
	{ OPT_SECURITY_UNLOCK, 0, "security-unlock", ARG_PASSWORD, 0, 0, NULL, CLASS_ALONE, NULL, NULL },
	{ OPT_SECURITY_SET_PASS, 0, "security-set-pass", ARG_PASSWORD, 0, 0, NULL, CLASS_ALONE, NULL, NULL },
	{ OPT_SECURITY_DISABLE, 0, "security-disable", ARG_PASSWORD, 0, 0, NULL, CLASS_ALONE, NULL, NULL },
	{ OPT_SECURITY_ERASE, 0, "security-erase", ARG_PASSWORD, 0, 0, NULL, CLASS_ALONE, NULL, NULL },
	{ OPT_SECURITY_ERASE_ENHANCED, 0, "security-erase-enhanced", ARG_PASSWORD, 0, 0, NULL, CLASS_ALONE, NULL, NULL },
	{ OPT_SECURITY_MODE, 0, "security-mode", ARG_LETTER, 0, 0, "security level", CLASS_MODIFIER, NULL, "hm" },
	{ OPT_USER_MASTER, 0, "user-master", ARG_LETTER, 0, 0, "password type", CLASS_MODIFIER, NULL, "um" },
	{ OPT_SECURITY_PROMPT, 0, "security-prompt-for-password", ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, NULL, NULL },

	/* Confirmation flags: not in 9.65's -h, listed at the end of ours. */
	{ OPT_YES_I_KNOW, 0, "yes-i-know-what-i-am-doing", ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, "--yes-i-know-what-i-am-doing  Confirm a DANGEROUS option", NULL },
	{ OPT_PLEASE_DESTROY, 0, "please-destroy-my-drive", ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, "--please-destroy-my-drive     Confirm an EXTREMELY DANGEROUS option", NULL },

	/* Ours. */
	{ OPT_IODEPTH, 0, "iodepth", ARG_U64, 1, 256, "the number of requests in flight must be 1 to 256", CLASS_MODIFIER, "--iodepth N                   With -t or --seeks: N O_DIRECT requests in flight (1-256)", NULL },
	{ OPT_BLOCK_SIZE, 0, "block-size", ARG_U64, 4, 65536, "the block size must be 4 to 65536 KiB", CLASS_MODIFIER, "--block-size KiB              Request size for --iodepth and --seeks (4-65536)", NULL },
	{ OPT_SEEKS, 0, "seeks", ARG_NONE, 0, 0, NULL, CLASS_ACTION, "--seeks                       Time random O_DIRECT reads: seeks/sec and latency", NULL },
	{ OPT_SANITIZE_WAIT, 0, "sanitize-wait", ARG_NONE, 0, 0, NULL, CLASS_ACTION, "--sanitize-wait               Wait for a sanitize operation to end, showing its progress", NULL },
	{ OPT_JSON, 0, "json", ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, "--json                        Print one JSON document instead of text (schema: hdparm.8)", NULL },
};

#define NOPTIONS (ARRAY_SIZE(options))

static const char *progname = HDPARM_NAME;

const char *option_name(enum opt_id opt)
{
	static char buf[48];

	for (size_t i = 0; i < NOPTIONS; i++) {
		if (options[i].id != opt)
			continue;
		if (options[i].letter)
			snprintf(buf, sizeof(buf), "-%c", options[i].letter);
		else
			snprintf(buf, sizeof(buf), "--%s", options[i].name);
		return buf;
	}
	return "?";
}

static void usage(FILE *f)
{
	fprintf(f, "\n%s - get/set hard disk parameters - version %s, by Mark Lord.\n\n", progname, HDPARM_VERSION);
	fprintf(f, "Usage:  %s  [options] [device ...]\n\n", progname);
	fprintf(f, "Options:\n");
	for (size_t i = 0; i < NOPTIONS; i++)
		if (options[i].usage)
			fprintf(f, " %s\n", options[i].usage);
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

/* Where the parser stands: the rest of the current word, and the words after it. */
struct cursor {
	const char *p;
	char **next;
	int left;		/* words after the current one */
	bool own_word;		/* the value being read started a word of its own */
};

/* Every refusal of the command line: one line on stderr, and EINVAL for the caller to return. */
static int bad_command_line(const char *fmt, const char *arg)
{
	complain(fmt, arg);
	complain("%c", '\n');
	return EINVAL;
}

static int bad_value(const struct option_desc *o)
{
	if (o->letter && o->arg == ARG_MAX_SECTORS)
		complain("  -%c: bad/missing %s value\n", o->letter, o->what);
	else if (o->letter)
		complain("  -%c: bad/missing %s value (%llu..%llu)\n", o->letter, o->what,
			(unsigned long long)o->min, (unsigned long long)o->max);
	else
		complain("  --%s: %s\n", o->name, o->what);
	return EINVAL;
}

/* An empty rest-of-word takes the next word when that word passes accept(). */
static void take_next_word_if(struct cursor *c, int (*accept)(int))
{
	if (!*c->p && c->left > 0 && accept((unsigned char)**c->next)) {
		c->p = *c->next++;
		c->left--;
		c->own_word = true;
	}
}

/*
 * A number in a word of its own must be the whole word: "--write-sector
 * 0x" is a typo, not sector 0 followed by -x.  A value written into the
 * option's own word may be followed by more option letters ("-S120y"),
 * as 9.65 allows.
 */
static int end_of_value(const struct option_desc *o, const struct cursor *c)
{
	return c->own_word && *c->p ? bad_value(o) : 0;
}

static int accept_any(int ch)
{
	return ch != 0;
}

/* Decimal digits only, as 9.65 reads them; *overflow set past UINT64_MAX. */
static bool read_digits(struct cursor *c, uint64_t *value)
{
	bool any = false, overflow = false;
	uint64_t v = 0;

	while (isdigit((unsigned char)*c->p)) {
		unsigned int d = (unsigned int)(*c->p++ - '0');

		if (v > (UINT64_MAX - d) / 10)
			overflow = true;
		else
			v = v * 10 + d;
		any = true;
	}
	*value = overflow ? UINT64_MAX : v;
	return any;
}

/*
 * strtoull-style number (0x hex and 0 octal as 9.65 accepts), with no sign
 * and no overflow.  Leaves c->p after it.  Returns false if none is there.
 */
static bool read_number(struct cursor *c, uint64_t *value, bool *bad)
{
	char *end;

	*bad = false;
	if (!isdigit((unsigned char)*c->p)) {
		*bad = *c->p == '-' || *c->p == '+';
		return false;
	}
	errno = 0;
	*value = strtoull(c->p, &end, 0);
	if (errno == ERANGE)
		*bad = true;
	c->p = end;
	return true;
}

static int parse_u64(const struct option_desc *o, struct cursor *c, struct opt_value *v, bool required)
{
	uint64_t n = 0;
	bool bad;

	take_next_word_if(c, isdigit);
	if (!read_number(c, &n, &bad))
		return bad || required ? bad_value(o) : 0;
	if (bad || n < o->min || n > o->max)
		return bad_value(o);
	v->num = n;
	v->has_value = true;
	return end_of_value(o, c);
}

static int parse_trim_ranges(const struct option_desc *o, struct cursor *c, struct settings *s)
{
	unsigned int max = (unsigned int)c->left;

	free(s->ranges);	/* a second --trim-sector-ranges replaces the first */
	s->ranges = calloc(max ? max : 1, sizeof(*s->ranges));
	if (!s->ranges) {
		complain_errno("calloc");
		return ENOMEM;
	}
	s->nranges = 0;
	for (unsigned int i = 0; i < max; i++) {
		struct sector_range *r = &s->ranges[i];
		uint64_t lba, count;
		bool bad;

		take_next_word_if(c, isdigit);
		if (!read_number(c, &lba, &bad)) {
			if (i == 0 || bad)
				goto bad_lba;
			break;
		}
		if (bad || lba > o->max)
			goto bad_lba;
		if (*c->p++ != ':' || !isdigit((unsigned char)*c->p))
			goto bad_count;
		/* Counts above 65535 are split into several range entries when sent. */
		if (!read_number(c, &count, &bad) || bad || count < 1 || count > (o->max + 1) - lba || *c->p)
			goto bad_count;
		r->lba = lba;
		r->count = count;
		s->nranges = i + 1;
	}
	if (!s->nranges)
		goto bad_lba;
	return 0;
bad_lba:
	complain("  %s[%u]: bad/missing sector value\n", o->name, s->nranges);
	return EINVAL;
bad_count:
	complain("  %s[%u]: bad/missing sector count\n", o->name, s->nranges);
	return EINVAL;
}

static int parse_password(const struct option_desc *o, struct cursor *c, struct settings *s, struct opt_value *v)
{
	const char *pw;

	if (s->v[OPT_SECURITY_PROMPT].given) {
		v->str = NULL;	/* asked for when the command runs */
		return 0;
	}
	if (c->left < 2) {
		complain("--%s: missing PASSWD\n", o->name);
		return EINVAL;
	}
	pw = *c->next++;
	c->left--;
	if (strncmp(pw, "hex:", 4) == 0) {
		const char *h = pw + 4;

		if (strlen(h) != 64 || strspn(h, "0123456789abcdefABCDEF") != 64) {
			complain("--%s: invalid PASSWD (hex string must be exactly 64 hex digits)\n", o->name);
			return EINVAL;
		}
	} else if (strlen(pw) > 32) {
		complain("--%s: PASSWD too long (must be 32 chars max)\n", o->name);
		return EINVAL;
	}
	v->str = pw;
	v->has_value = true;
	c->p = "";
	return 0;
}

static int parse_pattern(const struct option_desc *o, struct cursor *c, struct opt_value *v)
{
	const char *pat;
	char *end;

	if (c->left < 2) {
		complain("--%s: missing PATTERN\n", o->name);
		return EINVAL;
	}
	pat = *c->next++;
	c->left--;
	if (strncmp(pat, "hex:", 4) != 0 || strlen(pat + 4) != 8 ||
	    strspn(pat + 4, "0123456789abcdefABCDEF") != 8) {
		complain("--%s: invalid PATTERN format (must be hex:XXXXXXXX)\n", o->name);
		return EINVAL;
	}
	v->num = strtoull(pat + 4, &end, 16);
	v->has_value = true;
	c->p = "";
	return 0;
}

static int parse_file(const struct option_desc *o, struct cursor *c, struct opt_value *v)
{
	take_next_word_if(c, accept_any);
	if (!*c->p) {
		complain("  %s: bad/missing filename parameter\n", o->name);
		return EINVAL;
	}
	v->str = c->p;
	v->has_value = true;
	c->p = "";
	return 0;
}

static int parse_xfermode(const struct option_desc *o, struct cursor *c, struct opt_value *v)
{
	char word[32];
	size_t n = 0;
	unsigned int mode;

	take_next_word_if(c, isalnum);
	while (isalnum((unsigned char)*c->p) && n < sizeof(word) - 1)
		word[n++] = *c->p++;
	word[n] = '\0';
	if (!xfermode_parse(word, &mode)) {
		complain("  -%c: bad/missing %s value (pio0..pio7, sdma0..7, mdma0..7, udma0..7, or 0..255)\n",
			o->letter, o->what);
		return EINVAL;
	}
	v->num = mode;
	v->has_value = true;
	return 0;
}

/* One option at the cursor (its letter or name already consumed). */
static int parse_value(const struct option_desc *o, struct cursor *c, struct settings *s)
{
	struct opt_value *v = &s->v[o->id];
	uint64_t n;
	int err;

	c->own_word = false;
	switch (o->arg) {
	case ARG_NONE:
		break;
	case ARG_OPTIONAL_NUM:
	case ARG_NUM:
		take_next_word_if(c, isdigit);
		v->has_value = read_digits(c, &n);
		if ((o->arg == ARG_NUM && !v->has_value) || (v->has_value && (n < o->min || n > o->max)))
			return bad_value(o);
		if ((err = end_of_value(o, c)))
			return err;
		if (v->has_value)
			v->num = n;
		break;
	case ARG_XFERMODE:
		if ((err = parse_xfermode(o, c, v)))
			return err;
		break;
	case ARG_MAX_SECTORS:
	case ARG_FLAGGED_U64:
		/* An optional leading letter: 'p' (permanent) for -N, 'f' (flagged) for --make-bad-sector. */
		{
			char letter = o->arg == ARG_MAX_SECTORS ? 'p' : 'f';

			if (!*c->p && c->left > 0 && (isdigit((unsigned char)**c->next) || **c->next == letter)) {
				c->p = *c->next++;
				c->left--;
				c->own_word = true;
			}
			v->flag = *c->p == letter;
			if (v->flag)
				c->p++;
			if ((err = parse_u64(o, c, v, o->arg == ARG_FLAGGED_U64 || v->flag)))
				return err;
		}
		break;
	case ARG_U64:
		if ((err = parse_u64(o, c, v, true)))
			return err;
		break;
	case ARG_FILE:
		if ((err = parse_file(o, c, v)))
			return err;
		break;
	case ARG_SIZE_FILE:
		if ((err = parse_u64(o, c, v, true)))
			return err;
		{
			struct opt_value file = { 0 };

			if ((err = parse_file(o, c, &file)))
				return err;
			v->str = file.str;
		}
		break;
	case ARG_PASSWORD:
		if ((err = parse_password(o, c, s, v)))
			return err;
		break;
	case ARG_LETTER:
		if (c->left > 0 && isalpha((unsigned char)**c->next)) {
			const char *w = *c->next++;

			c->left--;
			if (!strchr(o->letters, w[0])) {
				complain("--%s: bad %s '%s' (one of: %s)\n", o->name, o->what, w, o->letters);
				return EINVAL;
			}
			v->str = w;
			v->has_value = true;
			c->p = "";
		}
		break;
	case ARG_PATTERN:
		if ((err = parse_pattern(o, c, v)))
			return err;
		break;
	case ARG_RANGES:
		if ((err = parse_trim_ranges(o, c, s)))
			return err;
		v->has_value = true;
		break;
	}
	return 0;
}

static const struct option_desc *find_letter(char letter)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if (options[i].letter == letter)
			return &options[i];
	return NULL;
}

static const struct option_desc *find_name(const char *name)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if (options[i].name && strcasecmp(options[i].name, name) == 0)
			return &options[i];
	return NULL;
}

/* A parsed command line: the settings in force at each device. */
struct job {
	const char *device;
	struct settings s;
};

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

static int parse_option(struct parse_state *ps, const struct option_desc *o, struct cursor *c, const char *spelled)
{
	struct opt_value *v = &ps->s.v[o->id];
	int err;

	if (o->id == OPT_OBSOLETE_U || o->id == OPT_OBSOLETE_X) {
		complain("%s: obsolete option, no longer supported (see '%s -h')\n", spelled, progname);
		return EINVAL;
	}
	/* --sanitize-wait may follow the sanitize command it waits for. */
	if (ps->no_more_options && !(o->id == OPT_SANITIZE_WAIT && ps->alone && ps->alone->name &&
				     strncmp(ps->alone->name, "sanitize-", 9) == 0)) {
		complain("%s: no option may follow the one before it\n", spelled);
		return EINVAL;
	}
	if (o->cls == CLASS_ALONE && ps->actions) {
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
	if (o->cls == CLASS_ALONE) {
		ps->no_more_options = true;
		ps->alone = o;
	}
	if (o->cls == CLASS_SOLE)
		ps->sole = o;
	if (o->id == OPT_ISTDIN)
		ps->istdin = true;
	if (o->id == OPT_VERBOSE)
		run.verbose = true;
	if (o->id == OPT_PREFER_ATA12)
		run.prefer_ata12 = true;
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

static int parse_command_line(struct parse_state *ps, int argc, char **argv)
{
	struct cursor c = { .next = argv + 1, .left = argc - 1 };
	bool options_done = false;
	int err;

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
		if (c.left == 0 && !ps->istdin) {
			complain("%s: no device given after %s\n", progname, word);
			return EINVAL;
		}
	}
	if (ps->istdin && ps->njobs) {
		complain("--Istdin: takes no device\n");
		return EINVAL;
	}
	if ((ps->s.v[OPT_IODEPTH].given || ps->s.v[OPT_BLOCK_SIZE].given) && !ps->s.v[OPT_TIMINGS].given &&
	    !ps->s.v[OPT_SEEKS].given) {
		complain("--iodepth and --block-size go with -t or --seeks\n");
		return EINVAL;
	}
	if (ps->sole && (ps->actions > 1 || ps->njobs > 1)) {
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

static int identify_from_stdin(void)
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
	if (run.json) {
		json_object_begin(NULL);
		json_string("name", "stdin");
		identify_json(id);
		json_object_end();
		return (id[0] & 0xc000) == 0xc000 && !(id[0] == 0x848a || id[0] == 0x844a) ? EINVAL : 0;
	}
	out_char('\n');
	return identify_print(id, NULL);
}

static void start_json_if_asked(int argc, char **argv)
{
	bool asked = false;

	for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
		if (strcasecmp(argv[i], "--json") == 0)
			asked = true;
	if (!asked)
		return;
	run.json = true;
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

int main(int argc, char **argv)
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
	if (argc < 2) {
		usage(stderr);
		return EINVAL;
	}
	memset(&ps, 0, sizeof(ps));
	start_json_if_asked(argc, argv);
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
		return identify_from_stdin();
	}
	for (int i = 0; i < ps.njobs; i++) {
		bool refused = false;
		int err = process_device(ps.jobs[i].device, &ps.jobs[i].s, &refused);

		if (err)
			status = err;
		/*
		 * "Program aborted." means what it says: no later device is
		 * touched.  Where a dangerous command failed, 9.65 exited too;
		 * a run that only queries goes on to the next device.
		 */
		if (refused || (err && carries_dangerous_option(&ps.jobs[i].s)))
			break;
	}
	fflush(stdout);
	free(ps.s.ranges);
	free(ps.jobs);
	return status;
}
