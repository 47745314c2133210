/*
 * The values of the command line's options: each read by the kind its
 * option's table row names (options.c), checked against its range, and
 * refused in the one line 9.65 words it with.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modes.h"
#include "option_values.h"
#include "psid.h"
#include "report.h"

int bad_command_line(const char *fmt, const char *arg)
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

/*
 * A count in decimal digits only (--scan-errors-max), as --scan-range reads
 * its LBAs: 010 is 10, and 0x10 is refused (strtoull would take 8 and 16).
 */
static int parse_decimal_u64(const struct option_desc *o, struct cursor *c, struct opt_value *v)
{
	uint64_t n = 0;

	take_next_word_if(c, isdigit);
	if (!read_digits(c, &n) || n == UINT64_MAX || n < o->min || n > o->max)
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

/*
 * The PSID as typed: its checks (dashes, case) are said where the drive
 * refuses it, not here.  "-", or none (no word, or a device's path next):
 * read when the run starts (psid.h), so that it is not on the command line.
 */
static int parse_psid(const struct option_desc *o, struct cursor *c, struct opt_value *v)
{
	int err;

	if (!*c->p && c->left > 0 && !strchr(*c->next, '/'))
		take_next_word_if(c, accept_any);
	if (!*c->p) {
		v->str = NULL;
		v->has_value = true;
		return 0;
	}
	if ((err = psid_check(option_name(o->id), c->p)))
		return err;
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
/* A number (-S120), maybe optional (-a, -a256), maybe a pair (--erc 70,50). */
static int parse_number(const struct option_desc *o, struct cursor *c, struct opt_value *v)
{
	uint64_t n;
	int err;

	take_next_word_if(c, isdigit);
	v->has_value = read_digits(c, &n);
	v->num2 = n;
	/* --erc 70,50: a second number after a comma (one alone stands for both). */
	if (o->arg == ARG_OPTIONAL_PAIR && v->has_value && *c->p == ',') {
		c->p++;
		if (!read_digits(c, &v->num2))
			return bad_value(o);
	}
	if ((o->arg == ARG_NUM && !v->has_value) ||
	    (v->has_value && (n < o->min || n > o->max || v->num2 < o->min || v->num2 > o->max)))
		return bad_value(o);
	if ((err = end_of_value(o, c)))
		return err;
	if (v->has_value)
		v->num = n;
	return 0;
}

/* A number after an optional letter: 'p' (permanent) for -N, 'f' (flagged) for --make-bad-sector. */
static int parse_lettered_u64(const struct option_desc *o, struct cursor *c, struct opt_value *v)
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
	return parse_u64(o, c, v, o->arg == ARG_FLAGGED_U64 || v->flag);
}

/* A size, then a file (--fallocate KB FILE). */
static int parse_size_file(const struct option_desc *o, struct cursor *c, struct opt_value *v)
{
	struct opt_value file = { 0 };
	int err;

	if ((err = parse_u64(o, c, v, true)) || (err = parse_file(o, c, &file)))
		return err;
	v->str = file.str;
	return 0;
}

/* An optional word whose first letter is one of the option's (--security-mode h|m). */
static int parse_letter(const struct option_desc *o, struct cursor *c, struct opt_value *v)
{
	const char *w;

	if (c->left <= 0 || !isalpha((unsigned char)**c->next))
		return 0;
	w = *c->next++;
	c->left--;
	if (!strchr(o->letters, w[0])) {
		complain("--%s: bad %s '%s' (one of: %s)\n", o->name, o->what, w, o->letters);
		return EINVAL;
	}
	v->str = w;
	v->has_value = true;
	c->p = "";
	return 0;
}

/* The configuration file: devices are named by path under /dev, so any other word first is the file. */
static int parse_config(struct cursor *c, struct opt_value *v)
{
	if (c->left > 0 && **c->next != '-' && strncmp(*c->next, "/dev/", 5) != 0) {
		v->str = *c->next++;
		c->left--;
	} else {
		v->str = HDPARM_CONFIG;
	}
	v->has_value = true;
	return 0;
}

/*
 * --scan-range FIRST-LAST or FIRST+COUNT, decimal LBAs, inclusive: an empty
 * range (COUNT 0), a reversed one, one past 2^64 or anything that is not
 * two numbers is refused here, before any device is opened.
 */
static int parse_lba_range(const struct option_desc *o, struct cursor *c, struct opt_value *v)
{
	uint64_t first, second;
	char sep;

	take_next_word_if(c, isdigit);
	if (!read_digits(c, &first) || first == UINT64_MAX || (*c->p != '-' && *c->p != '+'))
		return bad_value(o);
	sep = *c->p++;
	if (!read_digits(c, &second) || second == UINT64_MAX || *c->p)
		return bad_value(o);
	if (sep == '+' && (second == 0 || second - 1 > UINT64_MAX - 1 - first))
		return bad_value(o);
	v->num = first;
	v->num2 = sep == '+' ? first + second - 1 : second;
	if (v->num2 < first)
		return bad_value(o);
	v->has_value = true;
	return 0;
}

int parse_value(const struct option_desc *o, struct cursor *c, struct settings *s)
{
	struct opt_value *v = &s->v[o->id];
	int err;

	c->own_word = false;
	switch (o->arg) {
	case ARG_NONE:
		return 0;
	case ARG_OPTIONAL_NUM:
	case ARG_NUM:
	case ARG_OPTIONAL_PAIR:
		return parse_number(o, c, v);
	case ARG_XFERMODE:
		return parse_xfermode(o, c, v);
	case ARG_MAX_SECTORS:
	case ARG_FLAGGED_U64:
		return parse_lettered_u64(o, c, v);
	case ARG_U64:
		return parse_u64(o, c, v, true);
	case ARG_FILE:
		return parse_file(o, c, v);
	case ARG_SIZE_FILE:
		return parse_size_file(o, c, v);
	case ARG_PASSWORD:
		return parse_password(o, c, s, v);
	case ARG_PSID:
		return parse_psid(o, c, v);
	case ARG_LETTER:
		return parse_letter(o, c, v);
	case ARG_WORD:
	case ARG_WORD_SECONDS:
		return parse_word_value(o, c, v);
	case ARG_CONFIG:
		return parse_config(c, v);
	case ARG_LBA_RANGE:
		return parse_lba_range(o, c, v);
	case ARG_DECIMAL_U64:
		return parse_decimal_u64(o, c, v);
	case ARG_PATTERN:
		return parse_pattern(o, c, v);
	case ARG_RANGES:
		if ((err = parse_trim_ranges(o, c, s)))
			return err;
		v->has_value = true;
		return 0;
	}
	return 0;
}
