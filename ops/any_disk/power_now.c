/*
 * -y and -Y on every disk: into standby, and asleep, now.  This file
 * announces them in 9.65's words, says what the disk chose and what to
 * know afterwards, and refuses a disk without them; each kind only sends
 * (STANDBY IMMEDIATE and SLEEP on ATA, a non-operational power state on
 * NVMe, START STOP UNIT on SCSI).
 */
#include <errno.h>

#include "checks.h"
#include "json.h"
#include "power_now.h"
#include "report.h"

static int standby_now(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const char *option = s->v[opt].name;
	struct disk_standby t = { .nvme_state = -1 };
	struct disk_cause cause = { 0 };
	int err = dev->disk->standby_target ? dev->disk->standby_target(dev, &t, &cause) : 0;

	if (err) {
		cause.about_option = err == EOPNOTSUPP && !cause.what;
		return say_cause_for(&cause, err, option);
	}
	if (t.note[0])
		note(" %s: %s\n", option, t.note);
	if (s->v[opt].noisy && t.nvme_state >= 0)
		out(" issuing standby command: NVMe power state %d (non-operational, max %s)\n", t.nvme_state, t.max_power);
	else if (s->v[opt].noisy)
		out(" issuing standby command\n");
	err = dev->disk->standby_now(dev, dev->disk->standby_target ? &t : NULL, &cause);
	if (t.nvme_state >= 0)
		json_uint("power_state_set", (uint64_t)t.nvme_state);
	return err ? say_cause(&cause, err) : 0;
}

static int sleep_now(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct disk_cause cause = { 0 };
	char advice[512] = "";
	int err;

	if (!dev->disk->sleep_now)
		return refuse_power_option(dev, s->v[opt].name);
	if (s->v[opt].noisy)
		out(" issuing sleep command\n");
	err = dev->disk->sleep_now(dev, &cause, advice, sizeof(advice));
	if (err)
		return say_cause(&cause, err);
	if (advice[0])
		note(" %s: %s\n", s->v[opt].name, advice);
	return 0;
}

int power_now_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	if (opt == OPT_SLEEP_NOW)
		return sleep_now(dev, s, opt);
	if (!dev->disk->standby_now)
		return refuse_power_option(dev, s->v[opt].name);
	return standby_now(dev, s, opt);
}
