/*
 * A SCSI disk's background medium scan: the disk reads its own medium
 * when idle, to find bad sectors before a host read does.  While a scan
 * runs the disk is busy, and its idle and standby timers never run out:
 * a disk that never spins down often has this on.  --epc and -C say it;
 * --background-scan on|off switches it, and says the trade-off.
 */
#include <errno.h>

#include "background_scan.h"
#include "checks.h"
#include "json.h"
#include "report.h"

void background_scan_show(struct device *dev, const char *prefix)
{
	struct disk_background_scan b = { 0 };

	if (!dev->disk->background_scan_get || dev->disk->background_scan_get(dev, &b))
		return;
	if (!b.enabled)
		out("%sdisabled\n", prefix);
	else
		out("%senabled, every %u h, after %u ms idle%s: while one runs, idle and standby timers do not run out\n",
		    prefix, b.interval_hours, b.min_idle_ms, b.prescan ? " (pre-scan too)" : "");
	json_object_begin("background_scan");
	json_bool("enabled", b.enabled);
	json_bool("pre_scan", b.prescan);
	json_uint("interval_hours", b.interval_hours);
	json_uint("min_idle_ms", b.min_idle_ms);
	json_bool("changeable", b.changeable);
	json_object_end();
}

int background_scan_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct opt_value *v = &s->v[opt];
	struct disk_background_scan b = { 0 };
	bool on = v->num != 0;
	int err;

	if (!dev->disk->background_scan_get)
		return refuse_missing_command(dev, v->name);
	if ((err = dev->disk->background_scan_get(dev, &b)))
		return say_cause_for(&b.cause, err, v->name);
	if (!b.changeable && b.enabled != on) {
		complain(" %s: the disk does not let its background medium scan be switched\n", v->name);
		return EOPNOTSUPP;
	}
	if (v->flag && !b.saveable) {
		complain(" %s: the disk cannot save this setting: leave out \",save\"\n", v->name);
		return EOPNOTSUPP;
	}
	if (on)
		out(" enabling background medium scan%s: the disk finds bad sectors before a read does, but while a scan"
		    " runs it does not reach its idle and standby timers\n", v->flag ? " (saved)" : "");
	else
		out(" disabling background medium scan%s: the disk can reach its idle and standby timers, but bad sectors"
		    " are found only when read\n", v->flag ? " (saved)" : "");
	if ((err = dev->disk->background_scan_set(dev, on, v->flag, &b.cause)))
		return say_cause_for(&b.cause, err, v->name);
	return 0;
}
