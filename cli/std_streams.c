/*
 * The standard streams, made safe before anything else runs: fds 0-2 open,
 * and the stop signals held while the output written at exit goes out.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "std_streams.h"

static const char closed_text[] = "hdparm: a standard stream (0, 1 or 2) is closed and /dev/null cannot be opened in its place\n";

/*
 * 0, 1 and 2 open before anything else is: a disk opened while one is
 * closed (`>&-`, `<&-`, `2>&-`) would get its number and receive hdparm's
 * text, or be read as its input.  On /dev/null as coreutils has it: 0
 * write-only and 1 and 2 read-only, so that a use of the closed stream
 * still fails (EBADF) and is said.  False where one stays closed.
 */
bool std_streams_open(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		int got;

		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		got = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
		if (got != fd) {
			if (got >= 0)
				close(got);
			/* Said where stderr is open: nothing is opened, nothing is sent. */
			(void)!write(STDERR_FILENO, closed_text, sizeof(closed_text) - 1);
			return false;
		}
	}
	return true;
}

void std_streams_hold_stops(void)
{
	sigset_t stops;

	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	sigprocmask(SIG_BLOCK, &stops, NULL);
}
