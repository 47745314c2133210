/*
 * --sanitize-wait on every disk: one loop asks the disk once a second
 * where its sanitize stands (SANITIZE STATUS EXT on ATA, the Sanitize
 * Status log on NVMe, REQUEST SENSE on SCSI), draws the progress, stops
 * on an interrupt, and words the end: completed (then the sample over
 * every disk it reached), failed, or none at all.
 */
#include <errno.h>
#include <stdint.h>
#include <unistd.h>

#include "checks.h"
#include "erase_verify.h"
#include "erasecheck.h"
#include "json.h"
#include "progress.h"
#include "inuse.h"
#include "reach.h"
#include "report.h"
#include "sanitize_wait.h"

/* Ended: what the erase left, on every disk it reached (for NVMe, the whole subsystem). */
static int check_after(struct device *dev, const struct settings *s, const struct sanitize_poll *p)
{
	out(p->phase == SANITIZE_COMPLETED_NO_DEALLOC ? "Sanitize operation completed without error, and without deallocation\n"
						       : "Sanitize operation completed without error\n");
	drop_cached_sectors(dev);
	if (!dev->reach_valid && dev->disk->erase_scope) {
		disk_reach(dev, dev->disk->erase_scope(dev, ERASE_BY_SANITIZE), &dev->reach);
		dev->reach_valid = true;
	}
	return erase_check(dev, p->left, 0, verify_full(s));
}

static int outcome(struct device *dev, const struct settings *s, struct sanitize_poll *p, bool seen_running)
{
	/* A disk that keeps no record: idle after a sanitize that ran, or that this run started, is its end. */
	if (p->phase == SANITIZE_NONE && p->no_record) {
		if (!seen_running && !dev->sanitize_started) {
			out("No sanitize operation in progress (a SCSI disk keeps no record of one that has ended)\n");
			return 0;
		}
		p->phase = SANITIZE_COMPLETED;
		p->status = "completed";
	}
	erase_json_sanitize_status(p);
	erase_run_status(dev, p->detail[0] && p->phase != SANITIZE_COMPLETED && p->phase != SANITIZE_COMPLETED_NO_DEALLOC
				      ? p->detail
				      : p->status);
	if (p->phase == SANITIZE_COMPLETED || p->phase == SANITIZE_COMPLETED_NO_DEALLOC)
		return check_after(dev, s, p);
	complain(" --sanitize-wait: %s\n", p->detail);
	return EIO;
}

int sanitize_wait_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct sanitize_poll p;
	struct status_line line;
	bool seen_running = false;
	int err;

	if (!dev->disk->sanitize_poll) {
		poll_wait_release();
		return refuse_missing_command(dev, s->v[opt].name);
	}
	poll_wait_begin();
	/* A signal since the sanitize was sent (sanitize_start_step held it) is this wait's. */
	poll_wait_release();
	status_begin(&line, !dev->run.json);
	for (;;) {
		p = (struct sanitize_poll){ .status = "" };
		if ((err = dev->disk->sanitize_poll(dev, &p)) || p.phase != SANITIZE_RUNNING)
			break;
		seen_running = true;
		if (poll_wait_interrupted())
			break;
		if (p.has_progress)
			draw_sanitize_status(&line, p.progress, p.estimate_s);
		sleep(1);
	}
	status_end(&line);
	poll_wait_end();
	if (err)
		return say_cause_for(&p.cause, err, s->v[opt].name);
	if (p.phase == SANITIZE_RUNNING)
		return poll_wait_report_interrupt(s->v[opt].name);
	return outcome(dev, s, &p, seen_running);
}
