/*
 * -C on every disk: each kind asks by a command that does not wake it
 * (CHECK POWER MODE, Get Features Power Management, REQUEST SENSE) and
 * returns facts; the text, as 9.65 prints it for ATA, and the JSON are
 * this file's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "background_scan.h"
#include "checks.h"
#include "json.h"
#include "power_mode.h"
#include "report.h"

static const char *const apst_words[] = {
	[APST_NOT_SUPPORTED] = "not supported", [APST_UNKNOWN] = "unknown",
	[APST_DISABLED] = "disabled", [APST_ENABLED] = "enabled",
};

/* NVMe: the state's number, power and kind from its descriptor, then APST and the kernel's limit. */
static void print_descriptor(const struct disk_power_mode *m)
{
	const char *limit = m->latency_limit;

	out(" power state:     PS%d, max %s (%s)\n", m->power_state, m->max_power,
	    m->operational ? "operational" : "non-operational");
	out(" APST:            %s", apst_words[m->apst]);
	if (limit[0])
		out(" (the kernel's latency limit: %s%s)", limit, strspn(limit, "0123456789") == strlen(limit) ? " us" : "");
	out_char('\n');
	json_fixed("max_power_watts", m->max_power_watts, 4);
	if (m->apst == APST_ENABLED || m->apst == APST_DISABLED)
		json_bool("apst_enabled", m->apst == APST_ENABLED);
	else
		json_null("apst_enabled");
	json_string("apst_latency_limit_us", limit[0] ? limit : NULL);
}

int power_mode_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct disk_power_mode m = { .power_state = -1 };
	int err;

	if (!dev->disk->power_mode)
		return refuse_on_this_disk(dev, s->v[opt].name);
	err = dev->disk->power_mode(dev, &m);
	say_cause(&m.cause, err);
	if (err) {
		char instead[160];

		snprintf(instead, sizeof(instead), "sdparm --command=sense %s asks by REQUEST SENSE, which bridges answer",
			 dev->path);
		say_bridge_advice(dev, "CHECK POWER MODE", instead);
	}
	if (err || !m.state) {
		out(" drive state is:  unknown\n");
		return err ? err : EIO;
	}
	if (m.power_state >= 0)
		json_uint("power_state", (uint64_t)m.power_state);
	json_string("power_mode", m.state);
	if (m.power_state >= 0 && strcmp(m.state, "non-operational") == 0)
		out(" drive state is:  %s (power state %d)\n", m.state, m.power_state);
	else
		out(" drive state is:  %s\n", m.state);
	if (m.have_descriptor)
		print_descriptor(&m);
	background_scan_show(dev, " background scan: ");
	return 0;
}
