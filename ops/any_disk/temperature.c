/*
 * -H on every kind of disk.  hdparm 9.65 read it only from Hitachi drives
 * (a vendor command); the kinds of disk now answer from what their
 * standards keep: a Hitachi or HGST drive gets 9.65's command and lines,
 * another ATA drive's SCT Status, else its SMART attribute 194, an NVMe
 * controller's SMART / Health log
 * with its warning and critical thresholds, a SCSI disk's Temperature log
 * page.  Where the disk sleeps, it is left asleep: reading the
 * temperature would wake it, so -H says so instead (an NVMe controller
 * answers an admin command from a non-operational state, and stays in it).
 */
#include <limits.h>

#include "checks.h"
#include "json.h"
#include "report.h"
#include "temperature.h"

/* 9.65's words for the Hitachi count register: 0 and FFh are out of its range. */
static void print_hitachi(const struct disk_temperature *t)
{
	out(" drive temperature (celsius) is:  ");
	if (t->raw == 0)
		out("under -20");
	else if (t->raw == 0xff)
		out("over 107");
	else
		out("%d", t->celsius);
	out("\n drive temperature in range:  %s\n", t->in_range ? "yes" : "no");
}

static const char *const sources[] = {
	[TEMP_HITACHI] = "Hitachi sense condition",
	[TEMP_SCT_STATUS] = "SCT Status",
	[TEMP_SMART_ATTRIBUTE] = "SMART attribute 194",
	[TEMP_NVME_HEALTH] = "SMART / Health log",
	[TEMP_SCSI_LOG] = "Temperature log page",
};

static void print_standard(const struct disk_temperature *t)
{
	out(" drive temperature (celsius) is:  %d\n", t->celsius);
	if (t->warning != INT_MIN)
		out(" warning threshold (celsius):     %d\n", t->warning);
	if (t->critical != INT_MIN)
		out(" critical threshold (celsius):    %d\n", t->critical);
	if (t->reference != INT_MIN)
		out(" reference temperature (celsius): %d\n", t->reference);
	out(" read from:  %s\n", sources[t->source]);
}

static void json_temperature(const struct disk_temperature *t)
{
	json_object_begin("temperature");
	/* smartctl's "current"; a Hitachi reading at either end of its range is no number. */
	if (t->source != TEMP_HITACHI || (t->raw != 0 && t->raw != 0xff))
		json_int("current", t->celsius);
	else
		json_null("current");
	if (t->warning != INT_MIN)
		json_int("warning_threshold", t->warning);
	if (t->critical != INT_MIN)
		json_int("critical_threshold", t->critical);
	if (t->reference != INT_MIN)
		json_int("reference", t->reference);
	json_string("source", sources[t->source]);
	json_object_end();
}

int temperature_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct disk_temperature t = { .warning = INT_MIN, .critical = INT_MIN, .reference = INT_MIN };
	int err;

	if (!dev->disk->temperature)
		return refuse_missing_command(dev, s->v[opt].name);
	if (disk_asleep(dev)) {
		say_left_asleep(s, "the temperature", "temperature", "current");	/* smartctl's "current": none */
		return 0;
	}
	err = dev->disk->temperature(dev, &t);
	if (err)
		return say_cause_for(&t.cause, err, s->v[opt].name);
	if (t.source == TEMP_HITACHI)
		print_hitachi(&t);
	else
		print_standard(&t);
	json_temperature(&t);
	return 0;
}
