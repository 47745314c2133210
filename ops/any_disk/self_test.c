/*
 * --self-test short|extended|abort and --self-test-wait on every kind of
 * disk: the drive's own test (ATA SMART EXECUTE OFF-LINE IMMEDIATE, NVMe
 * Device Self-test, SCSI SEND DIAGNOSTIC) started in the background or
 * stopped; the wait asks once a second whether it still runs, draws its
 * progress as --sanitize-wait does, and says its end as the self-test log
 * records it (condition_read's newest entry).  Many disks test together.
 */
#include <errno.h>
#include <inttypes.h>
#include <unistd.h>

#include "checks.h"
#include "json.h"
#include "progress.h"
#include "report.h"
#include "self_test.h"

static const char *const kind_words[] = { "short", "extended", "abort" };

static int has_self_test(struct device *dev, const struct settings *s, enum opt_id opt)
{
	if (!dev->disk->self_test_start || !dev->disk->self_test_progress || !dev->disk->condition_read)
		return refuse_missing_command(dev, s->v[opt].name);
	return 0;
}

/*
 * Before the gate: a kind without a self-test, or a disk that cannot run one
 * (an ATA drive with SMART off) or will not say where it stands, is refused
 * before any disk is sent anything: of many disks, none starts its test.
 */
int self_test_check(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct disk_cause c = { 0 };
	bool running;
	int err, percent;

	if ((err = has_self_test(dev, s, opt)))
		return err;
	if ((err = dev->disk->self_test_progress(dev, &running, &percent, &c)))
		return say_cause_for(&c, err, s->v[opt].name);
	return 0;
}

int self_test_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	enum disk_self_test what = (enum disk_self_test)s->v[opt].num;
	struct disk_cause c = { 0 };
	bool running = true;
	int err, percent;

	if ((err = has_self_test(dev, s, opt)))
		return err;
	/* Whether one runs, to say what the abort did (a drive answers it as done either way); unknown: said as running. */
	if (what == SELF_TEST_ABORT && dev->disk->self_test_progress(dev, &running, &percent, &c))
		running = true;
	c = (struct disk_cause){ 0 };
	if ((err = dev->disk->self_test_start(dev, what, &c)))
		return say_cause_for(&c, err, s->v[opt].name);
	if (what == SELF_TEST_ABORT && !running)
		out(" self-test: none was running: the abort was sent, and there was nothing to stop\n");
	else if (what == SELF_TEST_ABORT)
		out(" self-test: aborted the one running\n");
	else
		out(" self-test: %s test started; the drive runs it in the background (--self-test-wait or --condition"
		    " shows its result)\n", kind_words[what]);
	json_object_begin("self_test");
	json_string("sent", kind_words[what]);
	if (what == SELF_TEST_ABORT)
		json_bool("was_running", running);
	json_object_end();
	return 0;
}

static const char *result_words(enum cond_test_result r)
{
	switch (r) {
	case COND_TEST_PASSED:
		return "completed without error";
	case COND_TEST_FAILED:
		return "failed";
	case COND_TEST_ABORTED:
		return "aborted (by the host or a reset): it says nothing of the disk";
	case COND_TEST_RUNNING:
		return "still running";
	case COND_TEST_OTHER:
		break;
	}
	return "ended with a code the standard does not define";
}

/* The end: the newest entry of the drive's self-test log. */
static int say_result(struct device *dev, const char *option)
{
	struct disk_condition d = { 0 };
	struct disk_cause c = { 0 };
	const struct cond_self_test *t = &d.tests[0];
	int err = dev->disk->condition_read(dev, &d, &c);

	if (err)
		return say_cause_for(&c, err, option);
	if (d.self_test_log.state != COND_READ || !d.n_tests) {
		complain(" %s: the drive's self-test log %s\n", option,
			 d.self_test_log.state == COND_UNREADABLE ? "could not be read" : "records no test");
		return EIO;
	}
	out(" self-test: %s test %s, at power-on hour %" PRIu64 " (%s)\n", t->kind, result_words(t->result), t->hour,
	    d.self_test_log.source);
	if (t->has_lba)
		out(" first failing LBA: %" PRIu64 "\n", t->lba);
	json_object_begin("self_test");
	json_string("kind", t->kind);
	json_string("result", t->result == COND_TEST_PASSED ? "passed" : t->result == COND_TEST_FAILED ? "failed"
			      : t->result == COND_TEST_ABORTED ? "aborted" : t->result == COND_TEST_RUNNING ? "running" : "other");
	json_uint("code", t->code);
	json_uint("hour", t->hour);
	if (t->has_lba)
		json_uint("lba", t->lba);
	json_string("source", d.self_test_log.source);
	json_object_end();
	if (t->result == COND_TEST_FAILED) {
		complain(" %s: the drive's %s self-test failed\n", option, t->kind);
		return EIO;
	}
	return 0;
}

static void draw(struct status_line *line, int percent)
{
	char text[64];

	if (percent >= 0)
		snprintf(text, sizeof(text), "self-test: %d%% done", percent);
	else
		snprintf(text, sizeof(text), "self-test: running");
	status_draw(line, text);
}

int self_test_wait_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct status_line line;
	struct disk_cause c = { 0 };
	bool running = false;
	int err, percent;

	if ((err = has_self_test(dev, s, opt)))
		return err;
	if (s->v[OPT_SELF_TEST].given && s->v[OPT_SELF_TEST].num == SELF_TEST_ABORT)
		return 0;	/* nothing left to wait for */
	poll_wait_begin();
	status_begin(&line, !dev->run.json);
	for (;;) {
		percent = -1;
		if ((err = dev->disk->self_test_progress(dev, &running, &percent, &c)) || !running)
			break;
		if (poll_wait_interrupted())
			break;
		draw(&line, percent);
		sleep(1);
	}
	status_end(&line);
	poll_wait_end();
	if (err)
		return say_cause_for(&c, err, s->v[opt].name);
	if (running) {
		/* As --sanitize-wait says it, under a JSON key of a name's characters. */
		complain(" %s: interrupted: the self-test goes on in the drive (--condition shows its result once it ends)\n",
			 s->v[opt].name);
		json_object_begin("self_test_wait");
		json_bool("interrupted", true);
		json_bool("drive_continues", true);
		json_object_end();
		return EINTR;
	}
	return say_result(dev, s->v[opt].name);
}
