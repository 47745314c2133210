/*
 * What a run of many disks at once (run/together.c) shows: one status line
 * per disk on a terminal while they run; then each disk's stdout and stderr
 * as they came, in the order given, as if they had run one after another,
 * and what befell a disk whose process was killed, stopped or never
 * started, in words of what the run does (an erase, a format, a firmware
 * download), with its device object in its place in the JSON document.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "condition.h"
#include "json.h"
#include "report.h"
#include "together_parts.h"

static const char *stage_text(const struct member *m)
{
	static const char *const text[] = {
		[CHECKING] = "checking", [READY] = "checked, waiting for the other disks",
		[REFUSED] = "refused", [DIED] = "its process died", [RUNNING] = "running", [ENDED] = "ended",
		[KILLED] = "its process was killed", [HALTED] = "stopped",
	};

	return m->status[0] && (m->stage < DIED || m->stage == RUNNING) ? m->status : text[m->stage];
}

void together_draw(struct screen *sc, const struct member *m, int n)
{
	/* A surface scan of many disks: one line for all (hdparm.8 says so). */
	bool one_line = n > 0 && m[0].words->reads_only && !m[0].words->verdicts;
	int lines = one_line ? 1 : n;
	char line[400];

	if (!sc->shown)
		return;
	if (sc->lines) {
		snprintf(line, sizeof(line), "\033[%dA", sc->lines);
		send_all(STDERR_FILENO, line, strlen(line));
	}
	for (int i = 0; i < lines; i++) {
		int len = snprintf(line, sizeof(line), "\r%s: %s", m[i].job->device, stage_text(&m[i]));

		if (one_line) {
			scan_line(m, n, line + 1, sizeof(line) - 1);
			len = (int)strlen(line);
		}
		/* A line that wraps would throw the redraw off by one. */
		if (len > (int)sc->width)
			len = (int)sc->width;
		if (len > (int)sizeof(line) - 1)
			len = (int)sizeof(line) - 1;
		send_all(STDERR_FILENO, line, (size_t)len);
		send_all(STDERR_FILENO, "\033[K\n", 4);
	}
	sc->lines = lines;
}

void together_wipe(struct screen *sc)
{
	char line[32];

	if (!sc->shown || !sc->lines)
		return;
	snprintf(line, sizeof(line), "\033[%dA\r\033[J", sc->lines);
	send_all(STDERR_FILENO, line, strlen(line));
	sc->lines = 0;
}

void together_screen_begin(struct screen *sc, const struct run_flags *run)
{
	struct winsize ws;

	sc->shown = !run->json && isatty(STDERR_FILENO);
	sc->lines = 0;
	sc->width = ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1 ? ws.ws_col - 1u : 79u;
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
			out_bytes(m->log_buf + at, len);
		else {
			out_flush();
			fwrite(m->log_buf + at, 1, len, stderr);
		}
		at += len;
	}
	out_flush();
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
	if (s->v[OPT_FWDOWNLOAD].given)
		return "-I";
	if (s->v[OPT_SELF_TEST].given || s->v[OPT_SELF_TEST_WAIT].given)
		return "--condition";
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
	report_operation(m->words->many);
	complain("%s", text);
	if (outcome && settings_erase(&m->job->s))
		json_string("erase_outcome", outcome);
	report_json_errors();
	report_operation(NULL);
	json_object_end();
}

/*
 * m's process was killed, or ended by this process: said, and its device
 * object says so.  Its erase record, written before the erase went out,
 * says the outcome is unknown.
 */
static void say_death(const struct member *m, const struct run_flags *run)
{
	int sig = WTERMSIG(m->wait_status);
	char text[1200];

	if (m->stage == HALTED)
		snprintf(text, sizeof(text), "%s: not started: hdparm was interrupted by signal %d (%s) %s%s:"
			 " nothing was sent to any disk\n", m->job->device, m->halted_by, strsignal(m->halted_by),
			 m->gate_reached ? "at the gate" : "during its checks", m->abandoned ? ", and its process, held in the kernel, was killed and left behind" : "");
	else if (m->stage == DIED)
		snprintf(text, sizeof(text), "%s: its process was killed by signal %d (%s) before the %s began:"
			 " nothing was sent to any disk\n", m->job->device, sig, strsignal(sig), m->words->plural);
	else if (m->words->reads_only)
		snprintf(text, sizeof(text), "%s: the process %s was killed by signal %d (%s): %s; nothing was written to"
			 " the disk%s\n", m->job->device, m->words->doing, sig, strsignal(sig),
			 m->words->verdicts ? "its reading ended there, with no verdict"
					    : "its scan ended there, without its summary",
			 m->abandoned ? "; its process, held in the kernel, was left behind" : "");
	else
		snprintf(text, sizeof(text), "%s: the process %s was killed by signal %d (%s); %s: check with %s%s%s\n",
			 m->job->device, m->words->doing, sig, strsignal(sig), m->words->still, how_to_follow(&m->job->s),
			 m->record[0] ? "; its record says the outcome is unknown: " : "", m->record);
	say_instead(m, run, text, m->stage == KILLED ? "unknown" : "not_started");
}

void say_not_started(const struct member *m, int njobs, const struct run_flags *run, const struct start_failure *f)
{
	for (int i = f->failed; i < njobs; i++) {
		char text[600];

		if (i == f->failed)
			snprintf(text, sizeof(text), "%s: not started: its process could not be started (%s: %s), so"
				 " nothing was sent to any disk\n", m[i].job->device, f->what, strerror(f->err));
		else
			snprintf(text, sizeof(text), "%s: not started: the process for %s could not be started (%s: %s),"
				 " so nothing was sent to any disk\n", m[i].job->device, m[f->failed].job->device,
				 f->what, strerror(f->err));
		say_instead(&m[i], run, text, "not_started");
	}
}

/*
 * The exit status of the last that failed; a surface scan's unreadable
 * sector (EIO, 5) only where no disk failed otherwise (interrupted,
 * killed, refused, gone): that says more, and 5 is kept for "all read, some
 * sectors unreadable".
 */
void say_member(struct member *m, const struct run_flags *run, struct said *said)
{
	replay(m);
	if (m->stage == DIED || m->stage == KILLED || m->stage == HALTED) {
		say_death(m, run);
	} else if (m->json_cut) {
		char text[400];

		/* Never spliced in: the document stays whole, and says what is missing. */
		snprintf(text, sizeof(text), "%s: its process's JSON object came cut short (%zu bytes missing): it"
			 " is left out; the output above is all there is\n", m->job->device, m->json_cut);
		say_instead(m, run, text, NULL);
	} else {
		json_add_devices(m->json, m->json_len);
	}
	if (m->words->verdicts && condition_exit_verdict(m->exit_status)) {
		if (m->exit_status > said->verdict)
			said->verdict = m->exit_status;
	} else if (m->words->reads_only && m->exit_status == EIO) {
		said->unreadable = true;
	} else if (m->exit_status) {
		said->status = m->exit_status;
	}
	said->next++;
}

int say_members(struct member *m, int started, const struct run_flags *run, struct said *said)
{
	while (said->next < started)
		say_member(&m[said->next], run, said);
	/* A disk not read (interrupted, refused, timed out) leaves the worst verdict unknown: its status leads. */
	if (!said->status && said->verdict)
		return said->verdict;
	return said->status || !said->unreadable ? said->status : EIO;
}
