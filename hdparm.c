/*
 * hdparm: the command line, parsed by the option table of options.c (each
 * option's spelling, the kind and range of its value, the message used
 * when the value is bad, and its line in the usage text).  The command line
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
#include "ata.h"
#include "actions.h"
#include "hdparm.h"
#include "identify.h"
#include "idle.h"
#include "json.h"
#include "modes.h"
#include "options.h"
#include "cmdline.h"
#include "report.h"


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

/* "SECONDS" with at most one decimal, as tenths of a second (up to 65535 minutes); false if not. */
static bool parse_tenths(const char *text, uint64_t *tenths)
{
	uint64_t n = 0;
	const char *p = text;

	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++)
		if ((n = n * 10 + (uint64_t)(*p - '0')) > 65535ULL * 60)
			return false;
	n *= 10;
	if (*p == '.' && isdigit((unsigned char)p[1]) && !p[2])
		n += (uint64_t)(p[1] - '0');
	else if (*p)
		return false;
	*tenths = n;
	return true;
}

/*
 * The next word, one of the row's words (v->str; its place in the list in
 * v->num), with ",save" after it where the row allows (v->flag); for
 * ARG_WORD_SECONDS, WORD=SECONDS and the seconds in tenths in v->num.
 */
static int parse_word_value(const struct option_desc *o, struct cursor *c, struct opt_value *v)
{
	char list[80] = "", word[64], *end;
	uint64_t tenths = 0;

	if (c->left <= 0) {
		complain("--%s: missing %s\n", o->name, o->what);
		return EINVAL;
	}
	snprintf(word, sizeof(word), "%s", *c->next++);
	c->left--;
	c->p = "";
	end = strchr(word, ',');
	if (end && o->save_suffix && strcmp(end, ",save") == 0) {
		*end = '\0';
		v->flag = true;
	}
	if (o->arg == ARG_WORD_SECONDS) {
		end = strchr(word, '=');
		if (!end || !parse_tenths(end + 1, &tenths)) {
			complain("--%s: bad value '%s' (NAME=SECONDS[,save], SECONDS up to 3932100 with one decimal)\n", o->name,
				 c->next[-1]);
			return EINVAL;
		}
		*end = '\0';
	}
	for (unsigned int i = 0; o->words[i]; i++) {
		if (strcmp(word, o->words[i]) == 0) {
			v->num = o->arg == ARG_WORD_SECONDS ? tenths : i;
			v->str = o->words[i];
			v->has_value = true;
			return 0;
		}
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "", o->words[i]);
	}
	complain("--%s: bad %s '%s' (one of: %s)\n", o->name, o->what, word, list);
	return EINVAL;
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
	case ARG_WORD:
	case ARG_WORD_SECONDS:
		if ((err = parse_word_value(o, c, v)))
			return err;
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
		ps->run.verbose = true;
	if (o->id == OPT_PREFER_ATA12)
		ps->run.prefer_ata12 = true;
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

/* Each value carries its option's name, so that the steps name it without the table. */
static void name_values(struct settings *s)
{
	for (size_t i = 0; i < option_count; i++)
		snprintf(s->v[option_table[i].id].name, sizeof(s->v[0].name), "%s", option_name(option_table[i].id));
}

static int parse_command_line(struct parse_state *ps, int argc, char **argv)
{
	struct cursor c = { .next = argv + 1, .left = argc - 1 };
	bool options_done = false;
	int err;

	name_values(&ps->s);
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
	int status;

	if (!paths)
		return ENOMEM;
	for (int i = 0; i < ps->njobs; i++)
		paths[i] = ps->jobs[i].device;
	status = idle_spindown((unsigned int)ps->jobs[0].s.v[OPT_IDLE_SPINDOWN].num, paths, ps->njobs, &ps->run);
	free(paths);
	return status;
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
	if (ps.njobs && ps.jobs[0].s.v[OPT_IDLE_SPINDOWN].given) {
		status = run_idle_spindown(&ps);
		free(ps.s.ranges);
		free(ps.jobs);
		return status;
	}
	for (int i = 0; i < ps.njobs; i++) {
		bool refused = false;
		int err = process_device(ps.jobs[i].device, &ps.jobs[i].s, &ps.run, &refused);

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
