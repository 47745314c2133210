/*
 * --format-erase: a format with a secure erase (a format without one
 * keeps the data readable by the drive, so it is never offered as an
 * erase).  This file says which namespaces it erases, announces it, keeps
 * the status line while the disk works, writes the JSON and samples the
 * disks it reached afterwards; the kind (NVMe: Format NVM) only checks
 * and sends.
 */
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "erase_record.h"
#include "erase_verify.h"
#include "erasecheck.h"
#include "format_erase.h"
#include "json.h"
#include "progress.h"
#include "reach.h"
#include "report.h"

/* The disk's refusal of the format, said; r filled. A refused erase ends the device's run. */
static int check_request(struct device *dev, const struct settings *s, enum opt_id opt, struct format_request *r)
{
	struct disk_cause cause = { 0 };
	int err;

	*r = (struct format_request){ .crypto = s->v[opt].num != 0 };
	if (!dev->disk->format_check)
		return refuse_missing_command(dev, s->v[opt].name);
	if ((err = dev->disk->format_check(dev, r, &cause))) {
		if (cause.about_option)
			dev->refused = true;
		return say_cause_for(&cause, err, s->v[opt].name);
	}
	return 0;
}

int format_erase_check(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct format_request r;

	return check_request(dev, s, opt, &r);
}

/* The format under way, for the signal's report (one at a time in a process). */
static struct interrupted_format {
	struct device *dev;
	bool crypto;
} under_way;

/*
 * A signal while Format NVM runs in the controller: the record says
 * interrupted, and the JSON's format_erase object says where it stopped
 * (the controller goes on by itself).  From the thread that waits for signals.
 */
static void format_interrupted(void *arg, int sig)
{
	const struct interrupted_format *f = arg;

	erase_record_interrupted(f->dev, sig);
	json_object_begin("format_erase");
	json_string("erase", f->crypto ? "crypto" : "user");
	json_bool("completed", false);
	json_bool("interrupted", true);
	json_bool("drive_continues", true);
	json_uint("signal", (unsigned int)sig);
	json_object_end();
}

int format_erase_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	static char interrupted[512];

	struct format_request r;
	char command[96];
	enum erase_kind leaves = s->v[opt].num != 0 ? ERASE_CRYPTO : ERASE_TO_ZEROS;
	struct disk_cause cause = { 0 };
	struct long_command lc;
	char names[600];
	double seconds;
	int err;

	if ((err = check_request(dev, s, opt, &r)))
		return err;
	if (r.all_namespaces && dev->reach_valid && dev->reach.n) {
		reach_list(&dev->reach, names, sizeof(names));
		out("This controller's format erases every namespace: %s\n", names);
	}
	snprintf(command, sizeof(command), "NVMe Format NVM with %s of namespace %u",
		 r.crypto ? "cryptographic erase" : "user-data erase", (unsigned int)r.nsid);
	if ((err = erase_about_to_send(dev, leaves, 0, command)))
		return err;
	if (erase_proof_asked(s))
		erase_run_hidden(dev);
	out("Issuing %s\n", command);
	fflush(stdout);
	snprintf(interrupted, sizeof(interrupted),
		 " hdparm was interrupted: the format of %s goes on in the controller, and the namespace is not"
		 " usable until it ends\n", dev->path);
	under_way = (struct interrupted_format){ dev, r.crypto };
	long_command_begin(&lc, "formatting", 0, interrupted, !dev->run.json, format_interrupted, &under_way);
	err = dev->disk->format_start(dev, &r, &cause);
	seconds = long_command_end(&lc);
	erase_run_status(dev, !err ? "format completed" : cause.why[0] ? cause.why : strerror(err));
	if (err)
		say_cause(&cause, err);
	json_object_begin("format_erase");
	json_string("erase", r.crypto ? "crypto" : "user");
	json_bool("completed", !err);
	json_fixed("seconds", seconds, 1);
	json_object_end();
	if (err)
		return err;
	drop_cached_sectors(dev);
	return erase_check(dev, leaves, 0, verify_full(s));
}
