/*
 * The PSID read where it cannot be seen: a pipe or a file on standard
 * input ("--tcg-psid-revert -", e.g. from a password manager), or the
 * terminal with its echo off.  Read once a run, before any disk is opened.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "psid.h"
#include "report.h"

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

/* One line from standard input, its end taken off; false at the end of input. */
static bool read_line(void)
{
	size_t n;

	if (!fgets(psid_buf, sizeof(psid_buf), stdin))
		return false;
	n = strcspn(psid_buf, "\r\n");
	psid_buf[n] = '\0';
	return true;
}

/* Asked on the terminal (standard input), not echoed. */
static bool ask(void)
{
	struct termios was, quiet;
	bool got;

	if (tcgetattr(STDIN_FILENO, &was) != 0)
		return false;
	quiet = was;
	quiet.c_lflag &= ~(tcflag_t)ECHO;
	/* Echo off before the prompt: what is typed once it shows is neither echoed nor flushed. */
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
	fprintf(stderr, "PSID (the 32 characters on the drive's label, without dashes): ");
	fflush(stderr);
	got = read_line();
	tcsetattr(STDIN_FILENO, TCSAFLUSH, &was);
	fputc('\n', stderr);
	return got;
}

const char *psid_read(const char *name, const char *given)
{
	bool from_stdin = given && strcmp(given, "-") == 0;

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
	return psid_check(name, psid_buf) ? NULL : psid_buf;
}
