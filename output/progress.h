/*
 * A command that runs for minutes or hours inside the drive (SECURITY
 * ERASE UNIT): while the caller waits in the kernel, a status line on a
 * terminal says where it stands, and Ctrl-C or SIGTERM says what
 * interrupting hdparm does not do.
 */
#ifndef HDPARM_PROGRESS_H
#define HDPARM_PROGRESS_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <time.h>

struct long_command {
	const char *label;
	unsigned int estimate_s;
	const char *on_interrupt;
	void (*before_exit)(void *arg, int sig);
	void *arg;
	bool show;
	bool has_helper;	/* false if no thread could be started: the command runs anyway */
	struct timespec start;
	sigset_t waited, saved;
	pthread_t helper;
};

/*
 * Before the command: label ("erasing"), the drive's estimate in seconds
 * (0: none), the line printed if hdparm is interrupted (by SIGINT, SIGTERM
 * or SIGHUP), and what is done then before it exits (before_exit(arg,
 * sig), NULL: nothing), from another thread while the command waits in the
 * kernel.  The status line is drawn only when stderr is a terminal and
 * show is true.
 */
void long_command_begin(struct long_command *lc, const char *label, unsigned int estimate_s,
			const char *on_interrupt, bool show, void (*before_exit)(void *arg, int sig), void *arg);

/*
 * Where a signal stops a long command, what the run reports before it
 * ends (one disk: its JSON device object and the document; a disk's
 * process of many: its device object, sent on): called from the helper
 * thread once the interrupt's line is said (complain(): the JSON keeps it
 * too) and before_exit has run, while the command still waits in the
 * kernel; it ends the process with 128 + sig.  NULL: none, the process
 * ends at once.
 */
void progress_on_interrupt(void (*report)(int sig));

/* After it: the status line gives way to one saying how long it took; returns the seconds. */
double long_command_end(struct long_command *lc);

/*
 * A status line for a loop the caller counts itself (firmware segments,
 * TRIM commands, sanitize polls): drawn on stderr only when stderr is a
 * terminal and show is true, rewritten in place by each status_draw().
 */
struct status_line {
	bool shown;		/* stderr is a terminal: the line is drawn */
	bool shares_screen;	/* stdout is that terminal too: clear the line before writing to stdout */
	bool drawn;
};

void status_begin(struct status_line *st, bool show);

/*
 * Many disks at once: each disk's process sends its status lines to fd,
 * one "S text" line each ("S " alone: none now), for the one process that
 * draws them all; the long command's line goes there too.
 */
void progress_relay(int fd);
void status_draw(struct status_line *st, const char *text);
/* Before the caller writes to stdout: the line is wiped if the two share the screen. */
void status_clear(struct status_line *st);
/* Done: the line is wiped. */
void status_end(struct status_line *st);

/*
 * "sanitize: N% done" from a progress of 65536ths, as every kind of disk
 * counts it; with the device's estimate of the whole (seconds, 0: none),
 * the time left.
 */
void draw_sanitize_status(struct status_line *st, unsigned int progress, unsigned long estimate_s);

/*
 * A wait that polls the drive (--sanitize-wait): between begin and end,
 * SIGINT and SIGTERM end the wait instead of the program, so that the
 * output (the JSON document) is still written whole.
 */
void poll_wait_begin(void);
bool poll_wait_interrupted(void);
void poll_wait_end(void);
/*
 * SIGINT, SIGTERM and SIGHUP (those not ignored) held from before a command
 * that a wait follows is sent until that wait has begun, then let through
 * (to the wait's handler): one that comes in between must end the wait, not
 * kill hdparm with the command sent and its record unfinished.  Release
 * without a hold does nothing.
 */
void poll_wait_hold(void);
void poll_wait_release(void);
/* After an interrupted wait: says the drive carries on (text and JSON "sanitize_wait"); returns EINTR. */
int poll_wait_report_interrupt(const char *option);
/* The same of what ("format": JSON "format_wait"), follow the option that shows where it stands. */
int poll_wait_report_interrupt_of(const char *option, const char *what, const char *follow);

/*
 * "format: N% done, about S s left": the time left from the rate so far,
 * from progress from to progress in elapsed_s (where the wait began).
 */
void draw_rate_status(struct status_line *st, const char *what, unsigned int progress, unsigned int from,
		      double elapsed_s);

/* "trim: DONE of TOTAL ranges done", as both transports' TRIM draw it. */
void draw_trim_status(struct status_line *st, unsigned int done, unsigned int total);

#endif
