/*
 * A helper thread waits for SIGINT and SIGTERM (blocked in every other
 * thread while the command runs) and, on a terminal, redraws the status
 * line once a second.  The command itself stays in the calling thread:
 * the kernel does not let a signal end an ATA pass-through that is under
 * way, so only a second thread can answer Ctrl-C at once.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catch_signal.h"
#include "json.h"
#include "progress.h"
#include "report.h"

#define DONE_SIGNAL SIGUSR2

/* The run's report of an interrupted long command (progress_on_interrupt), or NULL. */
static void (*interrupt_report)(int sig);

void progress_on_interrupt(void (*report)(int sig))
{
	interrupt_report = report;
}

/* Where status lines go instead of a terminal (progress_relay), or -1. */
static int relay_fd = -1;

void progress_relay(int fd)
{
	relay_fd = fd;
}

/* Status lines are drawn: on a terminal, or for whoever relays them. */
static bool status_shown(bool show)
{
	return show && (relay_fd >= 0 || isatty(STDERR_FILENO));
}

/*
 * A status line to the relay: "S text\n", the text without the terminal's controls; "" clears it.
 * Left out where the relay's pipe is full: the process that reads it waits on something else (its
 * own stdout, a pager not read), and a status line says only "now": waiting to say it would hold
 * this disk's command (a firmware download half sent) for as long, whatever that process does.
 */
static void relay(const char *text)
{
	char line[200];
	int n = snprintf(line, sizeof(line), "S %s", text);
	struct pollfd room = { .fd = relay_fd, .events = POLLOUT };

	/* Room for a write of at most PIPE_BUF bytes: it goes in whole, at once. */
	if (poll(&room, 1, 0) != 1 || !(room.revents & POLLOUT))
		return;

	if (n > (int)sizeof(line) - 2)
		n = (int)sizeof(line) - 2;
	line[n++] = '\n';
	if (write(relay_fd, line, (size_t)n) < 0)
		return;
}

/* Straight to stderr with write(2): nothing buffered, nothing to lose at _exit. A failed write changes nothing. */
static void say(const char *text, int n)
{
	if (n > 0) {
		ssize_t written = write(STDERR_FILENO, text, (size_t)n);

		(void)written;
	}
}

static unsigned int elapsed_s(const struct long_command *lc)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (unsigned int)(now.tv_sec - lc->start.tv_sec);
}

static void draw(const struct long_command *lc)
{
	unsigned int t = elapsed_s(lc);
	char line[160];
	int n;

	if (lc->estimate_s)
		n = snprintf(line, sizeof(line), "\r%s: %u min %02u s of about %u min (the drive's estimate)\033[K",
			     lc->label, t / 60, t % 60, (lc->estimate_s + 59) / 60);
	else
		n = snprintf(line, sizeof(line), "\r%s: %u min %02u s\033[K", lc->label, t / 60, t % 60);
	if (relay_fd >= 0 && n > 4) {
		line[n - 3] = '\0';
		relay(line + 1);
		return;
	}
	say(line, n);
}

static void *helper(void *arg)
{
	struct long_command *lc = arg;
	const struct timespec second = { 1, 0 };

	for (;;) {
		int sig;

		if (lc->show)
			draw(lc);
		sig = sigtimedwait(&lc->waited, NULL, &second);
		if (sig == DONE_SIGNAL)
			return NULL;
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
			/*
			 * The calling thread waits in the kernel, and long_command_end() joins this one
			 * before it goes on: what is written here is written by this thread alone.
			 */
			say("\n", 1);
			if (interrupt_report)
				complain("%s", lc->on_interrupt);
			else
				say(lc->on_interrupt, (int)strlen(lc->on_interrupt));
			if (lc->before_exit)
				lc->before_exit(lc->arg, sig);
			if (interrupt_report)
				interrupt_report(sig);
			_exit(128 + sig);
		}
	}
}

void long_command_begin(struct long_command *lc, const char *label, unsigned int estimate_s,
			const char *on_interrupt, bool show, void (*before_exit)(void *arg, int sig), void *arg)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };

	*lc = (struct long_command){ .label = label, .estimate_s = estimate_s, .on_interrupt = on_interrupt,
				     .before_exit = before_exit, .arg = arg, .show = status_shown(show) };
	clock_gettime(CLOCK_MONOTONIC, &lc->start);
	sigemptyset(&lc->waited);
	sigaddset(&lc->waited, DONE_SIGNAL);
	/* A signal that whoever started hdparm chose to ignore stays ignored. */
	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
		struct sigaction now;

		if (sigaction(stops[i], NULL, &now) == 0 && now.sa_handler != SIG_IGN)
			sigaddset(&lc->waited, stops[i]);
	}
	fflush(stdout);
	pthread_sigmask(SIG_BLOCK, &lc->waited, &lc->saved);
	lc->has_helper = pthread_create(&lc->helper, NULL, helper, lc) == 0;
	if (!lc->has_helper)
		pthread_sigmask(SIG_SETMASK, &lc->saved, NULL);
}

double long_command_end(struct long_command *lc)
{
	struct timespec now;
	unsigned int t;
	char line[160];
	int n;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (lc->has_helper) {
		pthread_kill(lc->helper, DONE_SIGNAL);
		pthread_join(lc->helper, NULL);
		/* A Ctrl-C that came as the command ended is still pending: it acts now, as usual. */
		pthread_sigmask(SIG_SETMASK, &lc->saved, NULL);
	}
	if (lc->show && lc->has_helper) {
		t = elapsed_s(lc);
		n = snprintf(line, sizeof(line), "\r%s took %u min %02u s\033[K\n", lc->label, t / 60, t % 60);
		if (relay_fd >= 0 && n > 5) {
			line[n - 4] = '\0';
			relay(line + 1);
		} else
			say(line, n);
	}
	return (double)(now.tv_sec - lc->start.tv_sec) + (double)(now.tv_nsec - lc->start.tv_nsec) / 1e9;
}

void status_begin(struct status_line *st, bool show)
{
	st->shown = status_shown(show);
	st->shares_screen = st->shown && relay_fd < 0 && isatty(STDOUT_FILENO);
	st->drawn = false;
}

static void put_line(struct status_line *st, const char *text, const char *end)
{
	char line[200];
	int n;

	if (relay_fd >= 0) {
		relay(text);
		st->drawn = true;
		return;
	}
	n = snprintf(line, sizeof(line), "\r%s\033[K%s", text, end);
	if (n > (int)sizeof(line) - 1)
		n = (int)sizeof(line) - 1;
	fflush(stdout);
	say(line, n);
	st->drawn = true;
}

void status_draw(struct status_line *st, const char *text)
{
	if (st->shown)
		put_line(st, text, "");
}

void status_clear(struct status_line *st)
{
	if (st->drawn && st->shares_screen) {
		say("\r\033[K", 4);
		st->drawn = false;
	}
}

void status_end(struct status_line *st)
{
	if (st->shown && st->drawn && relay_fd >= 0)
		relay("");
	else if (st->shown && st->drawn)
		say("\r\033[K", 4);
	st->drawn = false;
}

void draw_sanitize_status(struct status_line *st, unsigned int progress, unsigned long estimate_s)
{
	char text[96];

	if (!st->shown)
		return;
	if (estimate_s)
		snprintf(text, sizeof(text), "sanitize: %u%% done, about %lu s left (the controller's estimate)",
			 progress * 100 / 65536, (unsigned long)((unsigned long long)estimate_s * (65536 - progress) / 65536));
	else
		snprintf(text, sizeof(text), "sanitize: %u%% done", progress * 100 / 65536);
	status_draw(st, text);
}

void draw_rate_status(struct status_line *st, const char *what, unsigned int progress, unsigned int from,
		      double elapsed_s)
{
	char text[96];
	unsigned int percent = progress * 100 / 65536;

	if (!st->shown)
		return;
	/* The rate so far says the rest, once there is a rate to go by (1% of the way). */
	if (progress >= from + 655 && elapsed_s >= 1)
		snprintf(text, sizeof(text), "%s: %u%% done, about %.0f s left", what, percent,
			 elapsed_s * (65536 - progress) / (progress - from));
	else
		snprintf(text, sizeof(text), "%s: %u%% done", what, percent);
	status_draw(st, text);
}

void draw_trim_status(struct status_line *st, unsigned int done, unsigned int total)
{
	char text[64];

	if (!st->shown)
		return;
	snprintf(text, sizeof(text), "trim: %u of %u ranges done", done, total);
	status_draw(st, text);
}

static volatile sig_atomic_t poll_signal;
static struct sigaction saved_int, saved_term, saved_hup;

static void on_poll_signal(int sig)
{
	poll_signal = sig;
}

void poll_wait_begin(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_poll_signal;
	poll_signal = 0;
	/* A closed terminal or ssh session: the wait ends as on Ctrl-C.  Each unless it was ignored (nohup, `cmd &`). */
	catch_signal(SIGINT, &sa, &saved_int);
	catch_signal(SIGTERM, &sa, &saved_term);
	catch_signal(SIGHUP, &sa, &saved_hup);
}

bool poll_wait_interrupted(void)
{
	return poll_signal != 0;
}

void poll_wait_end(void)
{
	sigaction(SIGINT, &saved_int, NULL);
	sigaction(SIGTERM, &saved_term, NULL);
	sigaction(SIGHUP, &saved_hup, NULL);
}

static sigset_t held_saved;
static bool held;

void poll_wait_hold(void)
{
	static const int stops[] = { SIGINT, SIGTERM, SIGHUP };
	sigset_t set;

	if (held)
		return;
	sigemptyset(&set);
	/* A signal that whoever started hdparm chose to ignore stays ignored: nothing to hold. */
	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
		struct sigaction now;

		if (sigaction(stops[i], NULL, &now) == 0 && now.sa_handler != SIG_IGN)
			sigaddset(&set, stops[i]);
	}
	held = pthread_sigmask(SIG_BLOCK, &set, &held_saved) == 0;
}

void poll_wait_release(void)
{
	if (!held)
		return;
	held = false;
	pthread_sigmask(SIG_SETMASK, &held_saved, NULL);
}

int poll_wait_report_interrupt(const char *option)
{
	return poll_wait_report_interrupt_of(option, "sanitize", "--sanitize-status");
}

int poll_wait_report_interrupt_of(const char *option, const char *what, const char *follow)
{
	char key[32];

	complain(" %s: interrupted: the %s goes on in the drive (%s shows where it stands)\n", option, what, follow);
	snprintf(key, sizeof(key), "%s_wait", what);
	json_object_begin(key);
	json_bool("interrupted", true);
	json_bool("drive_continues", true);
	json_object_end();
	return EINTR;
}
