/*
 * -W and -A on every disk, queried and set: the text (9.65's for ATA),
 * the JSON and the refusals are this file's.  Each kind reads or switches
 * the cache by its own command (IDENTIFY and SET FEATURES on ATA, Get and
 * Set Features on NVMe, the caching mode page on SCSI), keeps the
 * kernel's view in step, and returns what it found or why it failed.
 */
#include <stdbool.h>
#include <stdio.h>

#include "cache.h"
#include "checks.h"
#include "json.h"
#include "report.h"

static const struct {
	const char *label, *json_key, *setting;
} caches[] = {
	[DISK_WRITE_CACHE] = { " write-caching = ", "write_cache", " setting drive write-caching to %d" },
	[DISK_LOOKAHEAD] = { " look-ahead    = ", "read_lookahead", " setting drive read-lookahead to %d" },
};

static enum disk_cache cache_of(enum opt_id opt)
{
	return opt == OPT_WCACHE ? DISK_WRITE_CACHE : DISK_LOOKAHEAD;
}

static bool has_cache(const struct device *dev, enum disk_cache which)
{
	return which == DISK_WRITE_CACHE || dev->disk->lookahead;
}

int cache_get_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	enum disk_cache which = cache_of(opt);
	enum disk_cache_state st = CACHE_UNKNOWN;
	struct disk_cause cause = { 0 };
	int err;

	if (!dev->disk->cache_get || !has_cache(dev, which))
		return refuse_on_this_disk(dev, s->v[opt].name);
	err = dev->disk->cache_get(dev, which, &st, &cause);
	if (st == CACHE_UNSUPPORTED)
		out("%snot supported\n", caches[which].label);
	say_cause(&cause, err);
	if (err || st == CACHE_UNKNOWN)
		return err;
	json_object_begin(caches[which].json_key);
	json_bool("supported", st != CACHE_UNSUPPORTED);
	json_bool("enabled", st == CACHE_ON);
	json_object_end();
	if (st != CACHE_UNSUPPORTED) {
		out("%s%2d", caches[which].label, st == CACHE_ON);
		print_on_off(st == CACHE_ON);
	}
	return 0;
}

int cache_set_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	enum disk_cache which = cache_of(opt);
	bool on = s->v[opt].num != 0;
	struct disk_cause cause = { 0 };
	int err;

	if (!dev->disk->cache_set || !has_cache(dev, which))
		return refuse_on_this_disk(dev, s->v[opt].name);
	if (s->v[opt].noisy) {
		out(caches[which].setting, on);
		print_on_off(on);
	}
	err = dev->disk->cache_set(dev, which, on, &cause);
	if (err) {
		char as_typed[40];

		snprintf(as_typed, sizeof(as_typed), "%s%d", s->v[opt].name, on);
		say_cause_for(&cause, err, as_typed);
	}
	return err;
}
