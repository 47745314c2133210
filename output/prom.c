/*
 * The Prometheus text exposition format (0.0.4): per family "# HELP",
 * "# TYPE", then its samples, "name{label="value",...} number".  Label
 * values escape backslash, double quote and newline; a help text escapes
 * backslash and newline.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prom.h"

struct text {
	char *s;
	size_t len, cap;
};

struct family {
	char *name, *help;
	const char *type;	/* "gauge" or "counter" */
	struct text samples;
};

struct prom {
	struct family *f;
	size_t n, cap;
	int failed;	/* ENOMEM once: the rendering says nothing rather than a part */
};

static int put(struct text *t, const char *s, size_t n)
{
	if (t->len + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 256;
		char *s2;

		while (cap < t->len + n + 1)
			cap *= 2;
		if (!(s2 = realloc(t->s, cap)))
			return ENOMEM;
		t->s = s2;
		t->cap = cap;
	}
	memcpy(t->s + t->len, s, n);
	t->len += n;
	t->s[t->len] = '\0';
	return 0;
}

static int puts_t(struct text *t, const char *s)
{
	return put(t, s, strlen(s));
}

/* t's text, NUL-ended (an empty one too), its length in *len; NULL, t freed, where err says a write failed. */
static char *text_done(struct text *t, int err, size_t *len)
{
	if (!err && !t->s)
		err = put(t, "", 0);
	if (err) {
		free(t->s);
		return NULL;
	}
	*len = t->len;
	return t->s;
}

/*
 * s with the characters the format escapes escaped: all three in a label
 * value, no quote in a help text.  A byte outside printable ASCII (a
 * drive's model string may hold any) is written as the text \xNN, its
 * backslash escaped: the format wants UTF-8, and a device's bytes are not.
 */
static int put_escaped(struct text *t, const char *s, int quote)
{
	int err = 0;

	for (; *s && !err; s++) {
		unsigned char c = (unsigned char)*s;
		char hex[8];

		if (c == '\\')
			err = puts_t(t, "\\\\");
		else if (c == '\n')
			err = puts_t(t, "\\n");
		else if (c == '"' && quote)
			err = puts_t(t, "\\\"");
		else if (c < 0x20 || c > 0x7e) {
			snprintf(hex, sizeof(hex), "\\\\x%02X", c);
			err = puts_t(t, hex);
		} else
			err = put(t, s, 1);
	}
	return err;
}

struct prom *prom_new(void)
{
	return calloc(1, sizeof(struct prom));
}

void prom_free(struct prom *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		free(p->f[i].name);
		free(p->f[i].help);
		free(p->f[i].samples.s);
	}
	free(p->f);
	free(p);
}

static struct family *family(struct prom *p, const char *name, const char *help, const char *type)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->f[i].name, name) == 0)
			return &p->f[i];
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		struct family *f = realloc(p->f, cap * sizeof(*f));

		if (!f)
			return NULL;
		p->f = f;
		p->cap = cap;
	}
	p->f[p->n] = (struct family){ .name = strdup(name), .help = strdup(help), .type = type };
	if (!p->f[p->n].name || !p->f[p->n].help) {
		free(p->f[p->n].name);
		free(p->f[p->n].help);
		return NULL;
	}
	return &p->f[p->n++];
}

static int sample(struct prom *p, const char *name, const char *help, const char *type, double value, va_list ap)
{
	struct family *f = family(p, name, help, type);
	char number[40];
	const char *label;
	int err, first = 1;

	if (!f) {
		p->failed = ENOMEM;
		return ENOMEM;
	}
	err = puts_t(&f->samples, name);
	while (!err && (label = va_arg(ap, const char *))) {
		const char *v = va_arg(ap, const char *);

		err = puts_t(&f->samples, first ? "{" : ",");
		if (!err)
			err = puts_t(&f->samples, label);
		if (!err)
			err = puts_t(&f->samples, "=\"");
		if (!err)
			err = put_escaped(&f->samples, v ? v : "", 1);
		if (!err)
			err = puts_t(&f->samples, "\"");
		first = 0;
	}
	if (!err && !first)
		err = puts_t(&f->samples, "}");
	/* Integers as integers (sizes in bytes run past a float's 6 digits); no exponent below 10^15. */
	snprintf(number, sizeof(number), " %.15g\n", value);
	if (!err)
		err = puts_t(&f->samples, number);
	if (err)
		p->failed = err;
	return err;
}

int prom_gauge(struct prom *p, const char *name, const char *help, double value, ...)
{
	va_list ap;
	int err;

	va_start(ap, value);
	err = sample(p, name, help, "gauge", value, ap);
	va_end(ap);
	return err;
}

int prom_counter(struct prom *p, const char *name, const char *help, double value, ...)
{
	va_list ap;
	int err;

	va_start(ap, value);
	err = sample(p, name, help, "counter", value, ap);
	va_end(ap);
	return err;
}

int prom_merge(struct prom *into, const struct prom *from)
{
	int err = from->failed;

	for (size_t i = 0; i < from->n && !err; i++) {
		struct family *f = family(into, from->f[i].name, from->f[i].help, from->f[i].type);

		err = f ? put(&f->samples, from->f[i].samples.s ? from->f[i].samples.s : "", from->f[i].samples.len) : ENOMEM;
	}
	if (err)
		into->failed = err;
	return err;
}

char *prom_pack(const struct prom *p, size_t *len)
{
	struct text t = { 0 };
	int err = p->failed;

	for (size_t i = 0; i < p->n && !err; i++) {
		const struct family *f = &p->f[i];
		char head[80];

		snprintf(head, sizeof(head), "%zu %zu %zu %s\n", strlen(f->name), strlen(f->help), f->samples.len, f->type);
		err = puts_t(&t, head);
		if (!err)
			err = puts_t(&t, f->name);
		if (!err)
			err = puts_t(&t, f->help);
		if (!err && f->samples.len)
			err = put(&t, f->samples.s, f->samples.len);
	}
	return text_done(&t, err, len);
}

/* A packed family's line, "NAMELEN HELPLEN SAMPLESLEN TYPE": false where it is not one. */
static bool lengths(const char *line, size_t *nlen, size_t *hlen, size_t *slen, char *type, size_t size)
{
	size_t *v[3] = { nlen, hlen, slen };
	char *end;

	for (int i = 0; i < 3; i++) {
		if (*line < '0' || *line > '9')
			return false;
		errno = 0;
		*v[i] = strtoul(line, &end, 10);
		if (errno || *end != ' ')
			return false;
		line = end + 1;
	}
	if (strcmp(line, "gauge") != 0 && strcmp(line, "counter") != 0)
		return false;
	snprintf(type, size, "%s", line);
	return true;
}

int prom_take(struct prom *into, const char *buf, size_t len)
{
	size_t at = 0;
	int err = 0;

	while (at < len && !err) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t nlen, hlen, slen;
		char head[80], type[16], *name, *help;
		struct family *f;

		if (!nl || nl - (buf + at) >= (ptrdiff_t)sizeof(head))
			return EINVAL;
		/* The line alone, NUL-ended: sscanf() would read on past its newline. */
		memcpy(head, buf + at, (size_t)(nl - (buf + at)));
		head[nl - (buf + at)] = '\0';
		if (!lengths(head, &nlen, &hlen, &slen, type, sizeof(type)))
			return EINVAL;
		at = (size_t)(nl - buf) + 1;
		if (nlen > len - at || hlen > len - at - nlen || slen > len - at - nlen - hlen)
			return EINVAL;
		name = strndup(buf + at, nlen);
		help = strndup(buf + at + nlen, hlen);
		f = name && help ? family(into, name, help, type[0] == 'g' ? "gauge" : "counter") : NULL;
		err = f ? put(&f->samples, buf + at + nlen + hlen, slen) : ENOMEM;
		free(name);
		free(help);
		at += nlen + hlen + slen;
	}
	if (err)
		into->failed = err;
	return err;
}

char *prom_render(const struct prom *p, size_t *len)
{
	struct text t = { 0 };
	int err = p->failed;

	for (size_t i = 0; i < p->n && !err; i++) {
		const struct family *f = &p->f[i];

		err = puts_t(&t, "# HELP ");
		if (!err)
			err = puts_t(&t, f->name);
		if (!err)
			err = puts_t(&t, " ");
		if (!err)
			err = put_escaped(&t, f->help, 0);
		if (!err)
			err = puts_t(&t, "\n# TYPE ");
		if (!err)
			err = puts_t(&t, f->name);
		if (!err)
			err = puts_t(&t, " ");
		if (!err)
			err = puts_t(&t, f->type);
		if (!err)
			err = puts_t(&t, "\n");
		if (!err && f->samples.len)
			err = put(&t, f->samples.s, f->samples.len);
	}
	return text_done(&t, err, len);
}
