/*
 * Everything hdparm says goes through here: text on stdout for people and
 * scripts (9.65's lines, byte for byte) and complaints on stderr.  With
 * --json the text is left out, and every complaint line is also kept,
 * with the operation that made it, for the JSON document's "errors";
 * the JSON itself is built by json.c.  Nothing else writes to stdout or
 * stderr, so no output ever has to be captured or parsed back.
 */
#ifndef HDPARM_REPORT_H
#define HDPARM_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* --json: text off, complaints recorded. */
void report_use_json(bool on);
/*
 * stdout flushed: 0, or the errno of the first write to it that failed (EIO
 * where none was kept); 0 too once the operation that met it said so.
 */
int report_stdout_error(void);
/* The failure to write stdout was said (with the operation's own words): not said again at exit. */
void report_stdout_error_said(void);

/*
 * The operation complaints are filed under from now on: an option ("-S"),
 * "open", or NULL for the run as a whole (the command line).
 */
void report_operation(const char *name);

/* Text for stdout, printf-style. */
void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void out_char(int c);
void out_str(const char *s);
/* Text made elsewhere (a disk's process's stdout), as it is, under --json too; a failed write is kept as out()'s are. */
void out_bytes(const char *p, size_t n);
/* stdout flushed; a failed write is kept as out()'s are (a flush that fails is where a pipe's write fails). */
void out_flush(void);

/* " (on)\n" or " (off)\n", as 9.65 ends its setting lines. */
void print_on_off(unsigned long value);

/* A sector in hex, 16 bytes a line, as --read-sector prints it. */
void dump_sector(const uint8_t *b, size_t len);

/*
 * n bytes a device returned, as text that cannot drive a terminal:
 * trailing blanks and NULs dropped, each byte outside printable ASCII
 * written as \xNN.  Cut, never mid-escape, to fit size (which must be >= 1).
 */
void device_text(const uint8_t *p, size_t n, char *dst, size_t size);

/* One byte of a device's string on stdout, by the same rule: itself, or \xNN. */
void out_device_char(uint8_t c);

/* The two "device size with M = ..." lines of -I, as 9.65 prints them (ATA and SCSI disks alike). */
void out_device_size(uint64_t bytes);

/* A complaint for stderr, printf-style: stdout is flushed first, so the two read in order. */
void complain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A note for stderr that is no failure: not among --json's errors. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * A line of a long-running watcher's log, on stderr.  Where stderr is the
 * systemd journal (JOURNAL_STREAM names it) it starts with the priority
 * as <N> (sd-daemon(3); LOG_* of syslog.h), and the journal adds the time;
 * elsewhere it starts with the local time.
 */
void log_line(int priority, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* " WHAT failed: <strerror(errno)>", as a failed ioctl is reported; returns errno. */
int complain_failed(const char *what);

/* perror(): "what: <strerror(errno)>". */
void complain_errno(const char *what);

/* Hand each complaint filed under an operation since the last call to fn, and forget them. */
void report_take_errors(void (*fn)(const char *operation, const char *message, void *arg), void *arg);

/* The errors kept so far, as the device's JSON "errors" array of {operation, message}; taken. */
void report_json_errors(void);

#endif
