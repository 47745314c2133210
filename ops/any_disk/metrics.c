/*
 * --metrics: what each disk says of itself, as Prometheus gauges labelled
 * with the kernel's name of the disk (device="sda", as node_exporter's
 * disk collector labels its series).  A sleeping disk stays asleep: its
 * power mode is asked the way -C asks it, and a disk in standby or sleep
 * is asked nothing more: its identity, temperature, error recovery limits
 * and write cache are left out rather than read (what the kernel keeps,
 * the block sizes, is still given).  A disk whose power mode cannot be
 * read is down, and is asked nothing more.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/fs.h>

#include "array.h"
#include "metrics.h"
#include "report.h"
#include "setting_now.h"
#include "tcg_ask.h"

/* -C's words, by kind, and the state each is in Prometheus. */
static const struct {
	const char *word, *state;
} states[] = {
	{ "active/idle", "active" }, { "active", "active" }, { "NVcache_spinup", "active" },
	{ "idle", "idle" }, { "non-operational", "idle" },
	{ "standby", "standby" }, { "NVcache_spindown", "standby" }, { "stopped", "standby" },
	{ "sleeping", "sleep" }, { "sleep", "sleep" },
};
static const char *const all_states[] = { "active", "idle", "standby", "sleep" };

static const char *state_of(const char *word)
{
	for (size_t i = 0; word && i < ARRAY_SIZE(states); i++)
		if (strcmp(word, states[i].word) == 0)
			return states[i].state;
	return NULL;
}

#define UP_HELP "1 where the disk answered, 0 where it did not (or did not open)"

int metrics_down(const char *name, struct prom *p)
{
	return prom_gauge(p, "hdparm_disk_up", UP_HELP, 0, "device", name, (const char *)NULL);
}

/* One sample a state, 1 for the one the disk is in (none where -C's word names no state). */
static void power_state(const char *name, struct prom *p, const char *state)
{
	for (size_t i = 0; state && i < ARRAY_SIZE(all_states); i++)
		prom_gauge(p, "hdparm_disk_power_state", "1 for the power state the disk is in, asked without waking it",
			   strcmp(state, all_states[i]) == 0, "device", name, "state", all_states[i], (const char *)NULL);
}

/* The kernel's refusal of the pass-through (a loop device, a virtio disk): the command is missing, the disk not down. */
static bool refused_by_kernel(int err)
{
	return err == EINVAL || err == ENOTTY || err == EOPNOTSUPP;
}

static int down(struct device *dev, const char *name, struct prom *p, const struct disk_cause *c, int err)
{
	complain("%s: not answering: %s%s%s\n", dev->path, c->what ? c->what : "", c->what ? " failed: " : "",
		 c->why[0] ? c->why : strerror(err));
	metrics_down(name, p);
	return err;
}

static void identity(struct device *dev, const char *name, struct prom *p, const struct disk_identity *id)
{
	char kind[16];
	size_t i;

	for (i = 0; dev->disk->kind[i] && i + 1 < sizeof(kind); i++)
		kind[i] = (char)tolower((unsigned char)dev->disk->kind[i]);
	kind[i] = '\0';
	prom_gauge(p, "hdparm_disk_info", "The disk's kind and what it says it is (always 1)", 1, "device", name,
		   "kind", kind, "model", id->model, "serial", id->serial, "firmware", id->firmware, "wwn", id->wwn,
		   (const char *)NULL);
	if (id->capacity_bytes)
		prom_gauge(p, "hdparm_disk_capacity_bytes", "The disk's capacity in bytes", (double)id->capacity_bytes,
			   "device", name, (const char *)NULL);
}

/* The block sizes the kernel uses for the disk (no command goes to it). */
static void block_sizes(struct device *dev, const char *name, struct prom *p)
{
	int logical = 0;
	unsigned int physical = 0;

	if (ioctl(dev->fd, BLKSSZGET, &logical) == 0 && logical > 0)
		prom_gauge(p, "hdparm_disk_logical_block_size_bytes", "The logical block size, as the kernel uses it",
			   logical, "device", name, (const char *)NULL);
	if (ioctl(dev->fd, BLKPBSZGET, &physical) == 0 && physical > 0)
		prom_gauge(p, "hdparm_disk_physical_block_size_bytes", "The physical block size, as the kernel has it",
			   physical, "device", name, (const char *)NULL);
}

/* --metrics --tcg: Level 0 Discovery's Locking feature (IF-RECV, as --tcg asks it). */
static void tcg_locking(struct device *dev, const char *name, struct prom *p)
{
	struct tcg_asked *a = calloc(1, sizeof(*a));
	struct disk_cause c = { 0 };
	struct tcg_locking lk = { 0 };

	if (a && tcg_ask_level0(dev, a, &c) == 0)
		tcg_locking_of(a->buf, &a->l0, &lk);
	free(a);
	if (!lk.present)
		return;
	prom_gauge(p, "hdparm_disk_tcg_locking_enabled", "1 where TCG locking is enabled (--tcg)", lk.enabled, "device", name,
		   (const char *)NULL);
	prom_gauge(p, "hdparm_disk_tcg_locked", "1 where a TCG locking range is locked (--tcg)", lk.locked, "device", name,
		   (const char *)NULL);
}

/* What only an awake disk is asked: where a command fails or the disk lacks it, its sample is left out. */
static void awake(struct device *dev, const char *name, struct prom *p, bool tcg)
{
	struct setting_now apm = { 0 };
	struct disk_temperature t = { .warning = INT_MIN, .critical = INT_MIN, .reference = INT_MIN };
	struct disk_erc e = { 0 };
	enum disk_cache_state wc = CACHE_UNKNOWN;
	struct disk_cause c = { 0 };

	/* A Hitachi reading at either end of its range is no number. */
	if (dev->disk->temperature && dev->disk->temperature(dev, &t) == 0 &&
	    (t.source != TEMP_HITACHI || (t.raw != 0 && t.raw != 0xff))) {
		prom_gauge(p, "hdparm_disk_temperature_celsius", "The disk's temperature (not read from a sleeping disk)",
			   t.celsius, "device", name, (const char *)NULL);
		if (t.warning != INT_MIN)
			prom_gauge(p, "hdparm_disk_temperature_warning_celsius", "The disk's warning temperature threshold",
				   t.warning, "device", name, (const char *)NULL);
		if (t.critical != INT_MIN)
			prom_gauge(p, "hdparm_disk_temperature_critical_celsius", "The disk's critical temperature threshold",
				   t.critical, "device", name, (const char *)NULL);
	}
	if (dev->disk->erc_get && dev->disk->erc_get(dev, &e) == 0) {
		const char *help = "How long the disk may try to recover a sector before it reports the error (0: no limit)";

		prom_gauge(p, "hdparm_disk_error_recovery_limit_seconds", help, e.read_ds / 10.0, "device", name, "op",
			   "read", (const char *)NULL);
		prom_gauge(p, "hdparm_disk_error_recovery_limit_seconds", help, e.write_ds / 10.0, "device", name, "op",
			   "write", (const char *)NULL);
	}
	if (dev->disk->cache_get && dev->disk->cache_get(dev, DISK_WRITE_CACHE, &wc, &c) == 0 &&
	    (wc == CACHE_ON || wc == CACHE_OFF))
		prom_gauge(p, "hdparm_disk_write_cache_enabled", "1 where the disk's volatile write cache is on",
			   wc == CACHE_ON, "device", name, (const char *)NULL);
	/* As -B reads it (IDENTIFY, read already): 1-254, 255 off; none where the disk has no APM. */
	if (setting_now(dev, OPT_APM, &(struct opt_value){ 0 }, &apm) == 0 && apm.kind == SETTING_READ)
		prom_gauge(p, "hdparm_disk_apm_level", "The disk's Advanced Power Management level (255: off), as -B reads it",
			   (double)apm.num, "device", name, (const char *)NULL);
	if (tcg)
		tcg_locking(dev, name, p);
}

int metrics_collect(struct device *dev, const char *name, struct prom *p, bool tcg)
{
	struct disk_power_mode m = { .power_state = -1 };
	struct disk_identity id = { 0 };
	const char *state = NULL;
	bool answered = false, have_id = false;
	int err;

	if (dev->disk->power_mode) {
		err = dev->disk->power_mode(dev, &m);
		if (err && !refused_by_kernel(err))
			return down(dev, name, p, &m.cause, err);
		state = err ? NULL : state_of(m.state);
		answered = !err;
	}
	if (state && (strcmp(state, "standby") == 0 || strcmp(state, "sleep") == 0)) {
		prom_gauge(p, "hdparm_disk_up", UP_HELP, 1, "device", name, (const char *)NULL);
		power_state(name, p, state);
		block_sizes(dev, name, p);
		return 0;
	}
	if (dev->disk->identity) {
		if ((err = dev->disk->identity(dev, &id)) && !answered && !refused_by_kernel(err))
			return down(dev, name, p, &id.cause, err);
		have_id = !err;
	}
	prom_gauge(p, "hdparm_disk_up", UP_HELP, 1, "device", name, (const char *)NULL);
	if (have_id)
		identity(dev, name, p, &id);
	power_state(name, p, state);
	block_sizes(dev, name, p);
	awake(dev, name, p, tcg);
	return 0;
}
