/*
 * --sanitize-status on every disk: "Sanitize status:" and the lines the
 * disk has (9.65's SD states on ATA; the Sanitize Status log's passes and
 * estimates on NVMe; a failed SCSI sanitize's way out), and the JSON
 * "sanitize_status" object.  Each kind only reads its state.
 */
#include <stdio.h>

#include "array.h"
#include "checks.h"
#include "erasecheck.h"
#include "report.h"
#include "sanitize_status.h"

/* NVMe's Sanitize Status log: passes, whether data was erased since, the controller's estimates. */
static void print_log(const struct sanitize_poll *p)
{
	static const char *const names[] = { "overwrite", "block erase", "crypto erase" };

	if (p->passes)
		out("    Overwrite passes done: %u\n", p->passes);
	out("    Global data erased: %s\n", p->global_erased ? "yes (no user data written since)" : "no");
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (p->estimates[i] != UINT32_MAX)
			out("    Estimated time for %s: %u s\n", names[i], (unsigned int)p->estimates[i]);
}

int sanitize_status_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct sanitize_poll p = { .status = "" };
	struct sanitize_request r = { .action = SANITIZE_STATUS };
	int err;

	if (!dev->disk->sanitize_status)
		return refuse_missing_command(dev, s->v[opt].name);
	if ((err = dev->disk->sanitize_check(dev, &r, &p.cause)))
		return say_cause_for(&p.cause, err, s->v[opt].name);
	if (r.command[0]) {
		out("Issuing %s\n", r.command);
		fflush(stdout);
	}
	if ((err = dev->disk->sanitize_status(dev, &p)))
		return say_cause(&p.cause, err);
	out("Sanitize status:\n");
	out("    State:    %s\n", p.state_text);
	if (p.phase == SANITIZE_RUNNING && p.has_progress)
		out("    Progress: 0x%x (%u%%)\n", p.progress, p.percent);
	if (p.has_log)
		print_log(&p);
	if (p.last_ok)
		out("    Last Sanitize Operation Completed Without Error\n");
	if (p.antifreeze)
		out("    Antifreeze bit set\n");
	if (p.failed_advice)
		out("    The last sanitize failed: --sanitize-exit-failure-mode leaves that state where it was started"
		    " with --sanitize-ause\n");
	erase_json_sanitize_status(&p);
	return 0;
}
