/*
 * --power-on-hours on every kind of disk, from what its standard keeps: an
 * ATA drive's Device Statistics log, an NVMe controller's SMART / Health
 * log, a SCSI disk's Background Scan Results log page.  A sleeping disk is
 * left asleep, as -H leaves it: the reading would wake it.
 */
#include <inttypes.h>

#include "checks.h"
#include "json.h"
#include "power_on.h"
#include "report.h"

int power_on_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct disk_power_on p = { .minutes = -1 };
	int err;

	if (!dev->disk->power_on)
		return refuse_missing_command(dev, s->v[opt].name);
	if (disk_asleep(dev)) {
		say_left_asleep(s, "the power-on time", "power_on_time", NULL);
		return 0;
	}
	if ((err = dev->disk->power_on(dev, &p)))
		return say_cause_for(&p.cause, err, s->v[opt].name);
	out(" power-on hours:  %" PRIu64 "\n", p.hours);
	if (p.minutes >= 0)
		out(" and minutes:     %d\n", p.minutes);
	out(" read from:  %s\n", p.source);
	/* smartctl's object and keys. */
	json_object_begin("power_on_time");
	json_uint("hours", p.hours);
	if (p.minutes >= 0)
		json_uint("minutes", (uint64_t)p.minutes);
	json_string("source", p.source);
	json_object_end();
	return 0;
}
