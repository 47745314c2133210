/*
 * /etc/hdparm.conf's syntax.  Debian's shell reader drops what it does
 * not understand without a word (a '{' on a line of its own loses the
 * block); here every line either means something or is an error that
 * names its line and column, so a file is applied whole or not at all.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_file.h"

/* Larger than any configuration: Debian's shipped file is 4 KiB. */
#define CONFIG_MAX_BYTES (1024 * 1024)

/* Where the parser stands. */
struct reader {
	struct config_file *cf;
	char *err;
	size_t errsize;
	int open;		/* the block open; -1: none */
	char *pending;		/* a device named on the line before, waiting for its '{' */
	unsigned int pending_line, pending_col;
};

int config_verror(char *err, size_t size, const char *name, unsigned int line, unsigned int col, const char *key,
		  const char *fmt, va_list ap)
{
	int n = snprintf(err, size, "%s:%u:%u: %s%s", name, line, col, key ? key : "", key ? ": " : "");

	if (n > 0 && (size_t)n < size)
		vsnprintf(err + n, size - (size_t)n, fmt, ap);
	return EINVAL;
}

static int bad(struct reader *r, unsigned int line, unsigned int col, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = config_verror(r->err, r->errsize, r->cf->name, line, col, NULL, fmt, ap);
	va_end(ap);
	return rc;
}

static bool is_key_char(int c)
{
	return isalnum(c) || c == '_' || c == '-';
}

static void *grow(void *array, size_t n, size_t size)
{
	/* Doubling at powers of two: n is the count before the new element. */
	if (n & (n - 1) || n == 0)
		return n ? array : malloc(size);
	return realloc(array, 2 * n * size);
}

static int add_entry(struct reader *r, const char *key, const char *value, unsigned int line, unsigned int key_col,
		     unsigned int value_col)
{
	struct config_file *cf = r->cf;
	struct config_entry *e = grow(cf->entries, cf->nentries, sizeof(*e));

	if (!e)
		return ENOMEM;
	cf->entries = e;
	cf->entries[cf->nentries++] = (struct config_entry){ .key = key, .value = value, .block = r->open,
							       .line = line, .key_col = key_col, .value_col = value_col };
	if (r->open >= 0)
		cf->blocks[r->open].count++;
	return 0;
}

static int open_block(struct reader *r, char *device, unsigned int line, unsigned int col)
{
	struct config_file *cf = r->cf;
	struct config_block *b = grow(cf->blocks, cf->nblocks, sizeof(*b));

	if (!b)
		return ENOMEM;
	cf->blocks = b;
	r->open = (int)cf->nblocks;
	cf->blocks[cf->nblocks++] = (struct config_block){
		.device = device, .line = line, .col = col, .first = cf->nentries, .globals_before = 0,
		.command_line = strcmp(device, "command_line") == 0,
	};
	for (size_t i = 0; i < cf->nentries; i++)
		if (cf->entries[i].block < 0)
			cf->blocks[r->open].globals_before++;
	return 0;
}

/* "key = value" or a bare key, in a block or outside one. */
static int read_setting(struct reader *r, char *s, char *line_start, unsigned int line)
{
	char *key = s, *p = s, *value;
	unsigned int key_col = (unsigned int)(s - line_start) + 1;

	while (is_key_char((unsigned char)*p))
		p++;
	if (p == key)
		return bad(r, line, key_col, "expected a setting, found '%c'", *p);
	value = p;
	while (*value == ' ' || *value == '\t')
		value++;
	if (!*value) {
		*p = '\0';
		return add_entry(r, key, NULL, line, key_col, 0);
	}
	if (*value != '=')
		return bad(r, line, (unsigned int)(value - line_start) + 1, "expected '=' after \"%.*s\"", (int)(p - key),
			   key);
	*p = '\0';
	value++;
	while (*value == ' ' || *value == '\t')
		value++;
	if (!*value)
		return bad(r, line, (unsigned int)(value - line_start) + 1, "no value after '='");
	return add_entry(r, key, value, line, key_col, (unsigned int)(value - line_start) + 1);
}

/* A device's line: "DEVICE {", or DEVICE alone with its '{' on the next line. */
static int read_device(struct reader *r, char *s, char *line_start, unsigned int line)
{
	char *end = s + strcspn(s, " \t{");
	char *rest = end;
	unsigned int col = (unsigned int)(s - line_start) + 1;

	while (*rest == ' ' || *rest == '\t')
		rest++;
	if (!*rest) {
		*end = '\0';
		r->pending = s;
		r->pending_line = line;
		r->pending_col = col;
		return 0;
	}
	if (*rest != '{' || rest[1])
		return bad(r, line, (unsigned int)(rest - line_start) + 1, "expected '{' after the device name");
	*end = '\0';
	return open_block(r, s, line, col);
}

static int read_line(struct reader *r, char *s, unsigned int line)
{
	char *start = s, *end, *hash;

	while (*s == ' ' || *s == '\t')
		s++;
	/* A comment: a line that starts with '#', or '#' after a blank. */
	for (hash = strchr(s, '#'); hash; hash = strchr(hash + 1, '#'))
		if (hash == s || hash[-1] == ' ' || hash[-1] == '\t') {
			*hash = '\0';
			break;
		}
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (!*s)
		return 0;
	if (r->pending) {
		if (strcmp(s, "{") != 0)
			return bad(r, r->pending_line, r->pending_col, "\"%s\": a device name with no '{' after it",
				   r->pending);
		s = r->pending;
		r->pending = NULL;
		return open_block(r, s, r->pending_line, r->pending_col);
	}
	if (strcmp(s, "}") == 0) {
		if (r->open < 0)
			return bad(r, line, (unsigned int)(s - start) + 1, "'}' with no block open");
		r->open = -1;
		return 0;
	}
	if (strchr(s, '{')) {
		if (r->open >= 0)
			return bad(r, line, (unsigned int)(strchr(s, '{') - start) + 1,
				   "'{' inside the block of line %u: is a '}' missing?", r->cf->blocks[r->open].line);
		if (*s == '{')
			return bad(r, line, (unsigned int)(s - start) + 1, "'{' with no device before it");
		return read_device(r, s, start, line);
	}
	/* Debian ignores a command_line block's lines; they are not checked either. */
	if (r->open >= 0 && r->cf->blocks[r->open].command_line)
		return 0;
	if (r->open < 0 && *s == '/')
		return read_device(r, s, start, line);
	return read_setting(r, s, start, line);
}

int config_parse(const char *name, const char *text, size_t len, struct config_file *cf, char *err, size_t errsize)
{
	struct reader r = { .cf = cf, .err = err, .errsize = errsize, .open = -1 };
	unsigned int line = 0;
	char *p;
	int rc = 0;

	memset(cf, 0, sizeof(*cf));
	cf->name = name;
	cf->text = malloc(len + 1);
	if (!cf->text)
		return ENOMEM;
	memcpy(cf->text, text, len);
	cf->text[len] = '\0';
	if (strlen(cf->text) != len) {
		config_free(cf);
		memset(cf, 0, sizeof(*cf));
		cf->name = name;
		return bad(&r, 1, 1, "not a text file (a NUL byte)");
	}
	for (p = cf->text; p && !rc;) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		rc = read_line(&r, p, ++line);
		p = nl ? nl + 1 : NULL;
	}
	if (!rc && r.pending)
		rc = bad(&r, r.pending_line, r.pending_col, "\"%s\": a device name with no '{' after it", r.pending);
	if (!rc && r.open >= 0)
		rc = bad(&r, cf->blocks[r.open].line, cf->blocks[r.open].col, "the block of \"%s\" has no '}'",
			 cf->blocks[r.open].device);
	if (rc) {
		config_free(cf);
		cf->name = name;
	}
	return rc;
}

/* What st is, where it is no configuration (NULL: a regular file of at most CONFIG_MAX_BYTES). */
static const char *not_config(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return st->st_size > CONFIG_MAX_BYTES ? "over 1 MiB" : NULL;
	if (S_ISDIR(st->st_mode))
		return "a folder";
	if (S_ISFIFO(st->st_mode))
		return "a FIFO";
	if (S_ISCHR(st->st_mode))
		return "a character device";
	if (S_ISBLK(st->st_mode))
		return "a block device";
	if (S_ISSOCK(st->st_mode))
		return "a socket";
	return "not a regular file";
}

static int refuse(const char *path, const char *what, char *err, size_t errsize)
{
	snprintf(err, errsize, "%s: %s: a configuration is a regular file of at most 1 MiB", path, what);
	return EINVAL;
}

/*
 * A configuration is a regular file of bounded size: looked at with stat()
 * before it is opened, since a FIFO blocks open() and a link to /dev/zero
 * reads without end; looked at again once open (O_NONBLOCK: what was
 * swapped in between does not block), and read no further than the bound.
 */
int config_load(const char *path, struct config_file *cf, char *err, size_t errsize)
{
	struct stat st;
	const char *what;
	char *text;
	size_t len = 0;
	int fd, rc = 0;

	memset(cf, 0, sizeof(*cf));
	if (stat(path, &st) != 0 || (what = not_config(&st)) == NULL) {
		if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)) < 0 || fstat(fd, &st) != 0) {
			rc = errno;
			if (fd >= 0)
				close(fd);
			snprintf(err, errsize, "%s: %s", path, strerror(rc));
			return rc;
		}
		what = not_config(&st);
	} else {
		fd = -1;
	}
	if (what) {
		if (fd >= 0)
			close(fd);
		return refuse(path, what, err, errsize);
	}
	if (!(text = malloc(CONFIG_MAX_BYTES + 1))) {
		close(fd);
		return ENOMEM;
	}
	/* One byte past the bound tells a file that grew since fstat(). */
	while (len <= CONFIG_MAX_BYTES) {
		ssize_t n = read(fd, text + len, CONFIG_MAX_BYTES + 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			rc = errno;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (rc)
		snprintf(err, errsize, "%s: %s", path, strerror(rc));
	else if (len > CONFIG_MAX_BYTES)
		rc = refuse(path, "over 1 MiB", err, errsize);
	else
		rc = config_parse(path, text, len, cf, err, errsize);
	free(text);
	return rc;
}

void config_free(struct config_file *cf)
{
	free(cf->text);
	free(cf->entries);
	free(cf->blocks);
	memset(cf, 0, sizeof(*cf));
}
