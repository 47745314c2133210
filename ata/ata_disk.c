/*
 * The commands of every disk, done on an ATA drive (libata disks, SAT
 * bridges, the legacy IDE driver): -I and -i from IDENTIFY, and the
 * table of its disk operations.  The operations that word what it
 * returns are in ops/ (ata_features.c for SET FEATURES-style settings,
 * power_mode.c, sectors.c, ...); every command goes through the ATA
 * commands (ata_commands.c, sat.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/hdreg.h>

#include "array.h"
#include "ata_disk.h"
#include "ata_verify.h"
#include "ata_trusted.h"
#include "ata_epc.h"
#include "ata_records.h"
#include "ata_condition.h"
#include "identify.h"
#include "report.h"
#include "unaligned.h"
#include "ata_commands.h"


/* The cause of an ATA command that failed, as 9.65 names the command. */
int ata_cause(struct disk_cause *c, const char *what, const struct ata_result *res, int err)
{
	if (err) {
		c->what = what;
		snprintf(c->why, sizeof(c->why), "%s", res->cause);
	}
	return err;
}

/* IDENTIFY, read once a device; a failure is the cause where it first fails, and not again (*err either way). */
const uint16_t *identify_for(struct device *dev, int *err, struct disk_cause *c)
{
	struct ata_result res;
	bool first = !ata_identify_failed_before(dev);
	const uint16_t *id = ata_identify(dev, err, &res);

	if (!id && first)
		ata_cause(c, "HDIO_DRIVE_CMD(identify)", &res, *err);
	return id;
}

/* What -I and -i show of an ATA drive. */
struct disk_pages {
	uint16_t id[IDENTIFY_WORDS];
	uint8_t raw[2 * IDENTIFY_WORDS];	/* the page as the drive sent it */
	bool no_identity;	/* -i: the driver has none (ENOMSG) */
	uint8_t sector_config[512], sata_settings[512];
	struct identify_logs logs;
};

/* -i: the page the driver keeps (HDIO_GET_IDENTITY), with the multiple count it runs with. */
static int read_identity(struct device *dev, struct disk_pages *p, struct disk_cause *c)
{
	long multcount = -1;
	int err;

	if (ioctl(dev->fd, HDIO_GET_MULTCOUNT, &multcount)) {
		struct ata_result res;
		const uint16_t *full = ata_identify(dev, &err, &res);

		multcount = -1;
		if (full)
			multcount = (full[ATA_ID_MULTIPLE] & 0xff00) == 0x100 ? full[ATA_ID_MULTIPLE] & 0xff : 0;
	}
	if (ioctl(dev->fd, HDIO_GET_IDENTITY, p->id)) {
		err = errno;
		if (err == ENOMSG) {
			p->no_identity = true;
			return 0;
		}
		c->what = "HDIO_GET_IDENTITY";
		return err;
	}
	if (multcount != -1)
		p->id[ATA_ID_MULTIPLE] = (uint16_t)(multcount | 0x100);
	else
		p->id[ATA_ID_MULTIPLE] &= (uint16_t)~0x100;
	return 0;
}

/* -I: IDENTIFY (DEVICE or PACKET DEVICE), and for its text the logs it prints from (the decoder does no I/O). */
static int read_identify(struct device *dev, bool logs, struct disk_pages *p, struct disk_cause *c)
{
	struct ata_result res;
	bool want_sector_config, want_sata_settings;
	int err;
	const uint16_t *id = ata_identify(dev, &err, &res);

	if (!id)
		return ata_cause(c, "HDIO_DRIVE_CMD(identify)", &res, err);
	memcpy(p->id, id, sizeof(p->id));
	for (int i = 0; i < IDENTIFY_WORDS; i++) {
		p->raw[2 * i] = (uint8_t)id[i];
		p->raw[2 * i + 1] = (uint8_t)(id[i] >> 8);
	}
	if (!logs)
		return 0;
	identify_logs_wanted(id, &want_sector_config, &want_sata_settings);
	/* A log that cannot be read is left out of the text, and said (a lesser cause). */
	if (want_sector_config && ata_read_log_page(dev, ATA_LOG_SECTOR_CONFIGURATION, 0, p->sector_config, c) == 0)
		p->logs.sector_config = p->sector_config;
	if (want_sata_settings && ata_read_log_page(dev, ATA_LOG_IDENTIFY_DEVICE_DATA, ATA_IDDATA_PAGE_SATA, p->sata_settings,
						    c) == 0)
		p->logs.sata_settings = p->sata_settings;
	return 0;
}

static int ata_pages_read(struct device *dev, enum pages_form form, struct disk_pages **pp, struct disk_cause *c)
{
	struct disk_pages *p = calloc(1, sizeof(*p));
	int err;

	if (!p)
		return ENOMEM;
	if (form == PAGES_BRIEF || form == PAGES_BRIEF_JSON)
		err = read_identity(dev, p, c);
	else
		err = read_identify(dev, form == PAGES_TEXT, p, c);
	if (err) {
		free(p);
		return err;
	}
	*pp = p;
	return 0;
}

static int ata_pages_show(const struct disk_pages *p, enum pages_form form)
{
	switch (form) {
	case PAGES_BRIEF_JSON:
	case PAGES_BRIEF:
		if (p->no_identity) {
			out(" no identification info available\n");
			return 0;
		}
		if (form == PAGES_BRIEF_JSON)
			identify_json_short(p->id);
		identify_print_short(p->id);
		return 0;
	case PAGES_JSON:
		identify_json(p->id);
		return 0;
	default:
		return identify_print(p->id, &p->logs);
	}
}

static bool ata_pages_raw(const struct disk_pages *p, const void **bytes, size_t *len, const char **name)
{
	*bytes = p->raw;
	*len = sizeof(p->raw);
	*name = "IDENTIFY DEVICE";
	return true;
}

static void ata_pages_free(struct disk_pages *p)
{
	free(p);
}

/*
 * CHECK POWER MODE's COUNT (ACS-3 7.3.2, normal outputs), decoded once for
 * -C, --metrics and the checks that must not wake a drive: 9.65's word
 * for -C (which has none for the EPC conditions 01h and 81h-83h) and the
 * state.  40h and 41h are the NV Cache power mode of ATA8-ACS: 40h with
 * its spindle spun down, which a command that reads the media (SMART READ
 * DATA, a setting's check) would spin up, so a standby to the checks that
 * must not wake a drive; 41h with it spun up, active, as the standard says
 * (issue 65 asked 41h taken as spun down too; ACS-3 says spun up).
 */
static const struct {
	uint8_t count;
	const char *word;
	enum disk_power power;
} power_counts[] = {
	{ 0x00, "standby", DISK_POWER_STANDBY },	/* Standby_z */
	{ 0x01, "unknown", DISK_POWER_STANDBY },	/* Standby_y */
	{ 0x40, "NVcache_spindown", DISK_POWER_STANDBY },
	{ 0x41, "NVcache_spinup", DISK_POWER_ACTIVE },
	{ 0x80, "idle", DISK_POWER_IDLE },
	{ 0x81, "unknown", DISK_POWER_IDLE },	/* Idle_a */
	{ 0x82, "unknown", DISK_POWER_IDLE },	/* Idle_b */
	{ 0x83, "unknown", DISK_POWER_IDLE },	/* Idle_c */
	{ 0xff, "active/idle", DISK_POWER_ACTIVE },
};

/* -C: the state a drive says it is in (CHECK POWER MODE, or a bridge's sense data), into m. */
static int ata_disk_power_mode(struct device *dev, struct disk_power_mode *m)
{
	struct ata_result res;
	int err;

	m->power = DISK_POWER_UNKNOWN;
	/* Some bridges spin a drive up for any ATA command: behind one, what needs none first. */
	if ((m->state = sat_low_power_state(dev))) {
		m->power = strcmp(m->state, "standby") == 0 ? DISK_POWER_STANDBY : DISK_POWER_IDLE;
		return 0;
	}
	err = ata_check_power_mode(dev, &res);
	if (err)
		return ata_cause(&m->cause, "CHECK POWER MODE", &res, err);
	if (!res.have_regs) {
		/* 9.65 decoded the zeros as "standby". */
		snprintf(m->cause.why, sizeof(m->cause.why),
			 "CHECK POWER MODE: the state is unknown: the bridge returned no registers (it ignores CK_COND)");
		return EIO;
	}
	m->state = "unknown";
	for (size_t i = 0; i < ARRAY_SIZE(power_counts); i++)
		if (power_counts[i].count == (res.out.count & 0xff)) {
			m->state = power_counts[i].word;
			m->power = power_counts[i].power;
		}
	return 0;
}

static int ata_disk_power_state(struct device *dev, enum disk_power *state)
{
	struct disk_power_mode m = { .power_state = -1 };
	int err = ata_disk_power_mode(dev, &m);

	*state = err ? DISK_POWER_UNKNOWN : m.power;
	return err;
}

/* A power command, and where the drive refuses it, its ATA-1 opcode. */
static int ata_power_command(struct device *dev, uint8_t command, uint8_t old, const char *what, struct disk_cause *c)
{
	struct ata_result res;
	int err = ata_nondata(dev, command, 0, 0, 0, false, &res, 60);

	if (err)
		err = ata_nondata(dev, old, 0, 0, 0, false, &res, 60);
	return ata_cause(c, what, &res, err);
}

/* -y and the idle watcher: STANDBY IMMEDIATE. */
static int ata_disk_standby_now(struct device *dev, const struct disk_standby *t, struct disk_cause *c)
{
	(void)t;	/* an ATA drive has one standby */
	return ata_power_command(dev, ATA_OP_STANDBY_IMMEDIATE, ATA_OP_STANDBY_IMMEDIATE_OLD, "HDIO_DRIVE_CMD(standby)", c);
}

/* -Y: SLEEP; only a reset wakes the drive, which the kernel sends with the next I/O. */
static int ata_disk_sleep_now(struct device *dev, struct disk_cause *c, char *advice, size_t size)
{
	(void)advice;
	(void)size;
	return ata_power_command(dev, ATA_OP_SLEEP, ATA_OP_SLEEP_OLD, "HDIO_DRIVE_CMD(sleep)", c);
}

/* -S: IDLE with the timer, in its own encoding, in COUNT. */
static int ata_disk_standby_timer(struct device *dev, unsigned int value, long seconds, struct disk_cause *c)
{
	struct ata_result res;

	(void)seconds;	/* the drive takes the encoding */
	return ata_cause(c, "HDIO_DRIVE_CMD(setidle)", &res, ata_nondata(dev, ATA_OP_IDLE, 0, (uint16_t)value, 0, false, &res, 0));
}

/* --erc: SCT Error Recovery Control, where word 206 says the drive has it. */
static int erc_supported(struct device *dev, struct disk_erc *e)
{
	int err;
	const uint16_t *id = identify_for(dev, &err, &e->cause);

	e->source = "SCT Error Recovery Control";
	if (!id)
		return err;
	if (!ata_id_has_sct_erc(id)) {
		e->cause.about_option = true;
		snprintf(e->cause.why, sizeof(e->cause.why), "the drive has no SCT Error Recovery Control (IDENTIFY word 206 bit 3)");
		return EOPNOTSUPP;
	}
	return 0;
}

/* Both timers, set from e or returned into it. */
static int erc_timers(struct device *dev, struct disk_erc *e, bool set)
{
	struct ata_result res;
	uint16_t read_ds = (uint16_t)e->read_ds, write_ds = (uint16_t)e->write_ds;
	int err = erc_supported(dev, e);

	if (!err)
		err = ata_sct_erc(dev, set, ATA_SCT_ERC_READ_TIMER, &read_ds, &res);
	if (!err)
		err = ata_sct_erc(dev, set, ATA_SCT_ERC_WRITE_TIMER, &write_ds, &res);
	if (err && !e->cause.why[0])
		return ata_cause(&e->cause, set ? "SCT Error Recovery Control (set)" : "SCT Error Recovery Control (return)",
				 &res, err);
	e->read_ds = read_ds;
	e->write_ds = write_ds;
	return err;
}

static int ata_disk_erc_get(struct device *dev, struct disk_erc *e)
{
	return erc_timers(dev, e, false);
}

/* The drive forgets both at a power cycle and a reset: --erc is one a configuration applies again. */
static int ata_disk_erc_set(struct device *dev, struct disk_erc *e)
{
	return erc_timers(dev, e, true);
}

/* The sanitize actions: SANITIZE's subcommand, its signature, and 9.65's name for it. */
static const struct {
	uint16_t feature;
	uint64_t key;
	const char *name;
	enum erase_kind leaves;	/* ACS lets a block erase leave any one value */
} sanitize_actions[] = {
	[SANITIZE_BLOCK_ERASE] = { ATA_SANITIZE_BLOCK_ERASE, ATA_SANITIZE_BLOCK_KEY, "SANITIZE_BLOCK_ERASE", ERASE_TO_SOME_PATTERN },
	[SANITIZE_CRYPTO_ERASE] = { ATA_SANITIZE_CRYPTO_SCRAMBLE, ATA_SANITIZE_CRYPTO_KEY, "SANITIZE_CRYPTO_SCRAMBLE", ERASE_CRYPTO },
	[SANITIZE_OVERWRITE] = { ATA_SANITIZE_OVERWRITE, ATA_SANITIZE_OVERWRITE_KEY, "SANITIZE_OVERWRITE", ERASE_TO_PATTERN },
	/* SANITIZE STATUS EXT with CLEAR SANITIZE OPERATION FAILED: the failure state left. */
	[SANITIZE_EXIT_FAILURE] = { ATA_SANITIZE_STATUS_EXT, 0, "SANITIZE_STATUS (clear failure)", ERASE_TO_SOME_PATTERN },
	[SANITIZE_STATUS] = { ATA_SANITIZE_STATUS_EXT, 0, "SANITIZE_STATUS", ERASE_TO_SOME_PATTERN },
};

/* The drive has the SANITIZE feature set, and no NVMe switch was asked of it. */
static int ata_sanitize_check(struct device *dev, struct sanitize_request *r, struct disk_cause *c)
{
	int err;
	const uint16_t *id;

	if (r->no_deallocate) {
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "ATA SANITIZE has no choice of deallocation: --sanitize-no-deallocate is for NVMe");
		return EOPNOTSUPP;
	}
	if (!(id = identify_for(dev, &err, c)))
		return err;
	if (!ata_id_has_sanitize(id)) {
		c->whole_line = true;
		snprintf(c->why, sizeof(c->why), "SANITIZE feature set is not supported");
		return EOPNOTSUPP;
	}
	snprintf(r->command, sizeof(r->command), "%s command", sanitize_actions[r->action].name);
	r->leaves = sanitize_actions[r->action].leaves;
	return 0;
}

/* SANITIZE: the signature, an overwrite's pattern and passes, AUSE, or exit failure mode's CLEAR. */
static int ata_sanitize_start(struct device *dev, const struct sanitize_request *r, struct disk_cause *c)
{
	uint64_t lba = sanitize_actions[r->action].key;
	uint16_t count = 0;
	bool exit_failure = r->action == SANITIZE_EXIT_FAILURE;
	struct ata_result res;

	if (r->action == SANITIZE_OVERWRITE) {
		lba |= r->pattern;
		count = (uint16_t)r->passes;
	}
	if (r->ause && !exit_failure)
		count |= ATA_SANITIZE_FAILURE_MODE;
	if (exit_failure)
		count |= ATA_SANITIZE_CLEAR_FAILED;
	return ata_cause(c, "SANITIZE", &res,
			 ata_sanitize(dev, sanitize_actions[r->action].feature, lba, count, exit_failure, &res));
}

/* --sanitize-status: SANITIZE STATUS EXT's bits, in 9.65's SD states. */
static int ata_sanitize_status(struct device *dev, struct sanitize_poll *p)
{
	struct ata_result res;
	unsigned int flags;
	int err = ata_sanitize(dev, ATA_SANITIZE_STATUS_EXT, 0, 0, true, &res);

	if (err)
		return ata_cause(&p->cause, "SANITIZE", &res, err);
	if (!ata_sanitize_status_returned(&res)) {
		snprintf(p->cause.why, sizeof(p->cause.why), "SANITIZE_STATUS: the status bits were not returned (fixed-format sense)");
		return EIO;
	}
	flags = res.out.count >> 8;
	p->progress = (unsigned int)(res.out.lba & 0xffff);
	p->has_progress = true;
	p->percent = p->progress == 0xffff ? 100 : 100 * (p->progress + 1) / 0xffff;
	if (flags & ATA_SANITIZE_FROZEN) {
		p->phase = SANITIZE_NONE;
		p->status = "frozen";
		p->state_text = "SD1 Sanitize Frozen";
	} else if (flags & ATA_SANITIZE_IN_PROGRESS) {
		p->phase = SANITIZE_RUNNING;
		p->status = "in progress";
		p->state_text = "SD2 Sanitize operation In Process";
	} else {
		p->phase = SANITIZE_NONE;
		p->status = "idle";
		p->state_text = "SD0 Sanitize Idle";
	}
	p->last_ok = flags & ATA_SANITIZE_COMPLETED_WITHOUT_ERROR;
	p->antifreeze = flags & ATA_SANITIZE_ANTIFREEZE;
	return 0;
}

/* Why the last sanitize failed, by the reason a SANITIZE STATUS EXT that ended with ABRT gives. */
static const char *const sanitize_failures[] = {
	[ATA_SANITIZE_REASON_FAILED] = "the sanitize operation failed",
	[ATA_SANITIZE_REASON_UNSANITIZED] = "the sanitize operation completed with physical sectors that were not sanitized",
	[ATA_SANITIZE_REASON_UNSUPPORTED] = "the sanitize command gave an unsupported mode",
	[ATA_SANITIZE_REASON_FROZEN] = "sanitize is frozen until the drive is power-cycled",
	[ATA_SANITIZE_REASON_ANTIFREEZE] = "the freeze lock was refused: the antifreeze lock is set",
};

/* --sanitize-wait: SANITIZE STATUS EXT's state bits and progress. */
static int ata_sanitize_poll(struct device *dev, struct sanitize_poll *p)
{
	struct ata_result res;
	unsigned int flags, reason;
	int err;
	const uint16_t *id = ata_identify(dev, &err, &res);

	if (!id)
		return ata_cause(&p->cause, "HDIO_DRIVE_CMD(identify)", &res, err);
	if (!ata_id_has_sanitize(id)) {
		snprintf(p->cause.why, sizeof(p->cause.why), "SANITIZE feature set is not supported");
		return EOPNOTSUPP;
	}
	p->left = ERASE_TO_SOME_PATTERN;
	err = ata_sanitize(dev, 0, 0, 0, true, &res);
	reason = (unsigned int)(res.out.lba & 0xff);
	if (err && res.have_regs && (res.error & 0x04) && reason < ARRAY_SIZE(sanitize_failures)) {
		p->phase = SANITIZE_FAILED;
		p->status = "failed";
		snprintf(p->detail, sizeof(p->detail), "%s", sanitize_failures[reason]);
		return 0;
	}
	if (err)
		return ata_cause(&p->cause, "SANITIZE STATUS EXT", &res, err);
	if (!ata_sanitize_status_returned(&res)) {
		p->cause.about_option = true;
		snprintf(p->cause.why, sizeof(p->cause.why), "the status bits were not returned (no registers, or fixed-format sense)");
		return EIO;
	}
	flags = res.out.count >> 8;
	p->has_progress = true;
	p->progress = (unsigned int)(res.out.lba & 0xffff);
	if (flags & ATA_SANITIZE_IN_PROGRESS) {
		p->phase = SANITIZE_RUNNING;
		p->status = "in progress";
	} else if (flags & ATA_SANITIZE_COMPLETED_WITHOUT_ERROR) {
		p->phase = SANITIZE_COMPLETED;
		p->status = "completed";
	} else {
		p->phase = SANITIZE_NONE;
		p->status = "idle";
		snprintf(p->detail, sizeof(p->detail), "no sanitize operation is running, and the last one did not complete without error");
	}
	return 0;
}

/* --read-sector: IDENTIFY's capacity and logical sector size. */
static int ata_geometry(struct device *dev, struct disk_geometry *g, struct disk_cause *c)
{
	int err;
	const uint16_t *id = identify_for(dev, &err, c);

	if (!id)
		return err;
	g->sectors = identify_capacity(id);
	g->sector_bytes = identify_sector_bytes(id);
	g->space = "drive";
	return 0;
}

/* READ SECTORS (EXT), PIO; why it failed, with the LBA the drive names. */
static int ata_sector_read(struct device *dev, uint64_t lba, void *buf, unsigned int bytes, struct disk_cause *c)
{
	struct ata_result res;
	int err = ata_sector(dev, lba, false, buf, bytes, &res);

	if (err)
		ata_sector_failure(&res, err, c->why, sizeof(c->why));
	return err;
}

/* TRIM's limits from IDENTIFY: word 169 says TRIM, word 105 how many 512-byte blocks of ranges a command takes. */
static int ata_trim_limits(struct device *dev, struct trim_limits *l, struct disk_cause *c)
{
	unsigned int blocks;
	int err;
	const uint16_t *id = identify_for(dev, &err, c);

	if (!id)
		return err;
	if (!ata_id_has_trim(id)) {
		snprintf(l->none, sizeof(l->none), "the drive does not support TRIM (DATA SET MANAGEMENT)");
		return EOPNOTSUPP;
	}
	blocks = ata_id_word_reported(id[ATA_ID_DSM_BLOCKS]) ? id[ATA_ID_DSM_BLOCKS] : 1;
	l->capacity = identify_capacity(id);
	l->space = "drive";
	l->max_ranges = (blocks > 8 ? 8 : blocks) * ATA_DSM_RANGES_PER_BLOCK;
	l->max_range_sectors = ATA_DSM_MAX_COUNT;
	return 0;
}

static int ata_trim_send(struct device *dev, const struct sector_range *pieces, unsigned int n, struct disk_cause *c)
{
	struct ata_result res;
	int err = ata_dsm_trim(dev, pieces, n, &res);

	return ata_cause(c, "DATA SET MANAGEMENT (TRIM)", &res, err);
}

/* Before a timing: what the drive's cache holds would compete with the reads. Nothing said on failure. */
static void ata_disk_flush_quietly(struct device *dev)
{
	struct ata_result res;

	(void)ata_flush_cache(dev, false, &res);
}

/* -F: FLUSH CACHE EXT when the drive has it and 48-bit addressing is on, else FLUSH CACHE. */
static int ata_disk_flush(struct device *dev, struct disk_cause *c)
{
	struct ata_result res;
	int err;
	const uint16_t *id = ata_identify(dev, &err, &res);

	err = ata_flush_cache(dev, id && ata_id_has_flush_ext(id), &res);
	return ata_cause(c, "HDIO_DRIVE_CMD(flushcache)", &res, err);
}

/* -W and -A queried: IDENTIFY words 82 and 85. */
static int ata_cache_get(struct device *dev, enum disk_cache which, enum disk_cache_state *st, struct disk_cause *c)
{
	uint16_t bit = which == DISK_LOOKAHEAD ? ATA_ID_LOOKAHEAD : ATA_ID_WRITE_CACHE;
	struct ata_result res;
	int err;
	const uint16_t *id = ata_identify(dev, &err, &res);

	if (!id)
		return ata_cause(c, "IDENTIFY DEVICE", &res, err);
	*st = !ata_id_has_feature(id, bit) ? CACHE_UNSUPPORTED : ata_id_feature_enabled(id, bit) ? CACHE_ON : CACHE_OFF;
	return 0;
}

/*
 * -W N: through the kernel (HDIO_SET_WCACHE, so that libata's view and its
 * flushes follow), else SET FEATURES; turning the cache off, what it holds
 * is flushed before and after.  The first failure is the cause.
 */
static int ata_write_cache_set(struct device *dev, bool on, struct disk_cause *c)
{
	struct disk_cause later = { 0 };
	struct ata_result res;
	int err = on ? 0 : ata_disk_flush(dev, c), e;

	if (ioctl(dev->fd, HDIO_SET_WCACHE, (unsigned long)on)) {
		e = ata_set_feature(dev, on ? ATA_SF_WCACHE_ON : ATA_SF_WCACHE_OFF, 0, &res);
		if (e && !err)
			err = ata_cause(c, "HDIO_DRIVE_CMD(setcache)", &res, e);
	}
	if (!on && (e = ata_disk_flush(dev, err ? &later : c)) && !err)
		err = e;
	return err;
}

static int ata_cache_set(struct device *dev, enum disk_cache which, bool on, struct disk_cause *c)
{
	struct ata_result res;

	if (which == DISK_WRITE_CACHE)
		return ata_write_cache_set(dev, on, c);
	return ata_cause(c, "HDIO_DRIVE_CMD(setreadahead)", &res,
			 ata_set_feature(dev, on ? ATA_SF_LOOKAHEAD_ON : ATA_SF_LOOKAHEAD_OFF, 0, &res));
}

/*
 * Before an erase: the accessible and native max addresses (GET NATIVE MAX
 * ADDRESS EXT with AMAC, else READ NATIVE MAX ADDRESS (EXT)), the DCO's max
 * (DEVICE CONFIGURATION IDENTIFY, words 3-5), and IDENTIFY's locks.
 */
static int ata_disk_hidden_areas(struct device *dev, struct disk_hidden *h)
{
	struct ata_result res;
	uint8_t dco[512];
	int err;
	const uint16_t *id = ata_identify(dev, &err, &res);
	enum ata_max_command kind;

	if (!id)
		return ata_cause(&h->cause, "IDENTIFY DEVICE", &res, err);
	h->accessible = identify_capacity(id);
	h->amac = ata_id_has_amax(id);
	h->security_supported = ata_id_has_security(id);
	h->security_enabled = ata_id_security_enabled(id);
	h->security_locked = ata_id_security_locked(id);
	h->security_frozen = ata_id_security_frozen(id);
	h->sanitize_supported = ata_id_has_sanitize(id);
	kind = ata_native_max_command(id);
	err = ata_read_native_max(dev, kind, &res);
	if (!err && res.have_regs && !res.lba_incomplete)
		h->native = ata_native_max_sectors(&res, kind);
	else
		ata_cause(&h->cause, "READ NATIVE MAX ADDRESS", &res, err ? err : EIO);
	if (ata_id_has_dco(id) && ata_dco_identify(dev, dco, &res) == 0)
		h->dco = (get_le16(dco + 10) * 0x100000000ULL | (uint64_t)get_le16(dco + 8) << 16 | get_le16(dco + 6)) + 1;
	return 0;
}

/* An erase record's device: IDENTIFY's strings, WWN, capacity and rotation. */
static int ata_disk_identity(struct device *dev, struct disk_identity *d)
{
	struct ata_result res;
	int err;
	const uint16_t *id = ata_identify(dev, &err, &res);
	char text[64];

	if (!id)
		return ata_cause(&d->cause, "IDENTIFY DEVICE", &res, err);
	identify_string(&id[ATA_ID_MODEL], 20, text);
	snprintf(d->model, sizeof(d->model), "%s", text + strspn(text, " "));
	identify_string(&id[ATA_ID_SERIAL_NUMBER], 10, text);
	snprintf(d->serial, sizeof(d->serial), "%s", text + strspn(text, " "));
	identify_string(&id[ATA_ID_FIRMWARE], 4, text);
	snprintf(d->firmware, sizeof(d->firmware), "%s", text + strspn(text, " "));
	if (id[ATA_ID_WWN] || id[ATA_ID_WWN + 1] || id[ATA_ID_WWN + 2] || id[ATA_ID_WWN + 3])
		snprintf(d->wwn, sizeof(d->wwn), "naa.%04x%04x%04x%04x", id[ATA_ID_WWN], id[ATA_ID_WWN + 1],
			 id[ATA_ID_WWN + 2], id[ATA_ID_WWN + 3]);
	d->capacity_bytes = identify_capacity(id) * identify_sector_bytes(id);
	/* Word 217: 1 a solid-state drive, 0401h-FFFEh the rpm of a rotating one, else not said. */
	if (id[ATA_ID_ROTATION_RATE] == 1)
		d->media = "ssd";
	else if (id[ATA_ID_ROTATION_RATE] >= 0x401 && id[ATA_ID_ROTATION_RATE] != 0xffff)
		d->media = "hdd";
	return 0;
}

/* The IDENTIFY page the settings are read from (ata_commands.c keeps it for the run). */
static const uint16_t *identify_page(struct device *dev, int *err)
{
	struct ata_result res;

	return ata_identify(dev, err, &res);
}

const struct disk_ops ata_disk = {
	.kind = "ATA",
	.ata = true,
	.identify_page = identify_page,
	.geometry = ata_geometry,
	.media_verify = ata_media_verify,
	.sector_read = ata_sector_read,
	.trim_limits = ata_trim_limits,
	.trim_send = ata_trim_send,
	.pages_read = ata_pages_read,
	.pages_show = ata_pages_show,
	.pages_raw = ata_pages_raw,
	.pages_free = ata_pages_free,
	.cache_get = ata_cache_get,
	.cache_set = ata_cache_set,
	.lookahead = true,
	.flush = ata_disk_flush,
	.power_mode = ata_disk_power_mode,
	.sanitize_check = ata_sanitize_check,
	.sanitize_start = ata_sanitize_start,
	.sanitize_status = ata_sanitize_status,
	.sanitize_poll = ata_sanitize_poll,
	.flush_quietly = ata_disk_flush_quietly,
	.power_state = ata_disk_power_state,
	.standby_now = ata_disk_standby_now,
	.sleep_now = ata_disk_sleep_now,
	.standby_timer = ata_disk_standby_timer,
	.temperature = ata_disk_temperature,
	.power_on = ata_disk_power_on,
	.error_counts = ata_disk_error_counts,
	.condition_read = ata_disk_condition,
	.self_test_start = ata_disk_self_test_start,
	.self_test_progress = ata_disk_self_test_progress,
	.identity = ata_disk_identity,
	.hidden_areas = ata_disk_hidden_areas,
	.erc_get = ata_disk_erc_get,
	.erc_set = ata_disk_erc_set,
	.epc_read = ata_disk_epc_read,
	.epc_counts = ata_epc_counts,
	.epc_change = ata_disk_epc_change,
	.security_recv = ata_disk_security_recv,
	.security_send = ata_disk_security_send,
};
