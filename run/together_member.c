/*
 * A disk's process in a run of many disks at once (run/together.c): the
 * device run as a run of one would run it, up to the gate between its
 * checks and its first command; there it says what the checks found and
 * waits for the answer ("go", or "stop ERRNO TEXT").  Its stdout and
 * stderr go to the process that runs the gate, its status lines too.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "erase_record.h"
#include "path_text.h"
#include "json.h"
#include "progress.h"
#include "report.h"
#include "together_parts.h"

static const struct words erase_words = {
	"erase of many disks", "erases", "erasing it", "the drive may still be erasing", "erases the others", "erased", false, false,
}, format_words = {
	"format of many disks", "formats", "formatting it", "the drive may still be formatting", "formats the others",
	"formatted", false, false,
}, firmware_words = {
	"firmware download of many disks", "firmware downloads", "downloading firmware to it",
	"part of the image may have been sent, or the commit", "updates the others", "updated", false, false,
}, self_test_words = {
	"self-test of many disks", "self-tests", "testing it", "the drive may still be testing itself", "tests the others",
	"tested", false, false,
}, scan_words = {
	"surface scan of many disks", "surface scans", "scanning it", NULL, "scans the others", "scanned", true, false,
}, condition_words = {
	"condition of many disks", "condition reads", "reading its condition", NULL, "reads the others", "read", true, true,
};

const struct words *words_of(const struct job *jobs, int njobs)
{
	bool format = false, firmware = false, scan = false, self_test = false;

	for (int i = 0; i < njobs; i++) {
		if (settings_erase(&jobs[i].s))
			return &erase_words;
		format |= settings_recorded(&jobs[i].s);
		firmware |= settings_together_as(&jobs[i].s, TOGETHER_FIRMWARE);
		scan |= settings_together_as(&jobs[i].s, TOGETHER_SCAN);
		self_test |= settings_together_as(&jobs[i].s, TOGETHER_SELF_TEST);
	}
	return format ? &format_words : firmware ? &firmware_words : scan ? &scan_words : self_test ? &self_test_words
		      : &condition_words;
}

void send_all(int fd, const char *p, size_t n)
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

/*
 * The whole disks dev's erase reaches: the reach the guards found, else the node's own disk, a
 * character device too (an NVMe controller takes a firmware download: named twice, it went twice).
 */
static size_t reached_text(const struct device *dev, char *buf, size_t size)
{
	struct stat st;
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned int i = 0; dev->reach_valid && i < dev->reach.n && len + 24 < size; i++)
		len += (size_t)snprintf(buf + len, size - len, " %u:%u", major(dev->reach.disk[i].devnum),
					minor(dev->reach.disk[i].devnum));
	if (!len && fstat(dev->fd, &st) == 0 && (S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)))
		len = (size_t)snprintf(buf, size, " %u:%u", major(st.st_rdev), minor(st.st_rdev));
	return len;
}

/* The gate, on the disk's side: say what the checks found, then wait for the answer. */
static int wait_at_gate(struct device *dev, int status, void *arg)
{
	const struct member_start *st = arg;
	char line[512], reached[400];
	size_t len = 0;

	report_operation(st->words->many);
	if (status) {
		send_all(st->msg, "N\n", 2);
		return status;
	}
	if (erase_record_path(dev)) {
		char path[1200], shown[1100];

		/*
		 * As a line shows it: a newline in the path (a folder's name may hold one) would end the message
		 * and forge the next, and an escape of its own would read two ways; quoted, it holds no control byte.
		 */
		snprintf(path, sizeof(path), "P %s\n", path_text(erase_record_path(dev), shown, sizeof(shown)));
		send_all(st->msg, path, strlen(path));
	}
	reached_text(dev, reached, sizeof(reached));
	snprintf(line, sizeof(line), "R%s\n", reached);
	send_all(st->msg, line, strlen(line));
	while (len + 1 < sizeof(line)) {
		ssize_t n = read(st->gate, line + len, 1);

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
	complain(" not started: hdparm stopped before the %s began\n", st->words->plural);
	return ECANCELED;
}

/* The pipe to the process that runs the gate, for member_interrupted(). */
static int member_msg = -1;

/* This disk's device object to the process that holds the document ("J LEN", then it). */
static void send_json(void)
{
	size_t len;
	const char *text = json_devices_text(&len);
	char head[32];

	snprintf(head, sizeof(head), "J %zu\n", len);
	send_all(member_msg, head, strlen(head));
	send_all(member_msg, text, len);
}

/* A signal stopped a long command (its erase goes on in the drive): its device object, closed, sent on. */
static _Noreturn void member_interrupted(int sig)
{
	if (json_active())
		send_json();
	_exit(128 + sig);
}

_Noreturn void run_member(const struct job *job, const struct run_flags *run, struct member_start *st)
{
	struct erase_gate gate = { .wait = wait_at_gate, .arg = st, .interrupted = member_interrupted };
	bool refused = false;
	int status;

	/* As hdparm was started: a signal its caller ignored (nohup, `cmd &`) stays ignored here too. */
	sigaction(SIGINT, &st->intr, NULL);
	sigaction(SIGTERM, &st->term, NULL);
	sigaction(SIGHUP, &st->hup, NULL);
	/*
	 * The parent gone (killed, its terminal closed): SIGTERM.  The checks
	 * end there, the gate never opens, a long command's wait or a
	 * download stops before its next command.  A parent that died before
	 * this line is seen at once: this process is no longer its child.
	 * Where the caller ignored SIGTERM (kept so above), SIGKILL: a process
	 * whose parent is gone never goes on unseen.
	 */
	prctl(PR_SET_PDEATHSIG, st->term.sa_handler == SIG_IGN ? SIGKILL : SIGTERM);
	if (getppid() != st->parent)
		_exit(ECANCELED);
	/* The output goes on to its end where the process that shows it went away: the record is still written. */
	signal(SIGPIPE, SIG_IGN);
	progress_relay(st->msg);
	member_msg = st->msg;
	status = process_device(job->device, &job->s, run, &gate, &refused);
	fflush(stdout);
	if (run->json)
		send_json();
	/* Not exit(): the JSON document and the buffers are this process's copies of the whole run's. */
	_exit(status > 0 && status < 256 ? status : status ? 1 : 0);
}
