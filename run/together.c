/*
 * Many disks at once.  An erase can take hours, and a SECURITY ERASE UNIT
 * or a Format NVM holds its caller in the kernel until it ends: only a
 * process per disk lets N of them run side by side.  Each process runs the
 * device as a run of one would (process_device), with its stdout and
 * stderr kept here and its status lines relayed; the gate between its
 * checks and its first command is held here until every disk is checked,
 * so that one refusal sends nothing to any disk.
 *
 * A disk's process talks to this one over its message pipe, a line each:
 *   "R MAJ:MIN ..."  checked and ready, and the disks its erase reaches
 *   "N"              refused (it said why on its stderr)
 *   "S TEXT"         its status line now ("S " alone: none)
 *   "J LEN"          then LEN bytes: its device object of the JSON document
 *   "P PATH"         its erase record, kept at PATH (written before the erase;
 *                    a newline in PATH comes as "\n": it must not end the line)
 * and is answered at the gate with "go", or "stop ERRNO TEXT".
 *
 * A disk's process can die (the OOM killer, a stray kill): before the gate
 * opens that is a refusal, and nothing goes to any disk; after it, the disk
 * is said to be in an unknown state.  A signal to this process before the
 * gate opens refuses the whole run at once (a process stopped or held in
 * its checks is ended, not waited for); after it, the signal goes on to the
 * disks' processes.  A disk's process whose parent is gone gets SIGTERM
 * (PR_SET_PDEATHSIG) and stops as a run of one stops on it: no process
 * outlives this one unnoticed.  This process never dies of a closed pipe
 * (SIGPIPE stays ignored from the start of the run to the end: a reader of
 * stdout that went away loses stdout, never the lines said on stderr).
 *
 * The lines name what the run does: an erase, a format or a firmware
 * download (struct words).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catch_signal.h"
#include "clock.h"
#include "report.h"
#include "secret.h"
#include "together.h"
#include "together_parts.h"

/* What the run does, in its lines (words_of), and what its disks' processes are started with. */
static const struct words *words;
static struct member_start start;

static volatile sig_atomic_t stop_signal, stops_seen;
/* The stop signals follow() has acted on; a second one ends the disks' processes (force_end). */
static sig_atomic_t stops_taken;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
	stops_seen++;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void close_member(struct member *m)
{
	/* The reader thread's socket is closed by it, once it has taken the last of it. */
	if (streams_threaded(m)) {
		streams_ended(m);
	} else {
		close_fd(&m->out);
		close_fd(&m->senders[0]);
		close_fd(&m->senders[1]);
	}
	close_fd(&m->err);
	close_fd(&m->msg);
	close_fd(&m->gate);
}

/* m's stdout and stderr (together_streams.c), then its message and gate pipes: 0 once all are made. */
static int make_pipes(struct member *m, int child[4])
{
	int p[2][2], err = streams_open(m, child);

	for (int i = 0; !err && i < 2; i++)
		if (pipe(p[i])) {
			err = errno;
			while (i--) {
				close(p[i][0]);
				close(p[i][1]);
			}
		}
	if (err) {
		close_member(m);
		for (int i = 0; i < 2; i++)
			if (child[i] >= 0)
				close(child[i]);
		return err;
	}
	/* The disk's process writes its messages, and reads the gate's answer. */
	m->msg = p[0][0], child[2] = p[0][1];
	child[3] = p[1][0], m->gate = p[1][1];
	return 0;
}

/* m's process started: 0, or the errno of what failed (*what: "pipe" or "fork"), m left closed. */
static int start_member(struct member *all, int k, const struct run_flags *run, const char **what)
{
	struct member *m = &all[k];
	int child[4] = { -1, -1, -1, -1 }, err;

	*what = "pipe";
	if ((err = make_pipes(m, child)))
		return err;
	*what = "fork";
	m->pid = fork();
	if (m->pid == 0) {
		struct member_start end = start;

		end.msg = child[2], end.gate = child[3];
		for (int i = 0; i <= k; i++)
			close_member(&all[i]);
		dup2(child[0], STDOUT_FILENO);
		dup2(child[1], STDERR_FILENO);
		close(child[0]);
		close(child[1]);
		run_member(m->job, run, &end);
	}
	err = m->pid < 0 ? errno : 0;
	for (int i = 0; i < 4; i++)
		close(child[i]);
	if (err)
		close_member(m);
	return err;
}

/* " MAJ:MIN MAJ:MIN ...": the disks a device's erase reaches. */
static void take_reached(struct member *m, const char *text)
{
	while (m->n_reached < MAX_REACHED) {
		char *end;
		unsigned long maj = strtoul(text, &end, 10), min;

		if (end == text || *end != ':')
			return;
		text = end + 1;
		min = strtoul(text, &end, 10);
		if (end == text)
			return;
		m->reached[m->n_reached++] = makedev((unsigned int)maj, (unsigned int)min);
		text = end;
	}
}

/* The whole messages in m's buffer, taken; returns true when something shown changed. */
static bool take_messages(struct member *m)
{
	bool changed = false;
	size_t at = 0;

	while (at < m->msgs_len) {
		char *nl;

		if (m->json_wanted) {
			size_t n = m->msgs_len - at < m->json_wanted ? m->msgs_len - at : m->json_wanted;
			char *grown = realloc(m->json, m->json_len + n);

			if (grown) {
				memcpy(grown + m->json_len, m->msgs + at, n);
				m->json = grown;
				m->json_len += n;
			}
			at += n;
			m->json_wanted -= n;
			continue;
		}
		nl = memchr(m->msgs + at, '\n', m->msgs_len - at);
		if (!nl)
			break;
		*nl = '\0';
		switch (m->msgs[at]) {
		case 'R':
			/* Ready, unless this process already gave its answer (a process that could not start, a signal). */
			if (m->stage == CHECKING)
				m->stage = READY;
			take_reached(m, m->msgs + at + 1);
			break;
		case 'N':
			m->stage = REFUSED;
			break;
		case 'S':
			snprintf(m->status, sizeof(m->status), "%s", m->msgs + at + (nl > m->msgs + at + 1 ? 2 : 1));
			if (m->words->reads_only)
				scan_status_take(&m->scan, m->status);
			break;
		case 'J':
			m->json_wanted = strtoul(m->msgs + at + 1, NULL, 10);
			break;
		case 'P':
			snprintf(m->record, sizeof(m->record), "%s", m->msgs + at + (nl > m->msgs + at + 1 ? 2 : 1));
			break;
		}
		changed = true;
		at = (size_t)(nl - m->msgs) + 1;
	}
	memmove(m->msgs, m->msgs + at, m->msgs_len - at);
	m->msgs_len -= at;
	return changed;
}

/* What came on fd (one of m's), kept; false at its end. */
static bool read_from(struct member *m, int fd, bool *changed)
{
	char buf[4096];
	ssize_t n;

	if (fd == m->out || fd == m->err)
		return streams_take(m, fd);
	n = read(fd, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	{
		char *grown = realloc(m->msgs, m->msgs_len + (size_t)n);

		if (!grown)
			return false;
		memcpy(grown + m->msgs_len, buf, (size_t)n);
		m->msgs = grown;
		m->msgs_len += (size_t)n;
	}
	*changed |= take_messages(m);
	return true;
}

/* How m's process ended, once it has (wait: block until then); false while it runs. */
static bool reap(struct member *m, bool wait)
{
	pid_t got;

	if (m->reaped || m->pid <= 0)
		return m->reaped;
	while ((got = waitpid(m->pid, &m->wait_status, wait ? 0 : WNOHANG)) < 0 && errno == EINTR)
		;
	m->reaped = got == m->pid;
	return m->reaped;
}

/* m's process ended without its answer: before the gate it was killed, or it died some other way. */
static void died_before_gate(struct member *m)
{
	if (m->stage == CHECKING || m->stage == READY) {
		m->gate_reached = m->stage == READY;
		m->stage = m->reaped && WIFSIGNALED(m->wait_status) ? DIED : REFUSED;
	}
}

static bool shares_a_disk(const struct member *a, const struct member *b)
{
	for (unsigned int i = 0; i < a->n_reached; i++)
		for (unsigned int j = 0; j < b->n_reached; j++)
			if (a->reached[i] == b->reached[j])
				return true;
	return false;
}

static void answer(struct member *m, const char *text)
{
	send_all(m->gate, text, strlen(text));
	close_fd(&m->gate);
}

/* Why the disks were not started: m, the first that cannot go on. */
static void why_not_started(const struct member *m, char *text, size_t size)
{
	if (m->stage == DIED)
		snprintf(text, size, "stop %d not started: the process checking %s was killed by signal %d (%s), so"
			 " nothing was sent to any disk\n", ECANCELED, m->job->device, WTERMSIG(m->wait_status),
			 strsignal(WTERMSIG(m->wait_status)));
	else
		snprintf(text, size, "stop %d not started: %s was refused, so nothing was sent to any disk"
			 " (--continue-on-refusal %s)\n", ECANCELED, m->job->device, words->others);
}

/*
 * Every disk checked: the gate opens for all, or for none where one was
 * refused (without --continue-on-refusal).  Two names of one disk are one
 * refusal: its erase would go out twice.
 */
static void open_gate(struct member *m, int n, bool go_on)
{
	const struct member *refused = NULL;
	char text[600];

	/* A process killed while it waited here is seen now, not after its disk's erase was let go. */
	for (int i = 0; i < n; i++)
		if (m[i].stage == READY && reap(&m[i], false))
			died_before_gate(&m[i]);
	for (int i = 0; i < n && !refused; i++)
		if (m[i].stage == DIED)
			refused = &m[i];
	for (int i = 0; i < n && !refused; i++)
		if (m[i].stage != READY)
			refused = &m[i];
	for (int j = 0; j < n; j++)
		for (int i = 0; i < j && m[j].stage == READY; i++)
			if (m[i].stage == READY && shares_a_disk(&m[i], &m[j])) {
				snprintf(text, sizeof(text), "stop %d %s reaches a disk that %s reaches too: each disk is"
					 " %s once, named once\n", EINVAL, m[j].job->device, m[i].job->device, words->once);
				answer(&m[j], text);
				m[j].stage = REFUSED;
				if (!refused)
					refused = &m[j];
			}
	for (int i = 0; i < n; i++) {
		if (m[i].stage != READY)
			continue;
		/* A process killed before the gate is never taken as a refusal --continue-on-refusal passes over. */
		if (refused && (!go_on || refused->stage == DIED)) {
			why_not_started(refused, text, sizeof(text));
			answer(&m[i], text);
			m[i].stage = REFUSED;
		} else {
			answer(&m[i], "go\n");
			m[i].stage = RUNNING;
		}
	}
	/* One not answered (refused, or said so falsely) never waits here: it reads the gate's end, not a hang. */
	for (int i = 0; i < n; i++)
		close_fd(&m[i].gate);
}

/* ---- the whole run ---- */

/*
 * m's messages ended: its process is ending (it holds them to its end).
 * One that ended before the gate was refused (it said why) or was killed;
 * one killed after it left its disk in a state nobody knows.  A device
 * object cut short is dropped, never spliced into the document.
 */
static void member_ended(struct member *m)
{
	reap(m, true);
	if (m->json_wanted) {
		m->json_cut = m->json_wanted;
		free(m->json);
		m->json = NULL;
		m->json_len = m->json_wanted = 0;
	}
	if (m->stage == CHECKING || m->stage == READY)
		died_before_gate(m);
	else if (m->stage == RUNNING)
		m->stage = WIFSIGNALED(m->wait_status) ? KILLED : ENDED;
}

/* How long the disks' processes have to end once a signal refused the run: only one held in the kernel takes longer. */
#define END_WITHIN_S 2.0

/*
 * A signal before the gate opened: the run is refused, nothing goes to any
 * disk.  A process at the gate is told so; one still in its checks is ended
 * (SIGTERM: a record being written is finished first).  Each is continued,
 * should it be stopped (SIGSTOP), so that it can end.
 */
static void stop_at_gate(struct member *m, int n, int sig)
{
	char text[400];

	snprintf(text, sizeof(text), "stop %d not started: hdparm was interrupted by signal %d (%s) before the %s"
		 " began, so nothing was sent to any disk\n", ECANCELED, sig, strsignal(sig), words->plural);
	for (int i = 0; i < n; i++) {
		/* Killed already by this same signal (a terminal's ^C reaches every process): said as the others are. */
		if (m[i].stage == DIED && WIFSIGNALED(m[i].wait_status) && WTERMSIG(m[i].wait_status) == sig) {
			m[i].stage = HALTED;
			m[i].halted_by = sig;
		}
		if (m[i].reaped || m[i].pid <= 0)
			continue;
		if (m[i].stage == READY) {
			answer(&m[i], text);
			m[i].stage = REFUSED;
			m[i].halted_by = sig;	/* said by its process, unless the signal (a terminal's) killed it too */
			m[i].gate_reached = true;
		} else if (m[i].stage == CHECKING) {
			close_fd(&m[i].gate);
			m[i].stage = HALTED;
			m[i].halted_by = sig;
			kill(m[i].pid, SIGTERM);
		}
		kill(m[i].pid, SIGCONT);
	}
}

/* The processes that did not end in time (held in the kernel, traced): killed, and left to end when they can. */
static void abandon(struct member *m, int n, int sig)
{
	for (int i = 0; i < n; i++) {
		/* Its messages end with it: where they did, only output that came too late is lost. */
		if (m[i].msg >= 0 && !m[i].reaped && m[i].pid > 0) {
			kill(m[i].pid, SIGKILL);
			m[i].abandoned = !reap(&m[i], false);
			if (m[i].stage == RUNNING) {
				/* Killed while it ran (a second signal): said as a process killed, not as one never started. */
				m[i].stage = KILLED;
				if (m[i].abandoned)
					m[i].wait_status = SIGKILL;	/* as waitpid() gives a process killed by it */
			} else {
				m[i].stage = HALTED;
				m[i].halted_by = sig;
			}
		}
		close_member(&m[i]);
	}
}
/*
 * A signal to this process: before the gate opened it refuses the run;
 * after, it goes on to the disks' processes (a terminal's reaches them all,
 * a kill names this one alone), SIGHUP as SIGTERM.  *end_by: when the
 * processes must have ended, once the run was refused.
 */
static void signal_seen(struct member *m, int n, bool *gate_open, double *end_by, int *forwarded)
{
	int sig = stop_signal;
	bool again = stops_taken > 0;

	if (!sig || stops_seen == stops_taken)
		return;
	stops_taken = stops_seen;
	/*
	 * A second stop signal: the wait ends with what is known.  A disk's
	 * process that would not end (a disk that hangs holds its read) is
	 * killed; one held in the kernel even so is left behind after
	 * END_WITHIN_S, and the others' summaries are said.
	 */
	if (again && *gate_open && !*end_by) {
		complain("hdparm: signal %d (%s) again: the disks' processes still running are killed\n", sig, strsignal(sig));
		for (int i = 0; i < n; i++)
			if (m[i].pid > 0 && !m[i].reaped)
				kill(m[i].pid, SIGKILL);
		*end_by = monotonic_seconds() + END_WITHIN_S;
		/* Acted on: not raised again once the report is out (SIGINT, then SIGTERM: exit 137, as twice SIGINT). */
		*forwarded = sig;
		return;
	}
	if (sig == *forwarded)
		return;
	if (!*gate_open) {
		*forwarded = sig;
		stop_at_gate(m, n, sig);
		*gate_open = true;
		*end_by = monotonic_seconds() + END_WITHIN_S;
		return;
	}
	/*
	 * Continued too, should it be stopped (SIGSTOP): a stopped process would hold the signal, and this run, for good.
	 * Passed on to none (every disk's process had ended: it came while their text was said), it acts after the report.
	 */
	for (int i = 0; i < n; i++)
		if (m[i].pid > 0 && !reap(&m[i], false)) {
			kill(m[i].pid, sig == SIGHUP ? SIGTERM : sig);
			kill(m[i].pid, SIGCONT);
			*forwarded = sig;
		}
}
/* m's process waited for (unless left behind), and its exit status set from how it ended. */
static void settle(struct member *m)
{
	int ws;

	reap(m, !m->abandoned);
	ws = m->wait_status;
	/* Told at the gate that a signal refused the run, and killed by it (^C reaches every process): it said nothing. */
	if (m->stage == REFUSED && m->halted_by && m->reaped && WIFSIGNALED(ws))
		m->stage = HALTED;
	m->exit_status = m->stage == HALTED || (!m->reaped && m->stage != KILLED) ? ECANCELED
			 : WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/* Its process ended after the gate opened, and all it said taken: nothing about it can change any more. */
static bool finished(const struct member *m)
{
	return (m->stage == ENDED || m->stage == KILLED) && (m->reaped || m->abandoned) && streams_closed(m) &&
	       m->msg < 0;
}

/*
 * The disks that have finished, said as soon as every disk named before
 * them has too: a disk that hangs does not hold back the summaries of the
 * disks named before it, and the run's text stays in the order named.
 */
static void say_finished(struct member *m, int n, const struct run_flags *run, struct said *said, struct screen *sc)
{
	bool wiped = false;

	while (said->next < n && finished(&m[said->next])) {
		if (!wiped)
			together_wipe(sc);
		wiped = true;
		settle(&m[said->next]);
		say_member(&m[said->next], run, said);
	}
	if (wiped)
		together_draw(sc, m, n);
}

/* What came on the descriptors poll found ready, taken; a process whose messages ended, seen to its end. */
static bool take_ready(struct member *m, int n, const struct pollfd *pfd, int k)
{
	bool changed = false;

	for (int p = 0; p < k; p++) {
		if (!pfd[p].revents)
			continue;
		for (int i = 0; i < n; i++) {
			int out = streams_threaded(&m[i]) ? -1 : m[i].out;
			int *fd = pfd[p].fd == out ? &m[i].out : pfd[p].fd == m[i].err ? &m[i].err
						  : pfd[p].fd == m[i].msg ? &m[i].msg : NULL;

			if (fd && !read_from(&m[i], *fd, &changed)) {
				bool msgs_ended = fd == &m[i].msg;

				close_fd(fd);
				if (msgs_ended) {
					member_ended(&m[i]);
					streams_ended(&m[i]);
				}
				changed |= msgs_ended;
			}
		}
	}
	return changed;
}

/*
 * Everything the disks' processes say, until all have ended (or, refused by
 * a signal, were left).  Returns the signal last passed on (0: none).
 */
static int follow(struct member *m, int n, const struct run_flags *run, bool go_on, struct said *said,
		  struct pollfd *pfd)
{
	struct screen sc;
	bool gate_open = false, early = false;	/* early: the gate opened, no signal before it: say_finished */
	int forwarded = 0, woken;
	double end_by = 0;

	if (n <= 0)
		return 0;
	woken = streams_follow(m, n);

	together_screen_begin(&sc, run);
	together_draw(&sc, m, n);
	for (;;) {
		int k = 0, waiting = 0, wait_ms = 1000;
		bool changed = false, open_left = false;

		signal_seen(m, n, &gate_open, &end_by, &forwarded);
		if (end_by && monotonic_seconds() >= end_by) {
			abandon(m, n, forwarded);
			changed = true;
		}
		if (early)
			say_finished(m, n, run, said, &sc);
		for (int i = 0; i < n; i++) {
			int fds[3] = { streams_threaded(&m[i]) ? -1 : m[i].out, m[i].err, m[i].msg };

			for (int j = 0; j < 3; j++)
				if (fds[j] >= 0)
					pfd[k++] = (struct pollfd){ .fd = fds[j], .events = POLLIN };
			waiting += m[i].stage == CHECKING;
			/* Its socket still the reader thread's: this loop goes on until it is closed. */
			open_left |= !streams_closed(&m[i]);
		}
		if (!gate_open && !waiting) {
			open_gate(m, n, go_on);
			gate_open = changed = early = true;
		}
		if (!k && !open_left)
			break;
		if (woken >= 0)
			pfd[k++] = (struct pollfd){ .fd = woken, .events = POLLIN };
		if (changed)
			together_draw(&sc, m, n);
		if (end_by && (end_by - monotonic_seconds()) * 1000 < wait_ms)
			wait_ms = (int)((end_by - monotonic_seconds()) * 1000) + 1;
		if (poll(pfd, (nfds_t)k, wait_ms) <= 0)
			continue;
		if (woken >= 0 && pfd[k - 1].revents)
			streams_woken();
		if (take_ready(m, n, pfd, k))
			together_draw(&sc, m, n);
	}
	streams_follow_end();
	together_wipe(&sc);
	return forwarded;
}

/* The disks started are told why at their gate; the one that failed and those after it are said at the end. */
static void tell_not_started(struct member *m, int started, const struct start_failure *f)
{
	char text[600];

	snprintf(text, sizeof(text), "stop %d not started: the process for %s could not be started (%s: %s), so"
		 " nothing was sent to any disk\n", ECANCELED, m[f->failed].job->device, f->what, strerror(f->err));
	for (int i = 0; i < started; i++) {
		answer(&m[i], text);
		m[i].stage = REFUSED;
	}
}

bool jobs_erase_together(const struct job *jobs, int njobs)
{
	for (int i = 0; njobs > 1 && i < njobs; i++)
		if (settings_together(&jobs[i].s))
			return true;
	return false;
}

int run_jobs_together(const struct job *jobs, int njobs, const struct run_flags *run)
{
	struct member *m = calloc((size_t)njobs, sizeof(*m));
	/* What follow() polls: each disk's three descriptors and the reader thread's nudge, had before any disk's process. */
	struct pollfd *pfd = calloc((size_t)njobs * 3 + 1, sizeof(*pfd));
	struct sigaction sa;
	struct start_failure fail = { .failed = -1 };
	sigset_t stops;
	bool go_on = false;
	int status, started = 0, forwarded;
	struct said said = { 0 };

	if (!m || !pfd) {
		free(m);
		free(pfd);
		return ENOMEM;
	}
	words = words_of(jobs, njobs);
	start = (struct member_start){ .parent = getpid(), .words = words };
	stop_signal = 0;
	stops_seen = stops_taken = 0;
	/* A disk's process that died leaves a pipe nobody reads, as a reader of stdout can: a write fails, and kills nothing. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
	/*
	 * From the first fork on, a signal is seen (a disk's process puts back
	 * the handling hdparm was started with), unless it was ignored: nohup,
	 * or `cmd &` in a script, whose ^C is not meant for the erases.
	 */
	sa.sa_handler = on_stop_signal;
	/*
	 * A write that waits (a stdout whose reader is slow) is not cut short
	 * by the signal: stdio would drop what a finished disk said (EINTR).
	 * poll() still returns at once, and this process sends no command.
	 */
	sa.sa_flags = SA_RESTART;
	catch_signal(SIGINT, &sa, &start.intr);
	catch_signal(SIGTERM, &sa, &start.term);
	catch_signal(SIGHUP, &sa, &start.hup);
	fflush(stdout);
	fflush(stderr);
	for (int i = 0; i < njobs; i++) {
		m[i] = (struct member){ .job = &jobs[i], .words = words, .out = -1, .err = -1, .msg = -1, .gate = -1,
				    .senders = { -1, -1 } };
		go_on |= jobs[i].s.v[OPT_CONTINUE_ON_REFUSAL].given;
	}
	while (started < njobs && !(fail.err = start_member(m, started, run, &fail.what)))
		started++;
	fail.failed = started;
	/* Each disk's process has its copy of the PSID (it wipes it): this one's is wiped now (options/secret.h). */
	secret_forget(jobs[0].s.v[OPT_TCG_PSID_REVERT].str);
	if (fail.err)
		tell_not_started(m, started, &fail);
	forwarded = follow(m, started, run, go_on && !fail.err, &said, pfd);
	free(pfd);
	for (int i = 0; i < started; i++)
		settle(&m[i]);
	/*
	 * The report, text or JSON (written at exit), is all that says what
	 * became of each disk: a signal from here on waits until it is out,
	 * then acts as hdparm was started to take it (cli/hdparm.c's last exit
	 * handler lets it through).  One that came once every disk had ended,
	 * and was passed on to none, is held the same way.
	 */
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	sigprocmask(SIG_BLOCK, &stops, NULL);
	sigaction(SIGINT, &start.intr, NULL);
	sigaction(SIGTERM, &start.term, NULL);
	sigaction(SIGHUP, &start.hup, NULL);
	if (stop_signal && stop_signal != forwarded)
		raise(stop_signal);
	status = say_members(m, started, run, &said);
	if (fail.err)
		say_not_started(m, njobs, run, &fail);
	for (int i = 0; i < started; i++) {
		close_member(&m[i]);
		free(m[i].msgs);
		free(m[i].log_buf);
		free(m[i].json);
	}
	free(m);
	return fail.err ? fail.err : status;
}
