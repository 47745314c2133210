/*
 * -S on every disk: 9.65's announcement of the value and the time it
 * means, the refusals, and on an ATA drive with EPC what its spin-down
 * follows instead.  Each kind only sets its timer (IDLE on ATA, the power
 * condition mode page's STANDBY_Z timer on SCSI).
 */
#include <stdio.h>

#include "checks.h"
#include "epc.h"
#include "report.h"
#include "standby.h"
#include "standby_timer.h"

int standby_timer_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	unsigned int v = (unsigned int)s->v[opt].num;
	struct disk_cause cause = { 0 };
	char as_typed[40];
	int err;

	if (!dev->disk->standby_timer)
		return refuse_power_option(dev, s->v[opt].name);
	if (s->v[opt].noisy) {
		out(" setting standby to %u", v);
		print_standby_interval(v);
	}
	err = dev->disk->standby_timer(dev, v, standby_interval_seconds(v), &cause);
	if (err) {
		char instead[160];

		snprintf(as_typed, sizeof(as_typed), "%s %u", s->v[opt].name, v);
		say_cause_for(&cause, err, as_typed);
		snprintf(instead, sizeof(instead), "sg_start --stop %s stops the disk by START STOP UNIT, which bridges pass",
			 dev->path);
		say_bridge_advice(dev, "IDLE (the standby timer)", instead);
		return err;
	}
	epc_note_standby(dev, s->v[opt].name);
	return 0;
}
