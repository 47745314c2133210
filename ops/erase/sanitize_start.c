/*
 * Starting a sanitize on every disk: the request from the command line,
 * the disk's refusal before anything is sent (which ends the device's
 * run), the sample of blocks before an erase, 9.65's "Issuing ..." line,
 * the JSON "sanitize" object, and the lines that say it runs on in the
 * background.  Each kind only checks and sends its command (SANITIZE on
 * ATA and SCSI, Sanitize on NVMe).
 */
#include <errno.h>
#include <stdio.h>

#include "checks.h"
#include "erase_verify.h"
#include "erasecheck.h"
#include "erase_record.h"
#include "progress.h"
#include "report.h"
#include "sanitize_start.h"

/* The request as the command line gives it. */
static void request_of(const struct settings *s, enum opt_id opt, struct sanitize_request *r)
{
	*r = (struct sanitize_request){
		.action = opt == OPT_SANITIZE_BLOCK_ERASE ? SANITIZE_BLOCK_ERASE
			  : opt == OPT_SANITIZE_CRYPTO	  ? SANITIZE_CRYPTO_ERASE
			  : opt == OPT_SANITIZE_OVERWRITE ? SANITIZE_OVERWRITE
							  : SANITIZE_EXIT_FAILURE,
		.ause = s->v[OPT_SANITIZE_AUSE].given,
		.no_deallocate = s->v[OPT_SANITIZE_NO_DEALLOC].given,
		.passes = (unsigned int)(s->v[OPT_SANITIZE_PASSES].num & 0x0f),
		.pattern = opt == OPT_SANITIZE_OVERWRITE ? (uint32_t)s->v[opt].num : 0,
	};
}

/* The disk's own refusal of the request, said; r filled. A refused erase ends the device's run. */
static int check_request(struct device *dev, const struct settings *s, enum opt_id opt, struct sanitize_request *r)
{
	struct disk_cause cause = { 0 };
	int err;

	request_of(s, opt, r);
	if (!dev->disk->sanitize_check)
		return refuse_missing_command(dev, s->v[opt].name);
	if ((err = dev->disk->sanitize_check(dev, r, &cause))) {
		dev->refused = true;
		return say_cause_for(&cause, err, s->v[opt].name);
	}
	return 0;
}

int sanitize_start_check(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct sanitize_request r;

	return check_request(dev, s, opt, &r);
}

/* The sanitize being sent, for the signal's report (one at a time in a process). */
static struct interrupted_sanitize {
	struct device *dev;
	enum sanitize_action action;
} under_way;

/*
 * A signal while the sanitize command is in the kernel, no wait to follow:
 * the record says interrupted, and the JSON's sanitize object where it
 * stopped (the drive may have started it).  From the thread that waits for signals.
 */
static void sanitize_interrupted(void *arg, int sig)
{
	const struct interrupted_sanitize *u = arg;

	erase_record_interrupted(u->dev, sig);
	erase_json_sanitize_interrupted(u->action, sig);
}

int sanitize_start_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	static char interrupted[512];
	struct long_command lc;
	bool waited = s->v[OPT_SANITIZE_WAIT].given;
	const char *option = s->v[opt].name;
	struct sanitize_request r;
	struct disk_cause cause = { 0 };
	bool erases = opt != OPT_SANITIZE_EXIT_FAILURE;
	int err;

	if ((err = check_request(dev, s, opt, &r)))
		return err;
	/* --sanitize-wait: a signal from here on ends the wait (held until it begins, sanitize_wait.c). */
	if (waited)
		poll_wait_hold();
	if (erases && (err = erase_about_to_send(dev, r.leaves, r.pattern, r.command))) {
		poll_wait_release();
		return err;
	}
	if (erases && erase_proof_asked(s))
		erase_run_hidden(dev);
	out("Issuing %s\n", r.command);
	fflush(stdout);
	/*
	 * Without a wait, nothing else would answer a signal that came while the command is in the kernel:
	 * hdparm would end without its JSON.  (With one, the signals are held until the wait begins.)
	 */
	if (erases && !waited) {
		snprintf(interrupted, sizeof(interrupted),
			 " hdparm was interrupted as the sanitize went out: %s may be sanitizing (--sanitize-status"
			 " shows where it stands)\n", dev->path);
		under_way = (struct interrupted_sanitize){ dev, r.action };
		long_command_begin(&lc, "sanitize", 0, interrupted, false, sanitize_interrupted, &under_way);
	}
	err = dev->disk->sanitize_start(dev, &r, &cause);
	if (erases && !waited)
		long_command_end(&lc);
	erase_json_sanitize(r.action, err);
	if (err) {
		/* A sanitize that did not start ends the device's run: a wait after it would report an older one. */
		poll_wait_release();
		dev->refused = true;
		return say_cause_for(&cause, err, option);
	}
	dev->sanitize_started = erases;
	if (erases) {
		out("Operation started in background\n");
		out("You may use `--sanitize-status` to check progress\n");
	}
	return 0;
}
