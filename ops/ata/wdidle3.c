/* -J: WD "Green" drives' idle3 timer, as 9.65 (and idle3-tools) reads and sets it. */
#include <string.h>

#include "ata_commands.h"
#include "ata_checks.h"
#include "checks.h"
#include "json.h"
#include "report.h"
#include "wdidle3.h"

/*
 * WD "Green" drives' idle3 timer, through WD's vendor-specific commands:
 * enable them (80h with "WD" in the LBA), send a key naming the register
 * and the direction (SMART WRITE LOG to log BEh), move the value (SMART
 * READ/WRITE LOG of log BFh), disable them again.
 */
enum { WDIDLE3_READ = 1, WDIDLE3_WRITE = 2 };
#define WDIDLE3_THRESHOLD 128u

/* Report a failed WD step. */
static void wd_step(const char *what, const struct ata_result *res, int err)
{
	if (err)
		ata_report(what, res, err);
}

static int wdidle3_transfer(struct device *dev, int direction, uint8_t *value)
{
	uint8_t data[512];
	struct ata_result res;
	int err, err2;

	err = ata_wd_vendor_commands(dev, true, &res);
	wd_step("WD vendor-specific commands (enable)", &res, err);
	if (err)
		return err;
	memset(data, 0, sizeof(data));
	data[0] = 0x2a;
	data[2] = (uint8_t)direction;
	data[4] = 0x02;
	data[6] = 0x0d;
	data[8] = 0x16;
	data[10] = 0x01;
	/* The key names the register and the direction: SMART WRITE LOG to log BEh. */
	err = ata_smart_log(dev, true, 0xbe, data, &res);
	wd_step("WD idle3 key", &res, err);
	if (!err) {
		/* The value moves through log BFh. */
		const char *what = direction == WDIDLE3_WRITE ? "WD idle3 write" : "WD idle3 read";

		memset(data, 0, sizeof(data));
		data[0] = *value;
		err = ata_smart_log(dev, direction == WDIDLE3_WRITE, 0xbf, data, &res);
		wd_step(what, &res, err);
		if (!err)
			*value = data[0];
	}
	err2 = ata_wd_vendor_commands(dev, false, &res);
	wd_step("WD vendor-specific commands (disable)", &res, err2);
	return err ? err : err2;
}

/* Seconds to the drive's encoding: tenths up to 12.7 s, then 30-second steps. */
static uint8_t wdidle3_encode(unsigned int secs)
{
	if (secs == 0)
		return 0;
	if (secs < 8)
		return 80;
	if (secs <= WDIDLE3_THRESHOLD / 10)
		return (uint8_t)(secs * 10);
	secs += 29;
	if (secs > 300)
		secs = 300;
	return (uint8_t)(secs / 30 + WDIDLE3_THRESHOLD);
}

static void wdidle3_print(uint8_t raw, bool verbose)
{
	unsigned int t = raw;

	if (verbose)
		out("[raw=0x%02x] ", t);
	if (t == 0)
		out("disabled");
	else if (t < 0x50 || t == WDIDLE3_THRESHOLD)
		out("%u ??", t);
	else if (t < WDIDLE3_THRESHOLD)
		out("%u.%u secs", t / 10, t % 10);
	else {
		if (t > WDIDLE3_THRESHOLD + 10)
			out("%u ??", t);
		else
			out("%u secs", (t - WDIDLE3_THRESHOLD) * 30);
		/* Older firmware counts tenths of a second over the whole range. */
		out(" (or %u.%u secs for older drives)", t / 10, t % 10);
	}
}

int set_wdidle3(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct opt_value *v = &s->v[opt];
	uint8_t t = wdidle3_encode((unsigned int)v->num);

	if (v->noisy) {
		out(" setting wdidle3 to ");
		wdidle3_print(t, dev->run.verbose);
		out_char('\n');
	}
	return wdidle3_transfer(dev, WDIDLE3_WRITE, &t);
}

int get_wdidle3(struct device *dev, const struct settings *s, enum opt_id opt)
{
	uint8_t t = 0;
	int err;

	(void)s;
	(void)opt;
	err = wdidle3_transfer(dev, WDIDLE3_READ, &t);
	if (!err) {
		out(" wdidle3      = ");
		wdidle3_print(t, dev->run.verbose);
		out_char('\n');
		json_uint("wdidle3_raw", t);
	}
	return err;
}
