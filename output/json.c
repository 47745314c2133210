/*
 * A small JSON emitter: strings escaped per RFC 8259 (bytes that are not
 * UTF-8, as in garbage serial numbers, become \u00XX), integers exact,
 * no trailing commas.  Nesting is tracked so the document can be closed
 * from an exit handler.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "json.h"

#define MAX_DEPTH 16

static struct {
	bool active, finished;
	FILE *out;		/* the real stdout */
	char *buf;		/* the document so far */
	size_t len;
	FILE *doc;
	int depth;
	bool first[MAX_DEPTH];
	char closer[MAX_DEPTH];
	char *top_errors;
	size_t top_errors_len;
	FILE *errors;		/* top-level errors, as JSON string elements */
	bool errors_first;
	size_t devices_at;	/* offset just after the "devices" array opens */
} js;

static void indent(void)
{
	fputc('\n', js.doc);
	for (int i = 0; i < js.depth; i++)
		fputs("  ", js.doc);
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
	if (js.depth > 0) {
		if (!js.first[js.depth - 1])
			fputc(',', js.doc);
		js.first[js.depth - 1] = false;
	}
	indent();
	if (key) {
		put_escaped(js.doc, (const unsigned char *)key, strlen(key));
		fputs(": ", js.doc);
	}
}

static void open_container(const char *key, char open, char close)
{
	if (!js.active || js.depth >= MAX_DEPTH)
		return;
	begin_value(key);
	fputc(open, js.doc);
	js.first[js.depth] = true;
	js.closer[js.depth] = close;
	js.depth++;
}

static void close_container(void)
{
	if (!js.active || js.depth <= 0)
		return;
	js.depth--;
	if (!js.first[js.depth])
		indent();
	fputc(js.closer[js.depth], js.doc);
}

static void finish(void)
{
	if (!js.active || js.finished)
		return;
	js.finished = true;
	/* Close what an early exit left open, down to the "devices" array. */
	while (js.depth > 1)
		close_container();
	fclose(js.errors);
	fputs(",\n  \"errors\": [", js.doc);
	if (js.top_errors_len)
		fprintf(js.doc, "%s\n  ]", js.top_errors);
	else
		fputs("]", js.doc);
	js.depth = 0;
	fputs("\n}\n", js.doc);
	fclose(js.doc);
	fwrite(js.buf, 1, js.len, js.out);
	fflush(js.out);
	free(js.buf);
	free(js.top_errors);
}

void json_start(FILE *out, const char *version)
{
	js.out = out;
	js.doc = open_memstream(&js.buf, &js.len);
	js.errors = open_memstream(&js.top_errors, &js.top_errors_len);
	if (!js.doc || !js.errors)
		return;
	js.active = true;
	js.errors_first = true;
	atexit(finish);
	fputc('{', js.doc);
	js.first[0] = true;
	js.closer[0] = '}';
	js.depth = 1;
	json_string("tool", "hdparm");
	json_string("version", version);
	json_uint("json_format_version", JSON_FORMAT_VERSION);
	/* The "devices" array stays open until the end. */
	begin_value("devices");
	fputc('[', js.doc);
	js.first[1] = true;
	js.closer[1] = ']';
	js.depth = 2;
	fflush(js.doc);
	js.devices_at = js.len;
}

bool json_active(void)
{
	return js.active && !js.finished;
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
	if (!js.active)
		return;
	begin_value(key);
	put_escaped(js.doc, (const unsigned char *)value, len);
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
	if (!js.active)
		return;
	begin_value(key);
	fprintf(js.doc, "%llu", (unsigned long long)value);
}

void json_int(const char *key, long long value)
{
	if (!js.active)
		return;
	begin_value(key);
	fprintf(js.doc, "%lld", value);
}

void json_bool(const char *key, bool value)
{
	if (!js.active)
		return;
	begin_value(key);
	fputs(value ? "true" : "false", js.doc);
}

void json_null(const char *key)
{
	if (!js.active)
		return;
	begin_value(key);
	fputs("null", js.doc);
}

void json_fixed(const char *key, double value, int decimals)
{
	if (!js.active)
		return;
	begin_value(key);
	/* JSON has no infinity or NaN. */
	if (isfinite(value))
		fprintf(js.doc, "%.*f", decimals, value);
	else
		fputs("null", js.doc);
}

void json_discard_devices(void)
{
	if (!js.active || js.finished)
		return;
	fflush(js.doc);
	/* Back to just after "devices": [ ; an open_memstream rewritten from there. */
	fseek(js.doc, (long)js.devices_at, SEEK_SET);
	js.depth = 2;
	js.first[1] = true;
}

const char *json_devices_text(size_t *len)
{
	if (!js.active || js.finished || !js.doc) {
		*len = 0;
		return "";
	}
	fflush(js.doc);
	*len = js.len - js.devices_at;
	return js.buf + js.devices_at;
}

void json_top_error(const char *message)
{
	if (!js.active)
		return;
	fputs(js.errors_first ? "\n    " : ",\n    ", js.errors);
	js.errors_first = false;
	put_escaped(js.errors, (const unsigned char *)message, strlen(message));
}
