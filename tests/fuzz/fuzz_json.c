/*
 * The JSON emitter: the input as a string value (any bytes: control
 * characters, broken UTF-8) and as an IDENTIFY page through identify_json(),
 * into one device object, which must then parse as JSON (RFC 8259): a
 * document that does not parse aborts, and libFuzzer reports the input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "identify.h"
#include "json.h"

/* A strict recursive-descent reader: true when [*p, end) starts with one JSON value. */
struct reader {
	const unsigned char *p, *end;
	int depth;
};

static void skip_space(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static int literal(struct reader *r, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
		return 0;
	r->p += n;
	return 1;
}

static int string(struct reader *r)
{
	if (r->p >= r->end || *r->p++ != '"')
		return 0;
	while (r->p < r->end && *r->p != '"') {
		if (*r->p < 0x20)
			return 0;
		if (*r->p++ != '\\')
			continue;
		if (r->p >= r->end)
			return 0;
		if (*r->p == 'u') {
			for (int i = 1; i <= 4; i++)
				if (r->p + i >= r->end || !strchr("0123456789abcdefABCDEF", r->p[i]))
					return 0;
			r->p += 5;
		} else if (strchr("\"\\/bfnrt", *r->p)) {
			r->p++;
		} else {
			return 0;
		}
	}
	if (r->p >= r->end)
		return 0;
	r->p++;
	return 1;
}

static int digits(struct reader *r)
{
	const unsigned char *start = r->p;

	while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
		r->p++;
	return r->p > start;
}

static int number(struct reader *r)
{
	if (r->p < r->end && *r->p == '-')
		r->p++;
	if (r->p < r->end && *r->p == '0')
		r->p++;
	else if (!digits(r))
		return 0;
	if (r->p < r->end && *r->p == '.') {
		r->p++;
		if (!digits(r))
			return 0;
	}
	return 1;
}

static int value(struct reader *r);

static int container(struct reader *r, char close, int keyed)
{
	r->p++;
	skip_space(r);
	if (r->p < r->end && *r->p == close) {
		r->p++;
		return 1;
	}
	for (;;) {
		skip_space(r);
		if (keyed) {
			if (!string(r))
				return 0;
			skip_space(r);
			if (r->p >= r->end || *r->p++ != ':')
				return 0;
		}
		if (!value(r))
			return 0;
		skip_space(r);
		if (r->p < r->end && *r->p == ',') {
			r->p++;
			continue;
		}
		if (r->p < r->end && *r->p == close) {
			r->p++;
			return 1;
		}
		return 0;
	}
}

static int value(struct reader *r)
{
	int ok;

	skip_space(r);
	if (r->p >= r->end || ++r->depth > 64)
		return 0;
	switch (*r->p) {
	case '{':
		ok = container(r, '}', 1);
		break;
	case '[':
		ok = container(r, ']', 0);
		break;
	case '"':
		ok = string(r);
		break;
	case 't':
		ok = literal(r, "true");
		break;
	case 'f':
		ok = literal(r, "false");
		break;
	case 'n':
		ok = literal(r, "null");
		break;
	default:
		ok = number(r);
		break;
	}
	r->depth--;
	return ok;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static FILE *null;

	(void)argc;
	(void)argv;
	null = fopen("/dev/null", "w");
	if (!null || !freopen("/dev/null", "w", stdout))
		return 1;
	json_start(null, "fuzz");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint16_t id[IDENTIFY_WORDS] = { 0 };
	struct reader r;
	size_t len;
	const char *text;

	json_discard_devices();
	json_object_begin(NULL);
	json_stringn("name", (const char *)data, size);
	if (size >= 2 * IDENTIFY_WORDS) {
		for (int i = 0; i < IDENTIFY_WORDS; i++)
			id[i] = (uint16_t)(data[2 * i] | data[2 * i + 1] << 8);
		identify_json(id);
	}
	json_object_end();
	text = json_devices_text(&len);
	r = (struct reader){ (const unsigned char *)text, (const unsigned char *)text + len, 0 };
	if (!value(&r)) {
		fprintf(stderr, "not valid JSON at byte %zu of the device object\n", (size_t)(r.p - (const unsigned char *)text));
		abort();
	}
	skip_space(&r);
	if (r.p != r.end) {
		fprintf(stderr, "text after the device object\n");
		abort();
	}
	return 0;
}
