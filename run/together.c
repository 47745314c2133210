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
 *   "P PATH"         its erase record, kept at PATH (written before the erase)
 * and is answered at the gate with "go", or "stop ERRNO TEXT".
 *
 * A disk's process can die (the OOM killer, a stray kill): before the gate
 * opens that is a refusal, and nothing goes to any disk; after it, the disk
 * is said to be in an unknown state.  This process never dies of a closed
 * pipe (SIGPIPE is ignored while the disks run).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "erase_record.h"
#include "json.h"
#include "progress.h"
#include "reach.h"
#include "report.h"
#include "secret.h"
#include "together.h"

enum stage { CHECKING, READY, REFUSED, DIED, RUNNING, ENDED, KILLED };

#define MAX_REACHED (REACH_MAX + 1)

struct member {
	const struct job *job;
	pid_t pid;
	int out, err, msg, gate;	/* this end of its stdout, stderr, messages; the gate's answer */
	enum stage stage;
	char status[160];
	char *msgs;			/* message bytes not yet taken */
	size_t msgs_len, json_wanted;
	FILE *log;			/* its stdout and stderr in the order they came: a stream byte, a length, the bytes */
	char *log_buf;
	size_t log_len;
	char *json;
	size_t json_len;
	size_t json_cut;		/* bytes of its device object that never came (0: it came whole, or none) */
	dev_t reached[MAX_REACHED];
	unsigned int n_reached;
	char record[512];		/* its erase record's path, "" where none */
	bool reaped;			/* wait_status holds how its process ended */
	int wait_status;
	int exit_status;
};

/* ---- a disk's process ---- */

struct child_end {
	int msg, gate;
};

static void send_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* The whole disks dev's erase reaches: the reach the guards found, else the node's own disk. */
static size_t reached_text(const struct device *dev, char *buf, size_t size)
{
	struct stat st;
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; dev->reach_valid && i < dev->reach.n && len + 24 < size; i++)
		len += (size_t)snprintf(buf + len, size - len, " %u:%u", major(dev->reach.disk[i].devnum),
					minor(dev->reach.disk[i].devnum));
	if (!len && fstat(dev->fd, &st) == 0 && S_ISBLK(st.st_mode))
		len = (size_t)snprintf(buf, size, " %u:%u", major(st.st_rdev), minor(st.st_rdev));
	return len;
}

/* The gate, on the disk's side: say what the checks found, then wait for the answer. */
static int wait_at_gate(struct device *dev, int status, void *arg)
{
	const struct child_end *end = arg;
	char line[512], reached[400];
	size_t len = 0;

	if (status) {
		send_all(end->msg, "N\n", 2);
		return status;
	}
	if (erase_record_path(dev)) {
		char path[600];

		snprintf(path, sizeof(path), "P %s\n", erase_record_path(dev));
		send_all(end->msg, path, strlen(path));
	}
	reached_text(dev, reached, sizeof(reached));
	snprintf(line, sizeof(line), "R%s\n", reached);
	send_all(end->msg, line, strlen(line));
	while (len + 1 < sizeof(line)) {
		ssize_t n = read(end->gate, line + len, 1);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 || line[len] == '\n')
			break;
		len++;
	}
	line[len] = '\0';
	if (strcmp(line, "go") == 0)
		return 0;
	if (strncmp(line, "stop ", 5) == 0) {
		char *text;
		long err = strtol(line + 5, &text, 10);

		if (*text == ' ' && err > 0 && err < 256) {
			complain(" %s\n", text + 1);
			return (int)err;
		}
	}
	/* The process that holds the gate is gone: nothing is sent. */
	complain(" not started: hdparm stopped before the erases began\n");
	return ECANCELED;
}

static void run_member(const struct job *job, const struct run_flags *run, struct child_end *end)
{
	struct erase_gate gate = { .wait = wait_at_gate, .arg = end };
	bool refused = false;
	int status;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* The output goes on to its end where the process that shows it went away: the record is still written. */
	signal(SIGPIPE, SIG_IGN);
	progress_relay(end->msg);
	status = process_device(job->device, &job->s, run, &gate, &refused);
	fflush(stdout);
	if (run->json) {
		size_t len;
		const char *text = json_devices_text(&len);
		char head[32];

		snprintf(head, sizeof(head), "J %zu\n", len);
		send_all(end->msg, head, strlen(head));
		send_all(end->msg, text, len);
	}
	/* Not exit(): the JSON document and the buffers are this process's copies of the whole run's. */
	_exit(status > 0 && status < 256 ? status : status ? 1 : 0);
}

/* ---- this process: the gate, the status lines, the output ---- */

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static void close_member(struct member *m)
{
	close_fd(&m->out);
	close_fd(&m->err);
	close_fd(&m->msg);
	close_fd(&m->gate);
}

/* Four pipes for m: 0 once all are made. */
static int make_pipes(struct member *m, int child[4])
{
	int p[4][2];

	for (int i = 0; i < 4; i++)
		if (pipe(p[i])) {
			int err = errno;

			while (i--) {
				close(p[i][0]);
				close(p[i][1]);
			}
			return err;
		}
	/* The disk's process writes its stdout, stderr and messages, and reads the gate's answer. */
	m->out = p[0][0], child[0] = p[0][1];
	m->err = p[1][0], child[1] = p[1][1];
	m->msg = p[2][0], child[2] = p[2][1];
	child[3] = p[3][0], m->gate = p[3][1];
	return 0;
}

static int start_member(struct member *all, int k, const struct run_flags *run)
{
	struct member *m = &all[k];
	int child[4] = { -1, -1, -1, -1 }, err;

	if ((err = make_pipes(m, child)))
		return err;
	m->pid = fork();
	if (m->pid == 0) {
		struct child_end end = { .msg = child[2], .gate = child[3] };

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
	return err;
}

static void keep_output(struct member *m, char stream, const char *p, size_t n)
{
	unsigned int len = (unsigned int)n;

	if (!m->log)
		m->log = open_memstream(&m->log_buf, &m->log_len);
	if (!m->log)
		return;
	fputc(stream, m->log);
	fwrite(&len, sizeof(len), 1, m->log);
	fwrite(p, 1, n, m->log);
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
			m->stage = READY;
			take_reached(m, m->msgs + at + 1);
			break;
		case 'N':
			m->stage = REFUSED;
			break;
		case 'S':
			snprintf(m->status, sizeof(m->status), "%s", m->msgs + at + (nl > m->msgs + at + 1 ? 2 : 1));
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
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	if (fd == m->out || fd == m->err) {
		keep_output(m, fd == m->out ? 'o' : 'e', buf, (size_t)n);
		return true;
	}
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
	if (m->stage == CHECKING || m->stage == READY)
		m->stage = m->reaped && WIFSIGNALED(m->wait_status) ? DIED : REFUSED;
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
			 " (--continue-on-refusal erases the others)\n", ECANCELED, m->job->device);
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
					 " erased once, named once\n", EINVAL, m[j].job->device, m[i].job->device);
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
}

/* ---- the status lines: one per disk, redrawn in place on a terminal ---- */

struct screen {
	bool shown;
	int lines;		/* drawn last time */
	unsigned int width;
};

static const char *stage_text(const struct member *m)
{
	static const char *const text[] = {
		[CHECKING] = "checking", [READY] = "checked, waiting for the other disks",
		[REFUSED] = "refused", [DIED] = "its process died", [RUNNING] = "running", [ENDED] = "ended",
		[KILLED] = "its process was killed",
	};

	return m->status[0] && (m->stage < DIED || m->stage == RUNNING) ? m->status : text[m->stage];
}

static void draw(struct screen *sc, const struct member *m, int n)
{
	char line[400];

	if (!sc->shown)
		return;
	if (sc->lines) {
		snprintf(line, sizeof(line), "\033[%dA", sc->lines);
		send_all(STDERR_FILENO, line, strlen(line));
	}
	for (int i = 0; i < n; i++) {
		int len = snprintf(line, sizeof(line), "\r%s: %s", m[i].job->device, stage_text(&m[i]));

		/* A line that wraps would throw the redraw off by one. */
		if (len > (int)sc->width)
			len = (int)sc->width;
		if (len > (int)sizeof(line) - 1)
			len = (int)sizeof(line) - 1;
		send_all(STDERR_FILENO, line, (size_t)len);
		send_all(STDERR_FILENO, "\033[K\n", 4);
	}
	sc->lines = n;
}

static void wipe(struct screen *sc)
{
	char line[32];

	if (!sc->shown || !sc->lines)
		return;
	snprintf(line, sizeof(line), "\033[%dA\r\033[J", sc->lines);
	send_all(STDERR_FILENO, line, strlen(line));
	sc->lines = 0;
}

static void screen_begin(struct screen *sc, const struct run_flags *run)
{
	struct winsize ws;

	sc->shown = !run->json && isatty(STDERR_FILENO);
	sc->lines = 0;
	sc->width = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 ? ws.ws_col - 1u : 79u;
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

/* Everything the disks' processes say, until all have ended. */
static void follow(struct member *m, int n, const struct run_flags *run, bool go_on)
{
	struct pollfd *pfd;
	struct screen sc;
	bool gate_open = false;
	int forwarded = 0;

	if (n <= 0)
		return;
	pfd = calloc((size_t)n * 3, sizeof(*pfd));

	screen_begin(&sc, run);
	draw(&sc, m, n);
	for (;;) {
		int k = 0, waiting = 0;
		bool changed = false;

		for (int i = 0; i < n; i++) {
			int fds[3] = { m[i].out, m[i].err, m[i].msg };

			for (int j = 0; j < 3; j++)
				if (fds[j] >= 0)
					pfd[k++] = (struct pollfd){ .fd = fds[j], .events = POLLIN };
			waiting += m[i].stage == CHECKING;
		}
		if (!gate_open && !waiting) {
			open_gate(m, n, go_on);
			gate_open = changed = true;
		}
		if (!k || !pfd)
			break;
		/* A signal sent to this process alone goes on to the disks' (a terminal's reaches all). */
		if (stop_signal && forwarded != stop_signal) {
			forwarded = stop_signal;
			for (int i = 0; i < n; i++)
				if (m[i].pid > 0)
					kill(m[i].pid, stop_signal);
		}
		if (changed)
			draw(&sc, m, n);
		if (poll(pfd, (nfds_t)k, 1000) <= 0)
			continue;
		for (int p = 0; p < k; p++) {
			if (!pfd[p].revents)
				continue;
			for (int i = 0; i < n; i++) {
				int *fd = pfd[p].fd == m[i].out ? &m[i].out : pfd[p].fd == m[i].err ? &m[i].err
								 : pfd[p].fd == m[i].msg ? &m[i].msg : NULL;

				if (fd && !read_from(&m[i], *fd, &changed)) {
					bool msgs_ended = fd == &m[i].msg;

					close_fd(fd);
					if (msgs_ended)
						member_ended(&m[i]);
					changed |= msgs_ended;
				}
			}
		}
		if (changed)
			draw(&sc, m, n);
	}
	wipe(&sc);
	free(pfd);
}

/* m's stdout and stderr, as they came. */
static void replay(struct member *m)
{
	size_t at = 0;

	if (!m->log)
		return;
	fclose(m->log);
	m->log = NULL;
	while (at + 1 + sizeof(unsigned int) <= m->log_len) {
		char stream = m->log_buf[at];
		unsigned int len;

		memcpy(&len, m->log_buf + at + 1, sizeof(len));
		at += 1 + sizeof(len);
		if (len > m->log_len - at)
			break;
		if (stream == 'o')
			fwrite(m->log_buf + at, 1, len, stdout);
		else {
			fflush(stdout);
			fwrite(m->log_buf + at, 1, len, stderr);
		}
		at += len;
	}
	fflush(stdout);
}

/* Where the drive shows how an erase it was sent stands. */
static const char *how_to_follow(const struct settings *s)
{
	if (s->v[OPT_SECURITY_ERASE].given || s->v[OPT_SECURITY_ERASE_ENHANCED].given)
		return "the Security section of hdparm -I";
	if (s->v[OPT_TCG_PSID_REVERT].given)
		return "--tcg";
	if (s->v[OPT_SET_SECTOR_SIZE].given || s->v[OPT_FORMAT_WAIT].given)
		return "--format-wait";
	return "--sanitize-status";
}

/* text said on stderr and, where the run is JSON, as m's device object in its place (outcome: NULL, none). */
static void say_instead(const struct member *m, const struct run_flags *run, const char *text, const char *outcome)
{
	if (!run->json) {
		complain("%s", text);
		return;
	}
	json_object_begin(NULL);
	json_string("name", m->job->device);
	report_operation("erase of many disks");
	complain("%s", text);
	if (outcome && settings_erase(&m->job->s))
		json_string("erase_outcome", outcome);
	report_json_errors();
	report_operation(NULL);
	json_object_end();
}

/*
 * m's process was killed: said, and its device object says so.  Its erase
 * record, written before the erase went out, says the outcome is unknown.
 */
static void say_death(const struct member *m, const struct run_flags *run)
{
	int sig = WTERMSIG(m->wait_status);
	char text[1200];

	if (m->stage == DIED)
		snprintf(text, sizeof(text), "%s: its process was killed by signal %d (%s) before the erases began:"
			 " nothing was sent to any disk\n", m->job->device, sig, strsignal(sig));
	else
		snprintf(text, sizeof(text), "%s: the process erasing it was killed by signal %d (%s); the drive may"
			 " still be erasing: check with %s%s%s\n", m->job->device, sig, strsignal(sig),
			 how_to_follow(&m->job->s), m->record[0] ? "; its record says the outcome is unknown: " : "",
			 m->record);
	say_instead(m, run, text, m->stage == DIED ? "not_started" : "unknown");
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
	struct sigaction sa, old_int, old_term, old_pipe;
	bool go_on = false;
	int status = 0, err = 0, started = 0;

	if (!m)
		return ENOMEM;
	/* A disk's process that died leaves a pipe nobody reads: a write to it fails, and kills nothing. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, &old_pipe);
	fflush(stdout);
	fflush(stderr);
	for (int i = 0; i < njobs; i++) {
		m[i] = (struct member){ .job = &jobs[i], .out = -1, .err = -1, .msg = -1, .gate = -1 };
		go_on |= jobs[i].s.v[OPT_CONTINUE_ON_REFUSAL].given;
	}
	for (; started < njobs && !err; started++)
		err = start_member(m, started, run);
	/* Each disk's process has its copy of the PSID (it wipes it): this one's is wiped now (options/secret.h). */
	secret_forget(jobs[0].s.v[OPT_TCG_PSID_REVERT].str);
	if (err) {
		/* The gates that close unanswered send nothing: every disk started stops where it is. */
		complain("cannot erase %d disks at once: %s\n", njobs, strerror(err));
		m[started - 1].stage = REFUSED;
		for (int i = 0; i < njobs; i++)
			close_fd(&m[i].gate);
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	follow(m, started, run, go_on && !err);
	for (int i = 0; i < started; i++) {
		int ws;

		reap(&m[i], true);
		ws = m[i].wait_status;
		m[i].exit_status = !m[i].reaped ? err : WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
	}
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	for (int i = 0; i < started; i++) {
		replay(&m[i]);
		if (m[i].stage == DIED || m[i].stage == KILLED) {
			say_death(&m[i], run);
		} else if (m[i].json_cut) {
			char text[400];

			/* Never spliced in: the document stays whole, and says what is missing. */
			snprintf(text, sizeof(text), "%s: its process's JSON object came cut short (%zu bytes missing): it"
				 " is left out; the output above is all there is\n", m[i].job->device, m[i].json_cut);
			say_instead(&m[i], run, text, NULL);
		} else {
			json_add_devices(m[i].json, m[i].json_len);
		}
		if (m[i].exit_status)
			status = m[i].exit_status;
		close_member(&m[i]);
		free(m[i].msgs);
		free(m[i].log_buf);
		free(m[i].json);
	}
	free(m);
	return err ? err : status;
}
