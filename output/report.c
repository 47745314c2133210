/* Everything hdparm says: text on stdout, complaints on stderr (and in --json's "errors"). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "json.h"
#include "report.h"

struct complaint {
	char *operation;	/* NULL: the run as a whole */
	char *message;
};

static struct {
	bool json;
	bool silent;
	char operation[48];
	bool has_operation;
	char *line;		/* the complaint line being written, until its newline */
	size_t line_len;
	struct complaint *kept;
	size_t nkept, room;
	int out_errno;		/* the first write to stdout that failed */
	bool out_said;		/* that failure said already, by the operation that met it */
} rep;

/* stdout is line-buffered: a line that could not be written fails the call that ended it. */
static void note_write(int rc)
{
	if (rc < 0 && !rep.out_errno)
		rep.out_errno = errno ? errno : EIO;
}

void out_flush(void)
{
	note_write(fflush(stdout) == EOF ? -1 : 0);
}

int report_stdout_error(void)
{
	out_flush();
	if (!ferror(stdout) || rep.out_said)
		return 0;
	return rep.out_errno ? rep.out_errno : json_write_error() ? json_write_error() : EIO;
}

void report_stdout_error_said(void)
{
	rep.out_said = true;
}

void report_use_json(bool on)
{
	rep.json = on;
	rep.silent = on;
}

static void keep(const char *message)
{
	message += strspn(message, " ");
	if (!*message)
		return;
	if (!rep.has_operation) {
		json_top_error(message);
		return;
	}
	if (rep.nkept == rep.room) {
		size_t room = rep.room ? rep.room * 2 : 8;
		struct complaint *bigger = realloc(rep.kept, room * sizeof(*bigger));

		if (!bigger)
			return;
		rep.kept = bigger;
		rep.room = room;
	}
	rep.kept[rep.nkept].operation = strdup(rep.operation);
	rep.kept[rep.nkept].message = strdup(message);
	rep.nkept++;
}

/* A line left without its newline belongs to the operation that wrote it. */
static void keep_partial_line(void)
{
	if (rep.line_len) {
		keep(rep.line);
		rep.line_len = 0;
		rep.line[0] = '\0';
	}
}

void report_operation(const char *name)
{
	keep_partial_line();
	rep.has_operation = name != NULL;
	snprintf(rep.operation, sizeof(rep.operation), "%s", name ? name : "");
}

void out(const char *fmt, ...)
{
	va_list ap;

	if (rep.silent)
		return;
	va_start(ap, fmt);
	note_write(vprintf(fmt, ap));
	va_end(ap);
}

void out_char(int c)
{
	if (!rep.silent)
		note_write(putchar(c) == EOF ? -1 : 0);
}

void out_str(const char *s)
{
	if (!rep.silent)
		note_write(fputs(s, stdout) == EOF ? -1 : 0);
}

void out_bytes(const char *p, size_t n)
{
	/* glibc's fwrite() says all was written when the flush of a line it ended failed: ferror() does not. */
	note_write(n && (fwrite(p, 1, n, stdout) != n || ferror(stdout)) ? -1 : 0);
}

void print_on_off(unsigned long value)
{
	out(value ? " (on)\n" : " (off)\n");
}

void dump_sector(const uint8_t *b, size_t len)
{
	for (size_t i = 0; i + 16 <= len; i += 16) {
		for (size_t j = 0; j < 16; j += 2)
			out("%02x%02x%c", b[i + j], b[i + j + 1], j == 14 ? '\n' : ' ');
	}
}

/* Split what was said into lines and keep each one. */
static void record(const char *text)
{
	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			if (!rep.line)
				continue;
			keep(rep.line);
			rep.line_len = 0;
			rep.line[0] = '\0';
			continue;
		}
		char *bigger = realloc(rep.line, rep.line_len + 2);

		if (!bigger)
			return;
		rep.line = bigger;
		rep.line[rep.line_len++] = *p;
		rep.line[rep.line_len] = '\0';
	}
}

void complain(const char *fmt, ...)
{
	char text[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	out_flush();
	fputs(text, stderr);
	if (rep.json)
		record(text);
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	out_flush();
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

/* stderr is the journal's stream: JOURNAL_STREAM says its device and inode (systemd.exec(5)). */
static bool stderr_is_journal(void)
{
	const char *stream = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;
	char *end;

	if (!stream || fstat(STDERR_FILENO, &st) != 0)
		return false;
	errno = 0;
	dev = strtoull(stream, &end, 10);
	if (errno || *end != ':')
		return false;
	ino = strtoull(end + 1, &end, 10);
	return !errno && !*end && dev == (unsigned long long)st.st_dev && ino == (unsigned long long)st.st_ino;
}

void log_line(int priority, const char *fmt, ...)
{
	char when[32];
	time_t t = time(NULL);
	struct tm tm;
	va_list ap;

	out_flush();
	if (stderr_is_journal()) {
		fprintf(stderr, "<%d>", priority);
	} else {
		strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S ", localtime_r(&t, &tm));
		fputs(when, stderr);
	}
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fflush(stderr);
}

void complain_errno(const char *what)
{
	complain("%s: %s\n", what, strerror(errno));
}

static void json_error_object(const char *operation, const char *message, void *arg)
{
	(void)arg;
	json_object_begin(NULL);
	json_string("operation", operation);
	json_string("message", message);
	json_object_end();
}

void report_json_errors(void)
{
	json_array_begin("errors");
	report_take_errors(json_error_object, NULL);
	json_array_end();
}

void report_take_errors(void (*fn)(const char *operation, const char *message, void *arg), void *arg)
{
	keep_partial_line();
	for (size_t i = 0; i < rep.nkept; i++) {
		if (rep.kept[i].operation && rep.kept[i].message)
			fn(rep.kept[i].operation, rep.kept[i].message, arg);
		free(rep.kept[i].operation);
		free(rep.kept[i].message);
	}
	rep.nkept = 0;
}

/* A device's byte that may be printed as itself: printable ASCII. */
static bool device_char_plain(uint8_t c)
{
	return c >= 0x20 && c < 0x7f;
}

void out_device_size(uint64_t bytes)
{
	out("\tdevice size with M = 1024*1024: %11llu MBytes\n", (unsigned long long)(bytes / (1024ull * 1024ull)));
	bytes /= 1000ull;
	out("\tdevice size with M = 1000*1000: %11llu MBytes ", (unsigned long long)(bytes / 1000ull));
	if (bytes > 1000ull)
		out("(%llu GB)\n", (unsigned long long)(bytes / 1000000ull));
	else
		out("\n");
}

void out_device_char(uint8_t c)
{
	if (device_char_plain(c))
		out_char(c);
	else
		out("\\x%02x", c);
}

void device_text(const uint8_t *p, size_t n, char *dst, size_t size)
{
	size_t k = 0;

	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\0'))
		n--;
	for (size_t i = 0; i < n; i++) {
		bool plain = device_char_plain(p[i]);

		if (k + (plain ? 1 : 4) >= size)
			break;
		if (plain)
			dst[k++] = (char)p[i];
		else
			k += (size_t)snprintf(dst + k, size - k, "\\x%02x", p[i]);
	}
	dst[k] = '\0';
}

int complain_failed(const char *what)
{
	int err = errno;

	complain(" %s failed: %s\n", what, strerror(err));
	return err;
}
