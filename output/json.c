/*
 * A small JSON emitter: strings escaped per RFC 8259 (bytes that are not
 * UTF-8, as in garbage serial numbers, become \u00XX), integers exact,
 * no trailing commas.  Nesting is tracked so the document can be closed
 * from an exit handler.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "json.h"

#define MAX_DEPTH 16

/* Where values go and how deep: the run's document, or a side document (an erase record). */
struct writer {
	bool active;
	FILE *doc;
	char *buf;		/* the document so far */
	size_t len;
	int depth;
	bool first[MAX_DEPTH];
	char closer[MAX_DEPTH];
};

static struct writer run_doc, side_doc, *w = &run_doc;

static struct {
	bool finished;
	FILE *out;		/* the real stdout */
	int write_errno;	/* why the document could not be written there */
	char *top_errors;
	size_t top_errors_len;
	FILE *errors;		/* top-level errors, as JSON string elements */
	bool errors_first;
	size_t devices_at;	/* offset just after the "devices" array opens */
} js;

static void indent(void)
{
	fputc('\n', w->doc);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->doc);
}

static void put_escaped(FILE *f, const unsigned char *s, size_t len)
{
	fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = s[i];
		size_t n = 0;

		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			static const char *const named[] = { ['\b'] = "\\b", ['\f'] = "\\f", ['\n'] = "\\n", ['\r'] = "\\r", ['\t'] = "\\t" };

			if (c < ARRAY_SIZE(named) && named[c])
				fputs(named[c], f);
			else
				fprintf(f, "\\u%04x", c);
			continue;
		}
		if (c < 0x80) {
			fputc(c, f);
			continue;
		}
		/* A well-formed UTF-8 sequence passes; any other byte is escaped alone. */
		if (c >= 0xc2 && c <= 0xdf)
			n = 1;
		else if (c >= 0xe0 && c <= 0xef)
			n = 2;
		else if (c >= 0xf0 && c <= 0xf4)
			n = 3;
		bool ok = n != 0;
		for (size_t k = 1; ok && k <= n; k++)
			ok = i + k < len && (s[i + k] & 0xc0) == 0x80;
		if (ok && n == 2) {
			unsigned int cp = (c & 0x0fu) << 12 | (s[i + 1] & 0x3fu) << 6 | (s[i + 2] & 0x3fu);

			ok = cp >= 0x800 && (cp < 0xd800 || cp > 0xdfff);
		}
		if (ok && n == 3) {
			unsigned int cp = (c & 0x07u) << 18 | (s[i + 1] & 0x3fu) << 12;

			ok = cp >= 0x10000 && cp <= 0x10ffff;
		}
		if (ok) {
			fwrite(s + i, 1, n + 1, f);
			i += n;
		} else {
			fprintf(f, "\\u%04x", c);
		}
	}
	fputc('"', f);
}

/* The separator and key before a value. */
static void begin_value(const char *key)
{
	if (w->depth > 0) {
		if (!w->first[w->depth - 1])
			fputc(',', w->doc);
		w->first[w->depth - 1] = false;
	}
	indent();
	if (key) {
		put_escaped(w->doc, (const unsigned char *)key, strlen(key));
		fputs(": ", w->doc);
	}
}

static void open_container(const char *key, char open, char close)
{
	if (!w->active || w->depth >= MAX_DEPTH)
		return;
	begin_value(key);
	fputc(open, w->doc);
	w->first[w->depth] = true;
	w->closer[w->depth] = close;
	w->depth++;
}

static void close_container(void)
{
	if (!w->active || w->depth <= 0)
		return;
	w->depth--;
	if (!w->first[w->depth])
		indent();
	fputc(w->closer[w->depth], w->doc);
}

static void finish(void)
{
	if (!run_doc.active || js.finished)
		return;
	js.finished = true;
	w = &run_doc;
	/* Close what an early exit left open, down to the "devices" array. */
	while (run_doc.depth > 1)
		close_container();
	fclose(js.errors);
	fputs(",\n  \"errors\": [", run_doc.doc);
	if (js.top_errors_len)
		fprintf(run_doc.doc, "%s\n  ]", js.top_errors);
	else
		fputs("]", run_doc.doc);
	run_doc.depth = 0;
	fputs("\n}\n", run_doc.doc);
	fclose(run_doc.doc);
	errno = 0;
	if (fwrite(run_doc.buf, 1, run_doc.len, js.out) != run_doc.len || fflush(js.out))
		js.write_errno = errno ? errno : EIO;
	free(run_doc.buf);
	free(js.top_errors);
}

void json_start(FILE *out, const char *version)
{
	js.out = out;
	run_doc.doc = open_memstream(&run_doc.buf, &run_doc.len);
	js.errors = open_memstream(&js.top_errors, &js.top_errors_len);
	if (!run_doc.doc || !js.errors)
		return;
	run_doc.active = true;
	js.errors_first = true;
	atexit(finish);
	fputc('{', run_doc.doc);
	run_doc.first[0] = true;
	run_doc.closer[0] = '}';
	run_doc.depth = 1;
	json_string("tool", "hdparm");
	json_string("version", version);
	json_uint("json_format_version", JSON_FORMAT_VERSION);
	/* The "devices" array stays open until the end. */
	begin_value("devices");
	fputc('[', run_doc.doc);
	run_doc.first[1] = true;
	run_doc.closer[1] = ']';
	run_doc.depth = 2;
	fflush(run_doc.doc);
	js.devices_at = run_doc.len;
}

int json_write_error(void)
{
	return js.write_errno;
}

bool json_active(void)
{
	return run_doc.active && !js.finished;
}

void json_object_begin(const char *key)
{
	open_container(key, '{', '}');
}

void json_object_end(void)
{
	close_container();
}

void json_array_begin(const char *key)
{
	open_container(key, '[', ']');
}

void json_array_end(void)
{
	close_container();
}

void json_stringn(const char *key, const char *value, size_t len)
{
	if (!w->active)
		return;
	begin_value(key);
	put_escaped(w->doc, (const unsigned char *)value, len);
}

void json_string(const char *key, const char *value)
{
	if (!value) {
		json_null(key);
		return;
	}
	json_stringn(key, value, strlen(value));
}

void json_uint(const char *key, uint64_t value)
{
	if (!w->active)
		return;
	begin_value(key);
	fprintf(w->doc, "%llu", (unsigned long long)value);
}

void json_int(const char *key, long long value)
{
	if (!w->active)
		return;
	begin_value(key);
	fprintf(w->doc, "%lld", value);
}

void json_bool(const char *key, bool value)
{
	if (!w->active)
		return;
	begin_value(key);
	fputs(value ? "true" : "false", w->doc);
}

void json_null(const char *key)
{
	if (!w->active)
		return;
	begin_value(key);
	fputs("null", w->doc);
}

void json_fixed(const char *key, double value, int decimals)
{
	if (!w->active)
		return;
	begin_value(key);
	/* JSON has no infinity or NaN. */
	if (isfinite(value))
		fprintf(w->doc, "%.*f", decimals, value);
	else
		fputs("null", w->doc);
}

void json_discard_devices(void)
{
	if (!run_doc.active || js.finished)
		return;
	fflush(run_doc.doc);
	/* Back to just after "devices": [ ; an open_memstream rewritten from there. */
	fseek(run_doc.doc, (long)js.devices_at, SEEK_SET);
	run_doc.depth = 2;
	run_doc.first[1] = true;
}

const char *json_devices_text(size_t *len)
{
	if (!run_doc.active || js.finished || !run_doc.doc) {
		*len = 0;
		return "";
	}
	fflush(run_doc.doc);
	*len = run_doc.len - js.devices_at;
	return run_doc.buf + js.devices_at;
}

void json_add_devices(const char *text, size_t len)
{
	if (!run_doc.active || js.finished || w != &run_doc || run_doc.depth != 2 || !len)
		return;
	if (!run_doc.first[1])
		fputc(',', run_doc.doc);
	run_doc.first[1] = false;
	fwrite(text, 1, len, run_doc.doc);
}

void json_top_error(const char *message)
{
	if (!run_doc.active)
		return;
	fputs(js.errors_first ? "\n    " : ",\n    ", js.errors);
	js.errors_first = false;
	put_escaped(js.errors, (const unsigned char *)message, strlen(message));
}

void json_side_begin(void)
{
	side_doc = (struct writer){ 0 };
	side_doc.doc = open_memstream(&side_doc.buf, &side_doc.len);
	if (!side_doc.doc)
		return;
	side_doc.active = true;
	w = &side_doc;
	fputc('{', side_doc.doc);
	side_doc.first[0] = true;
	side_doc.closer[0] = '}';
	side_doc.depth = 1;
}

char *json_side_end(size_t *len)
{
	char *text = NULL;

	*len = 0;
	if (w != &side_doc)
		return NULL;
	while (side_doc.depth > 0)
		close_container();
	fputc('\n', side_doc.doc);
	fclose(side_doc.doc);
	text = side_doc.buf;
	*len = side_doc.len;
	side_doc = (struct writer){ 0 };
	w = &run_doc;
	return text;
}
