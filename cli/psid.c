/*
 * The PSID read where it cannot be seen: a pipe or a file on standard
 * input ("--tcg-psid-revert -", e.g. from a password manager), or the
 * terminal with its echo off.  Read once a run, before any disk is opened.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "psid.h"
#include "report.h"
#include "secret.h"

/* Room for a PSID of 32 characters, its line's end, and enough more to see that a line is too long. */
static char psid_buf[80];

int psid_check(const char *name, const char *psid)
{
	size_t len = strlen(psid);

	if (len <= 32)
		return 0;
	/* Tries are limited: a PSID copied with the label's dashes is refused here, not by the drive. */
	if (strchr(psid, '-') || strchr(psid, ' '))
		complain("%s: a PSID has at most 32 characters, this one %zu: the dashes and spaces printed between"
			 " its groups on the label are no part of it\n", name, len);
	else
		complain("%s: a PSID has at most 32 characters, this one %zu\n", name, len);
	return EINVAL;
}

/*
 * One line from standard input, its end taken off; false at the end of
 * input or on an error.  read(2) a byte at a time, not stdio: stdio would
 * keep a copy of the line in its buffer, and read past it.  A line longer
 * than the buffer is read to its end (on a terminal, what is left would go
 * to the shell) and kept as long as the buffer holds.
 */
static bool read_line(void)
{
	size_t n = 0;
	ssize_t got;
	char c;

	while ((got = read(STDIN_FILENO, &c, 1)) == 1 || (got < 0 && errno == EINTR)) {
		if (got < 0)
			continue;
		if (c == '\n')
			break;
		if (n < sizeof(psid_buf) - 1)
			psid_buf[n++] = c;
	}
	psid_buf[n] = '\0';
	psid_buf[strcspn(psid_buf, "\r")] = '\0';
	return got == 1 || n > 0;
}

#define PROMPT "PSID (the 32 characters on the drive's label, without dashes): "

/* The terminal as it was before the prompt, and as the prompt has it (echo off). */
static struct termios term_was, term_quiet;
/* The signals that leave the prompt, and their handlers before it. */
static const int prompt_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP };
static struct sigaction prompt_saved[sizeof(prompt_signals) / sizeof(prompt_signals[0])];

/*
 * A signal at the prompt: the echo put back first, then the signal's own
 * action (the process ends, or stops).  Continued after a stop (SIGTSTP,
 * then fg), the prompt comes back, echo off.  Async-signal-safe calls only.
 */
static void on_prompt_signal(int sig)
{
	int saved_errno = errno;
	struct sigaction dfl = { .sa_handler = SIG_DFL }, again = { .sa_handler = on_prompt_signal, .sa_flags = SA_RESTART };
	sigset_t set;

	tcsetattr(STDIN_FILENO, TCSAFLUSH, &term_was);
	(void)!write(STDERR_FILENO, "\n", 1);
	sigaction(sig, &dfl, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	/* Here only after a stop: the prompt again. */
	sigaction(sig, &again, NULL);
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &term_quiet);
	(void)!write(STDERR_FILENO, PROMPT, sizeof(PROMPT) - 1);
	errno = saved_errno;
}

/* Asked on the terminal (standard input), not echoed; the echo back on every way out. */
static bool ask(void)
{
	struct sigaction sa = { .sa_handler = on_prompt_signal, .sa_flags = SA_RESTART };
	const size_t n = sizeof(prompt_signals) / sizeof(prompt_signals[0]);
	bool got;

	if (tcgetattr(STDIN_FILENO, &term_was) != 0)
		return false;
	term_quiet = term_was;
	term_quiet.c_lflag &= ~(tcflag_t)ECHO;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < n; i++)
		sigaction(prompt_signals[i], NULL, &prompt_saved[i]);
	/* A signal ignored (nohup) stays ignored. */
	for (size_t i = 0; i < n; i++)
		if (prompt_saved[i].sa_handler != SIG_IGN)
			sigaction(prompt_signals[i], &sa, NULL);
	/* Echo off before the prompt: what is typed once it shows is neither echoed nor flushed. */
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &term_quiet);
	fputs(PROMPT, stderr);
	fflush(stderr);
	got = read_line();
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &term_was);
	for (size_t i = 0; i < n; i++)
		sigaction(prompt_signals[i], &prompt_saved[i], NULL);
	fputc('\n', stderr);
	return got;
}

const char *psid_read(const char *name, const char *given)
{
	bool from_stdin = given && strcmp(given, "-") == 0;

	/* Held from here (on the command line: from its parsing just before) to its wiping after the session. */
	secret_held();
	if (given && !from_stdin)
		return given;
	if (!from_stdin && !isatty(STDIN_FILENO)) {
		complain("%s: no PSID given, and no terminal to ask for it on: give it, or - to read it from standard"
			 " input (not seen by other users, as the command line is)\n", name);
		return NULL;
	}
	if (from_stdin ? !read_line() : !ask()) {
		complain("%s: no PSID could be read from standard input\n", name);
		return NULL;
	}
	if (!psid_buf[0]) {
		complain("%s: the PSID read is empty\n", name);
		return NULL;
	}
	if (psid_check(name, psid_buf)) {
		secret_forget(psid_buf);
		return NULL;
	}
	return psid_buf;
}
