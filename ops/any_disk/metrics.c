/*
 * --metrics: what each disk says of itself, as Prometheus gauges labelled
 * with the kernel's name of the disk (device="sda", as node_exporter's
 * disk collector labels its series).  A sleeping disk stays asleep: its
 * power mode is asked the way -C asks it, and a disk in standby or sleep
 * is asked nothing more: its temperature, error recovery limits and write
 * cache are left out rather than read, and what the kernel keeps of it is
 * given instead of asked (its identity as sysfs has it, its size, the
 * block sizes).  A disk whose power mode cannot be read is down, and is
 * asked nothing more; so is one that lets a command time out (the
 * transport sends it nothing after that), whatever it said before.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/fs.h>

#include "array.h"
#include "kernel_identity.h"
#include "metrics.h"
#include "report.h"
#include "setting_now.h"
#include "tcg_ask.h"

/* The states, each kind's answer decoded once (enum disk_power); sleep is there for a steady set of series. */
static const char *const all_states[] = { "active", "idle", "standby", "sleep" };

static const char *state_of(enum disk_power power)
{
	switch (power) {
	case DISK_POWER_ACTIVE: return "active";
	case DISK_POWER_IDLE: return "idle";
	case DISK_POWER_STANDBY: return "standby";
	default: return NULL;
	}
}

#define UP_HELP "1 where the disk answered, 0 where it did not (or did not open)"

int metrics_down(const char *name, struct prom *p)
{
	return prom_gauge(p, "hdparm_disk_up", UP_HELP, 0, "device", name, (const char *)NULL);
}

/* One sample a state, 1 for the one the disk is in (none where its answer names no state). */
static void power_state(const char *name, struct prom *p, enum disk_power power)
{
	const char *state = state_of(power);

	for (size_t i = 0; state && i < ARRAY_SIZE(all_states); i++)
		prom_gauge(p, "hdparm_disk_power_state", "1 for the power state the disk is in, asked without waking it",
			   strcmp(state, all_states[i]) == 0, "device", name, "state", all_states[i], (const char *)NULL);
}

/* The kernel's refusal of the pass-through (a loop device, a virtio disk): the command is missing, the disk not down. */
static bool refused_by_kernel(int err)
{
	return err == EINVAL || err == ENOTTY || err == EOPNOTSUPP;
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

/*
 * After each command the disk is asked, whether it let one time out: then
 * it is down (its cause is c's), and nothing more goes to it.
 */
static bool timed_out(struct device *dev, const struct disk_cause *c, struct disk_cause *why)
{
	if (dev->timed_out && !why->why[0] && !why->what)
		*why = *c;
	return dev->timed_out;
}

/* What only an awake disk is asked: where a command fails or the disk lacks it, its sample is left out. */
static void awake(struct device *dev, const char *name, struct prom *p, bool tcg, struct disk_cause *why)
{
	struct setting_now apm = { 0 };
	struct disk_temperature t = { .warning = INT_MIN, .critical = INT_MIN, .reference = INT_MIN };
	struct disk_erc e = { 0 };
	enum disk_cache_state wc = CACHE_UNKNOWN;
	struct disk_cause c = { 0 }, none = { 0 };

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
	if (timed_out(dev, &t.cause, why))
		return;
	if (dev->disk->erc_get && dev->disk->erc_get(dev, &e) == 0) {
		const char *help = "How long the disk may try to recover a sector before it reports the error (0: no limit)";

		prom_gauge(p, "hdparm_disk_error_recovery_limit_seconds", help, e.read_ds / 10.0, "device", name, "op",
			   "read", (const char *)NULL);
		prom_gauge(p, "hdparm_disk_error_recovery_limit_seconds", help, e.write_ds / 10.0, "device", name, "op",
			   "write", (const char *)NULL);
	}
	if (timed_out(dev, &e.cause, why))
		return;
	if (dev->disk->cache_get && dev->disk->cache_get(dev, DISK_WRITE_CACHE, &wc, &c) == 0 &&
	    (wc == CACHE_ON || wc == CACHE_OFF))
		prom_gauge(p, "hdparm_disk_write_cache_enabled", "1 where the disk's volatile write cache is on",
			   wc == CACHE_ON, "device", name, (const char *)NULL);
	if (timed_out(dev, &c, why))
		return;
	/* As -B reads it (IDENTIFY, read already): 1-254, 255 off; none where the disk has no APM. */
	if (setting_now(dev, OPT_APM, &(struct opt_value){ 0 }, &apm) == 0 && apm.kind == SETTING_READ)
		prom_gauge(p, "hdparm_disk_apm_level", "The disk's Advanced Power Management level (255: off), as -B reads it",
			   (double)apm.num, "device", name, (const char *)NULL);
	if (!timed_out(dev, &none, why) && tcg)
		tcg_locking(dev, name, p);
}

/* A disk in standby: its state, and what the kernel keeps of it in place of what it would be asked. */
static void asleep(struct device *dev, const char *name, struct prom *p)
{
	struct disk_identity id;

	prom_gauge(p, "hdparm_disk_up", UP_HELP, 1, "device", name, (const char *)NULL);
	if (kernel_identity(dev, &id))
		identity(dev, name, p, &id);
	power_state(name, p, DISK_POWER_STANDBY);
	block_sizes(dev, name, p);
}

/* dev's samples into p; 0, or the errno that makes it down (its cause in why). */
static int gather(struct device *dev, const char *name, struct prom *p, bool tcg, struct disk_cause *why)
{
	struct disk_power_mode m = { .power_state = -1 };
	struct disk_identity id = { 0 };
	enum disk_power power = DISK_POWER_UNKNOWN;
	bool answered = false, have_id = false;
	int err;

	if (dev->disk->power_mode) {
		err = dev->disk->power_mode(dev, &m);
		if (err && !refused_by_kernel(err)) {
			*why = m.cause;
			return err;
		}
		power = err ? DISK_POWER_UNKNOWN : m.power;
		answered = !err;
	}
	if (power == DISK_POWER_STANDBY) {
		asleep(dev, name, p);
		return 0;
	}
	if (dev->disk->identity) {
		err = dev->disk->identity(dev, &id);
		if (err && ((!answered && !refused_by_kernel(err)) || dev->timed_out)) {
			*why = id.cause;
			return err;
		}
		have_id = !err;
	}
	prom_gauge(p, "hdparm_disk_up", UP_HELP, 1, "device", name, (const char *)NULL);
	if (have_id)
		identity(dev, name, p, &id);
	power_state(name, p, power);
	block_sizes(dev, name, p);
	awake(dev, name, p, tcg, why);
	return dev->timed_out ? ETIMEDOUT : 0;
}

int metrics_collect(struct device *dev, const char *name, struct prom *p, bool tcg)
{
	struct prom *mine = prom_new();
	struct disk_cause why = { 0 };
	int err;

	if (!mine)
		return ENOMEM;
	/* A disk that lets one command time out would make the run wait one timeout a command. */
	dev->stop_at_timeout = true;
	err = gather(dev, name, mine, tcg, &why);
	if (err && dev->timed_out && !why.what && !why.why[0])
		snprintf(why.why, sizeof(why.why), "a command timed out");
	if (err) {
		complain("%s: not answering: %s%s%s%s\n", dev->path, why.what ? why.what : "", why.what ? " failed: " : "",
			 why.why[0] ? why.why : strerror(err), dev->timed_out ? " (nothing more is asked of it)" : "");
		metrics_down(name, p);
	} else {
		prom_merge(p, mine);
	}
	prom_free(mine);
	return err;
}
