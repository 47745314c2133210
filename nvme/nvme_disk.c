/*
 * The commands of every disk, done on an NVMe namespace (or a controller
 * without one): -I and -i from Identify, the volatile write cache and the
 * power state through Get/Set Features, Flush, Read, and TRIM as Dataset
 * Management.  The -I layout follows hdparm's for ATA (sections, the
 * Enabled/Supported table, the device size lines) so that a reader finds
 * things where they expect them; every value comes from the drive.  The
 * commands themselves are the transport's (nvme.c).
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "nvme.h"
#include "nvme_disk.h"
#include "nvme_health.h"
#include "nvme_verify.h"
#include "nvme_firmware.h"
#include "reach.h"
#include "nvme_erase.h"
#include "nvme_identify.h"
#include "nvme_spec.h"
#include "nvme_self_test.h"
#include "report.h"
#include "sysfs.h"
#include "unaligned.h"

/* ---- -I ---- */

/* What -I and -i show of an NVMe namespace, or of a controller. */
struct disk_pages {
	struct nvme_id_ctrl ctrl;
	struct nvme_id_ns ns;
	bool have_ns;
	uint32_t nsid;
	struct nvme_state state;
	uint8_t apst_table[NVME_APST_BYTES];
	struct nvme_fw_slot_log fw_slots;
	uint8_t health[NVME_HEALTH_BYTES];
};

/*
 * The features -I shows: the write cache, the power state and APST; any
 * that fails is left out.  --json: the wear too, smartctl's members of the
 * SMART / Health log (the text leaves it to -H and --power-on-hours).
 */
static void read_state(struct device *dev, struct disk_pages *p, bool json)
{
	struct disk_cause unsaid = { 0 };
	long vwc = (p->ctrl.vwc & 1) ? nvme_admin_get_features(dev, NVME_FEAT_VOLATILE_WC, &unsaid) : -1;
	long ps = nvme_admin_get_features(dev, NVME_FEAT_POWER_MGMT, &unsaid);
	uint32_t apst = 0;
	bool have_apst = (p->ctrl.apsta & 1) &&
			 nvme_admin_get_features_data(dev, NVME_FEAT_APST, p->apst_table, sizeof(p->apst_table), &apst,
						      &unsaid) == 0;

	bool have_slots = nvme_admin_get_log(dev, NVME_LOG_FW_SLOT, &p->fw_slots, sizeof(p->fw_slots), &unsaid) == 0;
	bool have_health = json && nvme_admin_get_log(dev, NVME_LOG_SMART_HEALTH, p->health, sizeof(p->health), &unsaid) == 0;

	p->state = (struct nvme_state){
		.write_cache = vwc < 0 ? -1 : (int)(vwc & 1),
		.apst = have_apst ? (int)(apst & 1) : -1,
		.power_state = ps < 0 ? -1 : (int)(ps & NVME_PM_STATE_MASK),
		.apst_table = have_apst ? p->apst_table : NULL,
		.fw_slots = have_slots ? &p->fw_slots : NULL,
		.health = have_health ? p->health : NULL,
	};
}

/* Identify Controller; for -I and -i the namespace's too (a failure there is a lesser cause) and for -I the features. */
static int nvme_pages_read(struct device *dev, enum pages_form form, struct disk_pages **pp, struct disk_cause *c)
{
	struct disk_pages *p = calloc(1, sizeof(*p));
	int err = p ? nvme_admin_identify(dev, NVME_CNS_CONTROLLER, 0, &p->ctrl, c) : ENOMEM;

	if (err) {
		free(p);
		return err;
	}
	p->nsid = nvme_nsid(dev);
	if (form != PAGES_RAW && nvme_nsid(dev) != NVME_NSID_ALL)
		p->have_ns = nvme_identify_namespace(dev, &p->ns, c) == 0;
	if (form == PAGES_TEXT || form == PAGES_JSON)
		read_state(dev, p, form == PAGES_JSON);
	*pp = p;
	return 0;
}

/* An Identify string: blanks and NULs at the end removed, control characters escaped. */
static void id_string(char *dst, size_t size, const char *src, size_t len)
{
	device_text((const uint8_t *)src, len, dst, size);
}

static int nvme_pages_show(const struct disk_pages *p, enum pages_form form)
{
	const struct nvme_id_ctrl *ctrl = &p->ctrl;
	char model[4 * sizeof(ctrl->mn) + 1], fw[4 * sizeof(ctrl->fr) + 1], serial[4 * sizeof(ctrl->sn) + 1];

	if (form == PAGES_TEXT || form == PAGES_JSON) {
		nvme_print_identify(ctrl, p->have_ns ? &p->ns : NULL, p->nsid, &p->state);
		if (form == PAGES_JSON)
			nvme_json_identify(ctrl, p->have_ns ? &p->ns : NULL, p->nsid, &p->state);
		return 0;
	}
	id_string(model, sizeof(model), ctrl->mn, sizeof(ctrl->mn));
	id_string(fw, sizeof(fw), ctrl->fr, sizeof(ctrl->fr));
	id_string(serial, sizeof(serial), ctrl->sn, sizeof(ctrl->sn));
	out("\n Model=%s, FwRev=%s, SerialNo=%s\n", model, fw, serial);
	if (p->have_ns)
		out(" Namespace=%u, Sectors=%llu, SectSize=%llu\n", p->nsid, (unsigned long long)le64toh(p->ns.nsze),
		    (unsigned long long)nvme_lba_bytes(nvme_ns_format(&p->ns)));
	out("\n");
	return 0;
}

static bool nvme_pages_raw(const struct disk_pages *p, const void **bytes, size_t *len, const char **name)
{
	*bytes = &p->ctrl;
	*len = NVME_IDENTIFY_BYTES;
	*name = "NVMe Identify Controller";
	return true;
}

static void nvme_pages_free(struct disk_pages *p)
{
	free(p);
}

/* ---- power, cache, flush ---- */

/*
 * The kernel's APST latency limit for the controller behind dev, as sysfs
 * says it (a number of microseconds, or a word); false where it does not.
 */
static bool apst_latency_limit(const struct device *dev, char *buf, size_t size)
{
	char dir[128];

	if (!nvme_controller_dir(dev->fd, dir, sizeof(dir) - 6))
		return false;
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/power");
	return sysfs_read_line(dir, "pm_qos_latency_tolerance_us", buf, size) == 0;
}

/*
 * The latency limit the kernel's APST keeps to, in microseconds (UINT64_MAX:
 * none), and its words for it: "any" lifts it, "auto" is the module's
 * default_ps_max_latency_us.  false where sysfs does not say.
 */
static bool kernel_latency_limit(const struct device *dev, unsigned long long *us, char *why, size_t size)
{
	char limit[32], dflt[32];

	if (!apst_latency_limit(dev, limit, sizeof(limit)))
		return false;
	if (strcmp(limit, "any") == 0) {
		*us = UINT64_MAX;
		return true;
	}
	if (strcmp(limit, "auto") == 0) {
		if (sysfs_read_line("/sys/module/nvme_core/parameters", "default_ps_max_latency_us", dflt, sizeof(dflt)) ||
		    sysfs_parse_u64(dflt, us))
			return false;
		snprintf(why, size, "%llu us, nvme_core.default_ps_max_latency_us", *us);
		return true;
	}
	if (sysfs_parse_u64(limit, us))
		return false;
	snprintf(why, size, "%llu us in pm_qos_latency_tolerance_us", *us);
	return true;
}

/* -C: the state's descriptor (power, kind), APST and the kernel's limit. */
static void power_details(struct device *dev, const struct nvme_id_ctrl *ctrl, struct disk_power_mode *m)
{
	const struct nvme_power_state *psd = &ctrl->psd[m->power_state];
	uint8_t table[NVME_APST_BYTES];
	uint32_t apst = 0;
	struct disk_cause unsaid = { 0 };
	bool have_apst = (ctrl->apsta & 1) &&
			 nvme_admin_get_features_data(dev, NVME_FEAT_APST, table, sizeof(table), &apst, &unsaid) == 0;

	m->have_descriptor = true;
	m->operational = !(psd->flags & NVME_PS_NOPS);
	nvme_power_text(psd, m->max_power, sizeof(m->max_power));
	m->max_power_watts = nvme_power_watts(psd);
	m->apst = !(ctrl->apsta & 1) ? APST_NOT_SUPPORTED : !have_apst ? APST_UNKNOWN : (apst & 1) ? APST_ENABLED : APST_DISABLED;
	if (!apst_latency_limit(dev, m->latency_limit, sizeof(m->latency_limit)))
		m->latency_limit[0] = '\0';
}

/* -C: Get Features Power Management does not change the state; the descriptors say what it is. */
static int nvme_disk_power_mode(struct device *dev, struct disk_power_mode *m)
{
	long ps = nvme_admin_get_features(dev, NVME_FEAT_POWER_MGMT, &m->cause);
	struct nvme_id_ctrl *ctrl;
	int err;

	if (ps < 0)
		return (int)-ps;	/* EOPNOTSUPP where a USB bridge's tunnel does not carry Get Features */
	m->power_state = (int)(ps & NVME_PM_STATE_MASK);
	m->state = "active/idle";
	m->power = DISK_POWER_ACTIVE;
	/* Without the descriptors, the state is all there is to say (the failed Identify is said). */
	ctrl = nvme_identify_controller(dev, &err, &m->cause);
	if (ctrl && (unsigned int)m->power_state <= ctrl->npss) {
		if (ctrl->psd[m->power_state].flags & NVME_PS_NOPS) {
			m->state = "non-operational";
			m->power = DISK_POWER_IDLE;	/* --metrics' "idle"; nvme_disk_power_state's standby */
		}
		power_details(dev, ctrl, m);
	}
	free(ctrl);
	return 0;
}

/* A state's entry and exit latency together: what the kernel's APST holds against its limit. */
static unsigned long long state_latency(const struct nvme_power_state *p)
{
	return (unsigned long long)le32toh(p->enlat) + le32toh(p->exlat);
}

/* The non-operational power state that draws least within a latency limit (us); -1 where there is none. */
static int deepest_nops_within(const struct nvme_id_ctrl *ctrl, unsigned long long limit)
{
	int best = -1;

	for (unsigned int i = 0; i <= ctrl->npss && i < 32; i++)
		if ((ctrl->psd[i].flags & NVME_PS_NOPS) && state_latency(&ctrl->psd[i]) <= limit &&
		    (best < 0 || nvme_power_watts(&ctrl->psd[i]) <= nvme_power_watts(&ctrl->psd[best])))
			best = (int)i;
	return best;
}

/*
 * The deepest non-operational state the kernel would let the controller
 * enter: its APST skips states slower than the latency limit, so -y and
 * the idle watcher do too.  why gets a line on what was passed over ("" if
 * nothing was).  -1 where no state is allowed (why says why).
 */
static int deepest_nops(const struct device *dev, const struct nvme_id_ctrl *ctrl, char *why, size_t size)
{
	unsigned long long limit = UINT64_MAX;
	char words[80] = "";
	int deepest = deepest_nops_within(ctrl, UINT64_MAX), allowed;

	why[0] = '\0';
	if (deepest < 0 || !kernel_latency_limit(dev, &limit, words, sizeof(words)) || limit == UINT64_MAX)
		return deepest;
	allowed = deepest_nops_within(ctrl, limit);
	if (allowed == deepest)
		return deepest;
	if (allowed < 0)
		snprintf(why, size, "every non-operational state takes longer to enter and leave than the kernel's latency"
			 " limit (%s): none entered", words);
	else
		snprintf(why, size, "PS%d, the deepest, takes %llu us to enter and leave, over the kernel's latency limit (%s):"
			 " PS%d instead", deepest, state_latency(&ctrl->psd[deepest]), words, allowed);
	return allowed;
}

/* Get Features does not change the power state; a non-operational state counts as standby. */
static int nvme_disk_power_state(struct device *dev, enum disk_power *state)
{
	struct disk_cause unsaid = { 0 };
	long ps = nvme_admin_get_features(dev, NVME_FEAT_POWER_MGMT, &unsaid);
	int err = EIO;
	struct nvme_id_ctrl *ctrl = ps < 0 ? NULL : nvme_identify_controller(dev, &err, &unsaid);

	*state = DISK_POWER_UNKNOWN;
	if (ctrl && (ps & NVME_PM_STATE_MASK) <= ctrl->npss)
		*state = (ctrl->psd[ps & NVME_PM_STATE_MASK].flags & NVME_PS_NOPS) ? DISK_POWER_STANDBY : DISK_POWER_ACTIVE;
	free(ctrl);
	return err;
}

/*
 * -y: the deepest non-operational power state within the kernel's latency
 * limit, which the controller leaves by itself on the next I/O.
 */
static int nvme_standby_target(struct device *dev, struct disk_standby *t, struct disk_cause *c)
{
	int err;
	struct nvme_id_ctrl *ctrl = nvme_identify_controller(dev, &err, c);

	if (!err) {
		t->nvme_state = deepest_nops(dev, ctrl, t->note, sizeof(t->note));
		if (t->nvme_state < 0) {
			/* The kernel's limit, where it is why there is none: said as the reason. */
			snprintf(c->why, sizeof(c->why), "%s",
				 t->note[0] ? t->note : "this NVMe controller has no non-operational power state");
			err = EOPNOTSUPP;
		} else {
			nvme_power_text(&ctrl->psd[t->nvme_state], t->max_power, sizeof(t->max_power));
		}
	}
	free(ctrl);
	return err;
}

static int nvme_disk_standby_now(struct device *dev, const struct disk_standby *t, struct disk_cause *c)
{
	struct disk_standby chosen = { .nvme_state = -1 };
	int err = t ? 0 : nvme_standby_target(dev, &chosen, c);

	if (err)
		return err;
	return nvme_admin_set_features(dev, NVME_FEAT_POWER_MGMT, (uint32_t)(t ? t : &chosen)->nvme_state,
				       "NVMe Set Features (power state)", c);
}

/* A power option NVMe has no command for: how its idle power works instead. */
static void nvme_power_managed(struct device *dev, char *text, size_t size)
{
	char limit[32];
	bool have = apst_latency_limit(dev, limit, sizeof(limit));

	snprintf(text, size, "their idle power is APST, deeper power states the controller enters"
		 " by itself after idle times the kernel programs from its latency limit (%s%s%s, nvme_core.default_ps_max_latency_us"
		 " at boot); -y enters the deepest non-operational one now",
		 have ? "now " : "", have ? limit : "", have ? " us in pm_qos_latency_tolerance_us" :
		 "/sys/class/nvme/nvmeX/power/pm_qos_latency_tolerance_us");
}

/* -W queried: Identify Controller's VWC says whether there is a volatile write cache, Get Features whether it is on. */
static int nvme_cache_get(struct device *dev, enum disk_cache which, enum disk_cache_state *st, struct disk_cause *c)
{
	int err;
	struct nvme_id_ctrl *ctrl = nvme_identify_controller(dev, &err, c);
	long wce;

	(void)which;	/* NVMe has no read look-ahead (disk_ops.lookahead) */
	if (!err && !(ctrl->vwc & 1)) {
		*st = CACHE_UNSUPPORTED;
	} else if (!err) {
		wce = nvme_admin_get_features(dev, NVME_FEAT_VOLATILE_WC, c);
		if (wce < 0)
			err = EIO;
		else
			*st = (wce & 1) ? CACHE_ON : CACHE_OFF;
	}
	free(ctrl);
	return err;
}

/* --erc: the namespace's Error Recovery feature (its result dword, < 0 on failure): TLER, one limit, in 100 ms. */
static long error_recovery(struct device *dev, struct disk_erc *e)
{
	e->source = "Error Recovery feature (05h)";
	e->one_limit = true;
	return nvme_admin_get_ns_features(dev, NVME_FEAT_ERROR_RECOVERY, &e->cause);
}

static int nvme_erc_get(struct device *dev, struct disk_erc *e)
{
	long v = error_recovery(dev, e);

	if (v < 0)
		return EIO;
	e->read_ds = e->write_ds = (unsigned int)(v & NVME_ERR_REC_TLER_MASK);
	return 0;
}

/* TLER set, DULBE left as the namespace has it. */
static int nvme_erc_set(struct device *dev, struct disk_erc *e)
{
	long v = error_recovery(dev, e);

	if (v < 0)
		return EIO;
	if (e->read_ds != e->write_ds) {
		e->cause.about_option = true;
		snprintf(e->cause.why, sizeof(e->cause.why),
			 "an NVMe namespace has one time limit for reads and writes (TLER): give one value");
		return EINVAL;
	}
	return nvme_admin_set_ns_features(dev, NVME_FEAT_ERROR_RECOVERY,
					  ((uint32_t)v & ~NVME_ERR_REC_TLER_MASK) | (e->read_ds & NVME_ERR_REC_TLER_MASK),
					  "NVMe Set Features (Error Recovery)", &e->cause);
}

/* -W N: Set Features Volatile Write Cache; turning it off, what it holds is flushed first. */
static int nvme_cache_set(struct device *dev, enum disk_cache which, bool on, struct disk_cause *c)
{
	int err = on ? 0 : nvme_io_flush(dev, c);

	(void)which;
	return err ? err : nvme_admin_set_features(dev, NVME_FEAT_VOLATILE_WC, on, "NVMe Set Features (volatile write cache)", c);
}

static int nvme_disk_flush(struct device *dev, struct disk_cause *c)
{
	return nvme_io_flush(dev, c);
}

/* ---- sectors ---- */

/* The namespace's size in LBAs and the LBA size, or an errno with *c saying why. */
static int namespace_geometry(struct device *dev, uint64_t *nlba, unsigned int *lba_bytes, struct disk_cause *c)
{
	struct nvme_id_ns *ns;
	int err;

	/* A controller node names no namespace: none is chosen for the user. */
	if (nvme_nsid(dev) == NVME_NSID_ALL) {
		snprintf(c->why, sizeof(c->why),
			 "%s is an NVMe controller, not a namespace: name the namespace (/dev/nvmeXnY or /dev/ngXnY)", dev->path);
		return EINVAL;
	}
	ns = malloc(sizeof(*ns));
	err = ns ? nvme_identify_namespace(dev, ns, c) : ENOMEM;
	if (!err) {
		unsigned int lbads = nvme_ns_format(ns)->lbads;

		*nlba = le64toh(ns->nsze);
		*lba_bytes = lbads >= 9 && lbads <= 16 ? 1u << lbads : 0;
		if (!*lba_bytes) {
			snprintf(c->why, sizeof(c->why), "NVMe namespace reports an LBA size of 2^%u bytes: not supported", lbads);
			err = EOPNOTSUPP;
		}
	}
	free(ns);
	return err;
}

/* --read-sector: Identify Namespace's size and LBA size. */
static int nvme_geometry(struct device *dev, struct disk_geometry *g, struct disk_cause *c)
{
	g->space = "namespace";
	return namespace_geometry(dev, &g->sectors, &g->sector_bytes, c);
}

/* Read of one block. */
static int nvme_sector_read(struct device *dev, uint64_t lba, void *buf, unsigned int bytes, struct disk_cause *c)
{
	return nvme_io_read(dev, lba, buf, bytes, c);
}

/* TRIM by Dataset Management, deallocate: at most 256 ranges of at most 2^32-1 blocks a command. */
static int nvme_disk_trim_limits(struct device *dev, struct trim_limits *l, struct disk_cause *c)
{
	unsigned int bytes;
	int err = namespace_geometry(dev, &l->capacity, &bytes, c);

	l->space = "namespace";
	l->max_ranges = NVME_DSM_MAX_RANGES;
	l->max_range_sectors = UINT32_MAX;
	return err;
}

static int nvme_disk_trim_send(struct device *dev, const struct sector_range *pieces, unsigned int n,
			       struct disk_cause *c)
{
	return nvme_io_deallocate(dev, pieces, n, c);
}

/*
 * TRIM over USB: Identify Controller's ONCS bit 2, Dataset Management.  A bridge turns the kernel's
 * UNMAP into its Deallocate, which a controller without it refuses.
 */
static int nvme_disk_discard_support(struct device *dev, struct disk_discard *d)
{
	int err;
	struct nvme_id_ctrl *ctrl = nvme_identify_controller(dev, &err, &d->cause);
	uint16_t oncs;

	d->command = "Deallocate";
	d->source = "Identify Controller ONCS bit 2";
	if (!ctrl)
		return err;
	oncs = le16toh(ctrl->oncs);
	free(ctrl);
	d->has = oncs & NVME_ONCS_DSM;
	snprintf(d->value, sizeof(d->value), "ONCS %04Xh", oncs);
	return 0;
}

/* -H: the SMART / Health log's composite temperature, and Identify Controller's WCTEMP and CCTEMP (0: none). */
static uint32_t nvme_disk_namespace(struct device *dev)
{
	return nvme_nsid(dev);
}

static int nvme_disk_temperature(struct device *dev, struct disk_temperature *t)
{
	uint8_t log[NVME_HEALTH_BYTES] = { 0 };
	struct nvme_id_ctrl *ctrl;
	int err;

	t->cause.what = "NVMe Get Log Page (SMART / Health)";
	if ((err = nvme_admin_get_log(dev, NVME_LOG_SMART_HEALTH, log, sizeof(log), &t->cause)))
		return err;
	t->source = TEMP_NVME_HEALTH;
	t->celsius = nvme_health_celsius(log);
	ctrl = nvme_identify_controller(dev, &err, &(struct disk_cause){ 0 });
	if (ctrl && le16toh(ctrl->wctemp))
		t->warning = (int)le16toh(ctrl->wctemp) - NVME_KELVIN_0C;
	if (ctrl && le16toh(ctrl->cctemp))
		t->critical = (int)le16toh(ctrl->cctemp) - NVME_KELVIN_0C;
	free(ctrl);
	return 0;
}

/* --power-on-hours: the SMART / Health log's count; one above 64 bits is beyond any disk's life, and said so. */
static int nvme_disk_power_on(struct device *dev, struct disk_power_on *p)
{
	uint8_t log[NVME_HEALTH_BYTES] = { 0 };
	int err;

	p->cause.what = "NVMe Get Log Page (SMART / Health)";
	if ((err = nvme_admin_get_log(dev, NVME_LOG_SMART_HEALTH, log, sizeof(log), &p->cause)))
		return err;
	if (!nvme_health_power_on_hours(log, &p->hours)) {
		snprintf(p->cause.why, sizeof(p->cause.why), "the controller counts more power-on hours than 64 bits hold");
		return EIO;
	}
	p->source = "SMART / Health log";
	return 0;
}

/* --scan-repair: the SMART / Health log's Media and Data Integrity Errors (unrecovered data integrity errors). */
static int nvme_disk_error_counts(struct device *dev, struct disk_error_counts *c)
{
	uint8_t log[NVME_HEALTH_BYTES] = { 0 };
	int err;

	c->cause.what = "NVMe Get Log Page (SMART / Health)";
	if ((err = nvme_admin_get_log(dev, NVME_LOG_SMART_HEALTH, log, sizeof(log), &c->cause)))
		return err;
	c->c[0].key = "media_errors";
	c->c[0].label = "media and data integrity errors";
	c->c[0].value = nvme_health_media_errors(log);
	c->n = 1;
	c->source = "SMART / Health log";
	return 0;
}

/*
 * --condition: the SMART / Health log (hours, wear, media errors, error log
 * entries) and the Device Self-test log, which a controller without
 * self-tests refuses (left not read).  Admin commands: nothing wakes.
 */
static int nvme_disk_condition(struct device *dev, struct disk_condition *d, struct disk_cause *c)
{
	static uint8_t log[NVME_SELF_TEST_LOG_BYTES];
	struct disk_cause ignored = { 0 };
	int err;

	c->what = "NVMe Get Log Page (SMART / Health)";
	if ((err = nvme_admin_get_log(dev, NVME_LOG_SMART_HEALTH, log, NVME_HEALTH_BYTES, c)))
		return err;
	nvme_health_condition(log, NVME_HEALTH_BYTES, d);
	if (!nvme_admin_get_log(dev, NVME_LOG_SELF_TEST, log, NVME_SELF_TEST_LOG_BYTES, &ignored))
		nvme_self_test_condition(log, NVME_SELF_TEST_LOG_BYTES, d);
	return 0;
}

/* Before a timing: the volatile write cache out.  Nothing said on failure. */
static void nvme_disk_flush_quietly(struct device *dev)
{
	struct disk_cause ignored = { 0 };

	(void)nvme_io_flush(dev, &ignored);
}

/* Copy n bytes of an Identify string, its trailing spaces left off. */
static void id_text(char *dst, size_t size, const char *src, size_t n)
{
	while (n && (src[n - 1] == ' ' || !src[n - 1]))
		n--;
	snprintf(dst, size, "%.*s", (int)n, src);
}

static bool all_zero(const uint8_t *p, size_t n)
{
	while (n && !p[n - 1])
		n--;
	return !n;
}

static void hex_id(char *dst, size_t size, const char *prefix, const uint8_t *p, size_t n)
{
	size_t k = (size_t)snprintf(dst, size, "%s", prefix);

	for (size_t i = 0; i < n && k + 3 <= size; i++)
		k += (size_t)snprintf(dst + k, size - k, "%02x", p[i]);
}

/* An erase record's device: Identify Controller's strings, the namespace's NGUID or EUI64 and size. */
static int nvme_disk_identity(struct device *dev, struct disk_identity *d)
{
	int err;
	struct nvme_id_ctrl *ctrl = nvme_identify_controller(dev, &err, &d->cause);
	struct nvme_id_ns *ns = NULL;

	if (!ctrl)
		return err;
	id_text(d->model, sizeof(d->model), ctrl->mn, sizeof(ctrl->mn));
	id_text(d->serial, sizeof(d->serial), ctrl->sn, sizeof(ctrl->sn));
	id_text(d->firmware, sizeof(d->firmware), ctrl->fr, sizeof(ctrl->fr));
	d->media = "nvme";
	free(ctrl);
	/* A controller node names no namespace: its identity is the controller's. */
	if (nvme_nsid(dev) == NVME_NSID_ALL)
		return 0;
	if (posix_memalign((void **)&ns, 4096, NVME_IDENTIFY_BYTES))
		return ENOMEM;
	err = nvme_identify_namespace(dev, ns, &d->cause);
	if (!err && !all_zero(ns->nguid, sizeof(ns->nguid)))
		hex_id(d->wwn, sizeof(d->wwn), "nguid.", ns->nguid, sizeof(ns->nguid));
	else if (!err && !all_zero(ns->eui64, sizeof(ns->eui64)))
		hex_id(d->wwn, sizeof(d->wwn), "eui.", ns->eui64, sizeof(ns->eui64));
	if (!err && nvme_ns_format(ns)->lbads >= 9 && nvme_ns_format(ns)->lbads < 32)
		d->capacity_bytes = le64toh(ns->nsze) << nvme_ns_format(ns)->lbads;
	free(ns);
	return err;
}

/* Security Receive, where Identify Controller's OACS bit 0 says the controller has it. */
static int nvme_disk_security_recv(struct device *dev, uint8_t protocol, uint16_t sp_specific, uint8_t *buf, size_t len,
				   size_t *got, struct disk_cause *c)
{
	int err;
	struct nvme_id_ctrl *ctrl = nvme_identify_controller(dev, &err, c);
	bool has = ctrl && (le16toh(ctrl->oacs) & NVME_OACS_SECURITY);

	free(ctrl);
	*got = 0;
	if (err)
		return err;
	if (!has) {
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "this NVMe controller has no Security Send/Receive (OACS bit 0)");
		return EOPNOTSUPP;
	}
	if ((err = nvme_admin_security_receive(dev, protocol, sp_specific, buf, (uint32_t)len, c)))
		return err;
	*got = len;
	return 0;
}

/* Only after a Security Receive of the same session found the command (its OACS check). */
static int nvme_disk_security_send(struct device *dev, uint8_t protocol, uint16_t sp_specific, const uint8_t *buf,
				   size_t len, struct disk_cause *c)
{
	return nvme_admin_security_send(dev, protocol, sp_specific, buf, (uint32_t)len, c);
}

const struct disk_ops nvme_disk = {
	.kind = "NVMe",
	.erc_get = nvme_erc_get,
	.erc_set = nvme_erc_set,
	.geometry = nvme_geometry,
	.media_verify_check = nvme_media_verify_check,
	.media_verify = nvme_media_verify,
	.sector_read = nvme_sector_read,
	.trim_limits = nvme_disk_trim_limits,
	.trim_send = nvme_disk_trim_send,
	.discard_support = nvme_disk_discard_support,
	.pages_read = nvme_pages_read,
	.pages_show = nvme_pages_show,
	.pages_raw = nvme_pages_raw,
	.pages_free = nvme_pages_free,
	.cache_get = nvme_cache_get,
	.cache_set = nvme_cache_set,
	.flush = nvme_disk_flush,
	.power_mode = nvme_disk_power_mode,
	.sanitize_check = nvme_sanitize_check,
	.sanitize_start = nvme_sanitize_start,
	.sanitize_status = nvme_sanitize_status,
	.sanitize_poll = nvme_sanitize_poll,
	.format_check = nvme_format_check,
	.format_start = nvme_format_start,
	.block_formats = nvme_block_formats,
	.block_format_set = nvme_block_format_set,
	.security_recv = nvme_disk_security_recv,
	.security_send = nvme_disk_security_send,
	.flush_quietly = nvme_disk_flush_quietly,
	.erase_choices = nvme_erase_choices,
	.power_managed = nvme_power_managed,
	.power_state = nvme_disk_power_state,
	.standby_target = nvme_standby_target,
	.standby_now = nvme_disk_standby_now,
	.erase_scope = nvme_erase_scope,
	.namespace_id = nvme_disk_namespace,
	.firmware = nvme_firmware,
	.firmware_piece = nvme_firmware_piece,
	.firmware_commit = nvme_firmware_commit,
	.identity = nvme_disk_identity,
	.temperature = nvme_disk_temperature,
	.power_on = nvme_disk_power_on,
	.error_counts = nvme_disk_error_counts,
	.self_test_start = nvme_disk_self_test_start,
	.self_test_progress = nvme_disk_self_test_progress,
	.condition_read = nvme_disk_condition,
	.queries_wake_nothing = true,
};
