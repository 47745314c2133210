/*
 * --json: one JSON document on stdout for the whole run.  The document is
 * built in memory and written when the program exits, however it exits,
 * so an error never truncates it.  The schema is in hdparm.8 (JSON OUTPUT);
 * keys are only ever added.
 */
#ifndef HDPARM_JSON_H
#define HDPARM_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Raised where a key's meaning or shape changes (hdparm.8, JSON OUTPUT): 2 made rotation_rate
 * smartctl's; 3 made erase_check an array of one object a disk the erase reached.
 */
#define JSON_FORMAT_VERSION 3

/* Start the document: the tool, its version, and an open "devices" array. */
void json_start(FILE *out, const char *version);
/* 0, or the errno of the write of the document to stdout that failed. */
int json_write_error(void);
bool json_active(void);

/* key is NULL inside an array. */
void json_object_begin(const char *key);
void json_object_end(void);
void json_array_begin(const char *key);
void json_array_end(void);
void json_string(const char *key, const char *value);	/* NULL: null */
void json_stringn(const char *key, const char *value, size_t len);
void json_uint(const char *key, uint64_t value);
void json_int(const char *key, long long value);
void json_bool(const char *key, bool value);
void json_null(const char *key);
void json_fixed(const char *key, double value, int decimals);

/*
 * A document of its own (an erase record) while the run's goes on: the
 * calls above write to it, an object already open, until json_side_end()
 * closes it and returns its text (malloc'ed, the caller frees; NULL where
 * none was begun or memory ran out).
 */
void json_side_begin(void);
char *json_side_end(size_t *len);

/*
 * Devices another process wrote (what json_devices_text gave it there),
 * appended to this document's "devices"; many disks at once run each in a
 * process of its own.
 */
void json_add_devices(const char *text, size_t len);

/* An error outside any device (bad command line): listed at the top level. */
void json_top_error(const char *message);

/* Drop the devices written so far (the fuzz target reuses one document). */
void json_discard_devices(void);

/* The devices written since the last discard, as text (the fuzz target checks it parses). */
const char *json_devices_text(size_t *len);

#endif
