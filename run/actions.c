/*
 * The order in which one device's options run.  hdparm 9.65 runs every
 * "set" first, then every query, then timings and power commands, whatever
 * the order on the command line; scripts depend on the order of the output
 * lines, so this table keeps it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "actions.h"
#include "ata_commands.h"
#include "benchmark.h"
#include "cache.h"
#include "commands.h"
#include "dco.h"
#include "describe.h"
#include "disk.h"
#include "files.h"
#include "inuse.h"
#include "firmware.h"
#include "firmware_update.h"
#include "flush.h"
#include "format_erase.h"
#include "tcg_revert.h"
#include "iodepth.h"
#include "json.h"
#include "power_mode.h"
#include "power_now.h"
#include "read_sector.h"
#include "sector_format.h"
#include "tcg_status.h"
#include "standby_timer.h"
#include "background_scan.h"
#include "epc.h"
#include "erc.h"
#include "erase_record.h"
#include "erasecheck.h"
#include "sanitize.h"
#include "sanitize_start.h"
#include "sanitize_status.h"
#include "sanitize_wait.h"
#include "sectors.h"
#include "security.h"
#include "blockdev.h"
#include "ata_features.h"
#include "max_address.h"
#include "wdidle3.h"
#include "temperature.h"
#include "trim.h"
#include "report.h"

enum when {
	WHEN_GIVEN,		/* the option appeared */
	WHEN_SET,		/* the option came with a value */
	WHEN_QUERY,		/* the option appeared without -q before it (or -v's set) */
	WHEN_NOISY,		/* the option appeared without -q before it */
};

struct step {
	enum opt_id opt;
	enum when when;
	bool in_defaults;	/* part of the default query set (-v, or no option) */
	step_fn *run;
	bool ata_only;		/* an ATA command, refused on other disks */
	enum { HINT_NONE, HINT_ERASE, HINT_POWER } hint;	/* refused on a disk: what it has instead */
	step_fn *check;		/* an erase: the disk's refusal, nothing sent (many disks check all first) */
	/* One of an option's rows by kind (--set-sector-size: ATA's command, the others' format): skipped on the rest. */
	enum { ALL_KINDS, ATA_KIND, OTHER_KINDS } for_kind;
	bool once;		/* a set the disk could not do said why: its option's query, which would say it again, is left out */
};

/* Last column: ATA commands (refused on NVMe and SCSI disks), or steps that work on any device. */
#define ATA true
#define ANY false
#define STEP(o, w, dflt, fn, ata) { .opt = (o), .when = (w), .in_defaults = (dflt), .run = (fn), .ata_only = (ata) }
/* An ATA erase: where refused, the disk says what erases it instead. */
#define ATA_ERASE_STEP(o, fn, chk) \
	{ .opt = (o), .when = WHEN_GIVEN, .run = (fn), .ata_only = true, .hint = HINT_ERASE, .check = (chk) }
/* An erase on any disk, with the check that comes before it. */
#define ERASE_STEP(o, fn, chk) { .opt = (o), .when = WHEN_GIVEN, .run = (fn), .check = (chk) }
/* A power setting: where refused, the disk says how its power is managed instead. */
#define POWER_STEP(o, w, fn) { .opt = (o), .when = (w), .run = (fn), .ata_only = true, .hint = HINT_POWER }

static const struct step steps[] = {
	/* Settings. */
	{ .opt = OPT_SET_SECTOR_SIZE, .when = WHEN_GIVEN, .run = set_sector_size, .check = set_sector_size_check,
	  .for_kind = ATA_KIND },
	{ .opt = OPT_SET_SECTOR_SIZE, .when = WHEN_GIVEN, .run = sector_format_step, .check = sector_format_check,
	  .for_kind = OTHER_KINDS },
	STEP(OPT_FORMAT_WAIT, WHEN_GIVEN, false, sector_format_wait_step, ANY),
	STEP(OPT_TRIM_STDIN, WHEN_GIVEN, false, trim_from_stdin, ANY),
	STEP(OPT_WDIDLE3, WHEN_SET, false, set_wdidle3, ATA),
	STEP(OPT_READAHEAD, WHEN_SET, false, set_kernel_setting, ANY),
	STEP(OPT_PIOMODE, WHEN_SET, false, set_pio_mode, ANY),
	STEP(OPT_IO32BIT, WHEN_SET, false, set_kernel_setting, ANY),
	STEP(OPT_MULTCOUNT, WHEN_SET, false, set_multcount, ATA),
	STEP(OPT_READONLY, WHEN_SET, false, set_kernel_setting, ANY),
	STEP(OPT_UNMASK, WHEN_SET, false, set_kernel_setting, ANY),
	STEP(OPT_DMA, WHEN_SET, false, set_kernel_setting, ANY),
	STEP(OPT_QUEUE_DEPTH, WHEN_SET, false, set_queue_depth, ANY),
	STEP(OPT_NOWERR, WHEN_SET, false, set_kernel_setting, ANY),
	STEP(OPT_KEEP, WHEN_SET, false, set_kernel_setting, ANY),
	STEP(OPT_DOORLOCK, WHEN_SET, false, set_drive_feature, ATA),
	STEP(OPT_DRIVE_KEEP, WHEN_SET, false, set_drive_feature, ATA),
	STEP(OPT_DEFECTS, WHEN_SET, false, set_drive_feature, ATA),
	STEP(OPT_PREFETCH, WHEN_SET, false, set_drive_feature, ATA),
	STEP(OPT_XFERMODE, WHEN_SET, false, set_drive_feature, ATA),
	STEP(OPT_LOOKAHEAD, WHEN_SET, false, cache_set_step, ANY),
	STEP(OPT_POWERUP_STANDBY, WHEN_SET, false, set_powerup_standby, ATA),
	POWER_STEP(OPT_APM, WHEN_SET, set_drive_feature),
	STEP(OPT_CDROMSPEED, WHEN_SET, false, set_cdrom_speed, ANY),
	STEP(OPT_ACOUSTIC, WHEN_SET, false, set_drive_feature, ATA),
	STEP(OPT_WRV, WHEN_SET, false, set_drive_feature, ATA),
	STEP(OPT_WCACHE, WHEN_SET, false, cache_set_step, ANY),
	{ .opt = OPT_ERC, .when = WHEN_SET, .run = erc_set_step, .once = true },
	STEP(OPT_STANDBY, WHEN_SET, false, standby_timer_step, ANY),
	STEP(OPT_EPC_ENABLE, WHEN_GIVEN, false, epc_step, ANY),
	STEP(OPT_EPC_DISABLE, WHEN_GIVEN, false, epc_step, ANY),
	STEP(OPT_EPC_RESTORE, WHEN_GIVEN, false, epc_step, ANY),
	STEP(OPT_EPC_TIMER, WHEN_GIVEN, false, epc_step, ANY),
	STEP(OPT_EPC_GOTO, WHEN_GIVEN, false, epc_step, ANY),
	STEP(OPT_BACKGROUND_SCAN, WHEN_GIVEN, false, background_scan_step, ANY),
	STEP(OPT_SECURITY_UNLOCK, WHEN_GIVEN, false, security_step, ATA),
	STEP(OPT_SECURITY_SET_PASS, WHEN_GIVEN, false, security_step, ATA),
	STEP(OPT_SECURITY_DISABLE, WHEN_GIVEN, false, security_step, ATA),
	ATA_ERASE_STEP(OPT_SECURITY_ERASE, security_step, security_erase_check),
	ATA_ERASE_STEP(OPT_SECURITY_ERASE_ENHANCED, security_step, security_erase_check),
	STEP(OPT_SANITIZE_STATUS, WHEN_GIVEN, false, sanitize_status_step, ANY),
	STEP(OPT_SANITIZE_FREEZE, WHEN_GIVEN, false, sanitize_step, ATA),
	STEP(OPT_SANITIZE_ANTIFREEZE, WHEN_GIVEN, false, sanitize_step, ATA),
	ERASE_STEP(OPT_SANITIZE_BLOCK_ERASE, sanitize_start_step, sanitize_start_check),
	ERASE_STEP(OPT_SANITIZE_CRYPTO, sanitize_start_step, sanitize_start_check),
	ERASE_STEP(OPT_SANITIZE_OVERWRITE, sanitize_start_step, sanitize_start_check),
	STEP(OPT_SANITIZE_EXIT_FAILURE, WHEN_GIVEN, false, sanitize_start_step, ANY),
	ERASE_STEP(OPT_FORMAT_ERASE, format_erase_step, format_erase_check),
	ERASE_STEP(OPT_TCG_PSID_REVERT, tcg_psid_revert_step, tcg_psid_revert_check),
	STEP(OPT_SANITIZE_WAIT, WHEN_GIVEN, false, sanitize_wait_step, ANY),
	STEP(OPT_DCO_IDENTIFY, WHEN_GIVEN, false, dco_step, ATA),
	STEP(OPT_DCO_RESTORE, WHEN_GIVEN, false, dco_step, ATA),
	STEP(OPT_DCO_FREEZE, WHEN_GIVEN, false, dco_step, ATA),
	STEP(OPT_DCO_SETMAX, WHEN_GIVEN, false, dco_step, ATA),
	STEP(OPT_SECURITY_FREEZE, WHEN_GIVEN, false, security_freeze, ATA),
	STEP(OPT_SEAGATE, WHEN_GIVEN, false, power_command, ATA),
	STEP(OPT_BUSSTATE, WHEN_SET, false, set_kernel_setting, ANY),
	STEP(OPT_MAX_SECTORS, WHEN_SET, false, set_max_sectors, ATA),
	STEP(OPT_MAKE_BAD_SECTOR, WHEN_GIVEN, false, make_bad_sector, ATA),
	STEP(OPT_TRIM_RANGES, WHEN_GIVEN, false, trim_from_args, ANY),
	STEP(OPT_WRITE_SECTOR, WHEN_GIVEN, false, write_sector, ATA),
	STEP(OPT_REPAIR_SECTOR, WHEN_GIVEN, false, write_sector, ATA),
	{ .opt = OPT_FWDOWNLOAD, .when = WHEN_GIVEN, .run = firmware_download, .for_kind = ATA_KIND },
	{ .opt = OPT_FWDOWNLOAD, .when = WHEN_GIVEN, .run = firmware_update_step, .check = firmware_update_check,
	  .for_kind = OTHER_KINDS },
	STEP(OPT_FWDOWNLOAD_MODE3, WHEN_GIVEN, false, firmware_download, ATA),
	STEP(OPT_FWDOWNLOAD_MODE3_MAX, WHEN_GIVEN, false, firmware_download, ATA),
	STEP(OPT_FWDOWNLOAD_MODE7, WHEN_GIVEN, false, firmware_download, ATA),
	STEP(OPT_FWDOWNLOAD_MODEE, WHEN_GIVEN, false, firmware_download, ATA),
	STEP(OPT_FWDOWNLOAD_MODEE_MAX, WHEN_GIVEN, false, firmware_download, ATA),
	STEP(OPT_READ_SECTOR, WHEN_GIVEN, false, read_sector_step, ANY),
	STEP(OPT_DRQ_HSM_ERROR, WHEN_GIVEN, false, drq_hsm_error, ATA),
	STEP(OPT_TEMPERATURE, WHEN_NOISY, false, temperature_step, ANY),

	/* Queries. */
	STEP(OPT_MULTCOUNT, WHEN_QUERY, true, get_multcount, ANY),
	STEP(OPT_IO32BIT, WHEN_QUERY, true, get_kernel_setting, ANY),
	STEP(OPT_UNMASK, WHEN_QUERY, true, get_kernel_setting, ANY),
	STEP(OPT_DMA, WHEN_QUERY, true, get_kernel_setting, ANY),
	STEP(OPT_QUEUE_DEPTH, WHEN_QUERY, false, get_queue_depth, ANY),
	STEP(OPT_KEEP, WHEN_QUERY, true, get_kernel_setting, ANY),
	STEP(OPT_NOWERR, WHEN_QUERY, false, get_kernel_setting, ANY),
	STEP(OPT_READONLY, WHEN_QUERY, true, get_kernel_setting, ANY),
	STEP(OPT_READAHEAD, WHEN_QUERY, true, get_kernel_setting, ANY),
	STEP(OPT_GEOMETRY, WHEN_GIVEN, true, get_geometry, ANY),
	STEP(OPT_WDIDLE3, WHEN_QUERY, false, get_wdidle3, ATA),
	STEP(OPT_POWERMODE, WHEN_NOISY, false, power_mode_step, ANY),
	STEP(OPT_IDENTITY, WHEN_GIVEN, false, describe_step, ANY),
	STEP(OPT_IDENTIFY, WHEN_GIVEN, false, describe_step, ANY),
	STEP(OPT_ISTDOUT, WHEN_GIVEN, false, describe_step, ANY),
	STEP(OPT_IRAW, WHEN_GIVEN, false, describe_step, ANY),
	STEP(OPT_LOOKAHEAD, WHEN_QUERY, false, cache_get_step, ANY),
	STEP(OPT_WCACHE, WHEN_QUERY, false, cache_get_step, ANY),
	STEP(OPT_ERC, WHEN_QUERY, false, erc_get_step, ANY),
	STEP(OPT_APM, WHEN_QUERY, false, get_drive_feature, ATA),
	STEP(OPT_ACOUSTIC, WHEN_QUERY, false, get_drive_feature, ATA),
	STEP(OPT_WRV, WHEN_QUERY, false, get_drive_feature, ATA),
	STEP(OPT_BUSSTATE, WHEN_QUERY, false, get_kernel_setting, ANY),
	STEP(OPT_MAX_SECTORS, WHEN_QUERY, false, get_max_sectors, ATA),
	STEP(OPT_EPC, WHEN_GIVEN, false, epc_step, ANY),
	STEP(OPT_TCG, WHEN_GIVEN, false, tcg_step, ANY),

	/* Timings, flushes and power commands. */
	STEP(OPT_CACHE_TIMINGS, WHEN_GIVEN, false, time_cached_reads, ANY),
	STEP(OPT_FLUSH_WCACHE, WHEN_GIVEN, false, flush_step, ANY),
	STEP(OPT_TIMINGS, WHEN_GIVEN, false, time_device_reads, ANY),
	STEP(OPT_SEEKS, WHEN_GIVEN, false, time_random_seeks, ANY),
	STEP(OPT_FLUSH_BUFFERS, WHEN_GIVEN, false, flush_buffers, ANY),
	STEP(OPT_REREAD_PARTITIONS, WHEN_GIVEN, false, reread_partitions, ANY),
	STEP(OPT_IDLE_IMMEDIATE, WHEN_GIVEN, false, power_command, ATA),
	STEP(OPT_STANDBY_NOW, WHEN_GIVEN, false, power_now_step, ANY),
	STEP(OPT_IDLE_UNLOAD, WHEN_GIVEN, false, power_command, ATA),
	STEP(OPT_SLEEP_NOW, WHEN_GIVEN, false, power_now_step, ANY),
	STEP(OPT_RESET, WHEN_GIVEN, false, device_reset, ANY),
};

/* The option's use on this command line is one its row says needs confirming. */
static bool dangerous_form_given(const struct option_desc *o, const struct settings *s)
{
	const struct opt_value *v = &s->v[o->id];
	const struct confirmation *c = &o->confirm;

	return c->needs && v->given && !(c->form == SET_FORM && !v->has_value) &&
	       !(c->form == NONZERO_VALUE && !(v->has_value && v->num));
}

int run_file_option(enum opt_id opt, const struct settings *s)
{
	return opt == OPT_FIBMAP ? fibmap_file(s) : fallocate_file(s);
}

bool carries_dangerous_option(const struct settings *s)
{
	for (size_t i = 0; i < option_count; i++)
		if (dangerous_form_given(&option_table[i], s))
			return true;
	return false;
}

/*
 * How far an erase reaches from the node named: its row says whether it
 * reaches as a sanitize or as a format does (a TCG revert erases what the
 * Locking SP covers: on NVMe, every namespace, as a sanitize does), and the
 * disk's kind says how far that is (an NVMe sanitize: the subsystem).
 */
static enum reach_scope erase_scope(struct device *dev, const struct confirmation *c)
{
	if (!dev->disk->erase_scope || c->reaches == REACHES_NAMED)
		return REACH_NAMED;
	return dev->disk->erase_scope(dev, c->reaches == REACHES_AS_FORMAT ? ERASE_BY_FORMAT : ERASE_BY_SANITIZE);
}

/*
 * 0, or EPERM when a dangerous option lacks its flag (the message is
 * printed).  Checked before the first command goes out, so a refusal
 * leaves the drive untouched (9.65 checked each one only when its turn
 * came).
 */
static int preflight(struct device *dev, const struct settings *s)
{
	for (size_t i = 0; i < option_count; i++) {
		const struct confirmation *c = &option_table[i].confirm;
		int err = 0;

		if (!dangerous_form_given(&option_table[i], s))
			continue;
		/* A format's choices, with their performance, before its confirmation is asked for. */
		if (option_table[i].id == OPT_SET_SECTOR_SIZE && !s->v[OPT_PLEASE_DESTROY].given)
			sector_format_preview(dev, s, OPT_SET_SECTOR_SIZE);
		if (c->needs & NEED_YES)
			err = confirm_dangerous(dev, s, c->label, c->why);
		if (!err && (c->needs & NEED_DESTROY))
			err = confirm_destructive(dev, s, c->label, c->why_destroy ? c->why_destroy : c->why);
		if (!err && c->whole_disk)
			err = need_disk_unused(dev, s->v[option_table[i].id].name, erase_scope(dev, c));
		else if (!err && c->writes_medium)
			err = need_named_target(dev, s->v[option_table[i].id].name, erase_scope(dev, c), &dev->reach);
		if (err)
			return err;
	}
	return s->v[OPT_ERASE_RECORD].given ? erase_record_check(dev, s) : 0;
}

static bool step_applies(const struct step *st, const struct settings *s)
{
	const struct opt_value *v = &s->v[st->opt];

	if (st->in_defaults && s->defaults)
		return true;
	switch (st->when) {
	case WHEN_GIVEN:
		return v->given;
	case WHEN_SET:
		return v->given && v->has_value;
	case WHEN_QUERY:
	case WHEN_NOISY:
		return v->given && v->noisy;
	}
	return false;
}

static void json_timing(const char *key, const struct timing_result *t)
{
	if (!t->valid)
		return;
	json_object_begin(key);
	json_uint("mib", t->mib);
	json_fixed("seconds", t->seconds, 6);
	json_fixed("mib_per_sec", t->seconds > 0 ? t->mib / t->seconds : 0, 2);
	json_bool("o_direct", t->direct);
	if (t->has_offset)
		json_uint("offset_gib", t->offset_gib);
	if (t->iodepth) {
		json_uint("iodepth", t->iodepth);
		json_uint("block_kib", t->block_kib);
		json_string("engine", t->engine);
	}
	json_object_end();
}

/* The end of a device's JSON object: timings, then every error its steps reported. */
static void json_device_end(const struct device *dev)
{
	if (dev->cached_reads.valid || dev->disk_reads.valid) {
		json_object_begin("timings");
		json_timing("cached_reads", &dev->cached_reads);
		json_timing("disk_reads", &dev->disk_reads);
		json_object_end();
	}
	report_json_errors();
	json_object_end();
}

/* An ATA command on another kind of disk: refused, with what the disk has instead. */
static int refuse_step(struct device *dev, const struct settings *s, const struct step *st)
{
	int err;

	if (st->hint == HINT_POWER && dev->disk->power_managed)
		return refuse_power_option(dev, s->v[st->opt].name);
	err = refuse_on_this_disk(dev, s->v[st->opt].name);
	if (st->hint == HINT_ERASE)
		say_erase_choices(dev);
	return err;
}

/* A row by kind that is not this disk's: the option's other row serves it. */
static bool other_kinds_row(const struct device *dev, const struct step *st)
{
	return (st->for_kind == ATA_KIND && !dev->disk->ata) || (st->for_kind == OTHER_KINDS && dev->disk->ata);
}

static int run_step(struct device *dev, const struct settings *s, const struct step *st, bool refused[OPT_COUNT])
{
	int err;

	if (other_kinds_row(dev, st))
		return 0;
	if (st->ata_only && !dev->disk->ata) {
		/* An option with a set and a query step is refused once. */
		if (refused[st->opt])
			return EOPNOTSUPP;
		refused[st->opt] = true;
		return refuse_step(dev, s, st);
	}
	if (st->when == WHEN_QUERY && refused[st->opt])
		return 0;	/* the set before it failed, and said why */
	err = st->run(dev, s, st->opt);
	/* EINVAL: the value was refused, not the disk: what it has now is still worth reading. */
	if (err && err != EINVAL && st->once)
		refused[st->opt] = true;
	return err;
}

/* Every erase the settings ask for, checked on the disk as its step would, nothing sent: 0, or the refusal's errno. */
static int check_erases(struct device *dev, const struct settings *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		const struct step *st = &steps[i];
		int err;

		if (!st->check || !step_applies(st, s) || other_kinds_row(dev, st))
			continue;
		report_operation(option_name(st->opt));
		err = st->ata_only && !dev->disk->ata ? refuse_step(dev, s, st) : st->check(dev, s, st->opt);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Many disks at once: the device waits at the gate with what its checks
 * found (0: ready) until every disk is checked; it goes on only when the
 * gate says 0, and otherwise runs no step.
 */
static int pass_gate(struct device *dev, const struct settings *s, const struct erase_gate *gate, int status)
{
	if (!status && dev->fd >= 0)
		status = check_erases(dev, s);
	report_operation("erase of many disks");
	fflush(stdout);
	status = gate->wait(dev, status, gate->arg);
	if (status)
		dev->refused = true;
	return status;
}

bool option_refused_on(const struct device *dev, enum opt_id opt)
{
	bool any = false;

	for (size_t i = 0; i < ARRAY_SIZE(steps); i++) {
		if (steps[i].opt != opt)
			continue;
		if (!steps[i].ata_only || dev->disk->ata)
			return false;
		any = true;
	}
	return any;
}

int run_setting(struct device *dev, const struct settings *s, enum opt_id opt)
{
	bool refused_here[OPT_COUNT] = { false };
	int status = preflight(dev, s);

	for (size_t i = 0; !status && !dev->refused && i < ARRAY_SIZE(steps); i++) {
		const struct step *st = &steps[i];
		int err;

		if (st->opt != opt || st->when == WHEN_QUERY || !step_applies(st, s))
			continue;
		report_operation(option_name(st->opt));
		if ((err = run_step(dev, s, st, refused_here)))
			status = err;
	}
	fflush(stdout);
	report_operation(NULL);
	return status;
}

int process_device(const char *path, const struct settings *s, const struct run_flags *run,
		   const struct erase_gate *gate, bool *refused)
{
	struct device dev;
	int flags = O_RDONLY | O_NONBLOCK;
	int status = 0;
	bool querying = false;
	bool refused_here[OPT_COUNT] = { false };

	memset(&dev, 0, sizeof(dev));
	dev.path = path;
	dev.run = *run;
	json_object_begin(NULL);
	json_string("name", path);
	if (s->v[OPT_DIRECT].given)
		flags |= O_DIRECT;
	if (s->v[OPT_TRIM_RANGES].given)
		flags = (flags & ~O_ACCMODE) | O_RDWR;

	report_operation("open");
	dev.fd = open(path, flags);
	if (dev.fd < 0) {
		status = errno;
		complain_errno(path);
	} else {
		if (!s->quiet)
			out("\n%s:\n", path);
		fflush(stdout);
		disk_choose(&dev);
		status = preflight(&dev, s);
	}
	if (gate)
		status = pass_gate(&dev, s, gate, status);

	/* A device that did not open, or an unconfirmed dangerous option, runs no step. */
	for (size_t i = 0; dev.fd >= 0 && !dev.refused && i < ARRAY_SIZE(steps); i++) {
		const struct step *st = &steps[i];
		int err;

		if (!step_applies(st, s))
			continue;
		/* Settings may have changed the drive: queries read IDENTIFY afresh. */
		if (!querying && st->when == WHEN_QUERY) {
			querying = true;
			if (dev.disk->ata)
				ata_identify_forget(&dev);
		}
		fflush(stdout);
		report_operation(option_name(st->opt));
		err = run_step(&dev, s, st, refused_here);
		if (err)
			status = err;
		/* A refused dangerous option stops this device: nothing after it runs. */
		if (dev.refused)
			break;
	}
	fflush(stdout);
	/* Written whatever happened, refusals too: the record says what was and was not done. */
	if (s->v[OPT_ERASE_RECORD].given && !dev.record_unwritable) {
		int err = erase_record_write(&dev, s, status);

		if (err && !status)
			status = err;
	}
	if (settings_erase(s) && erase_outcome(&dev, s, status))
		json_string("erase_outcome", erase_outcome(&dev, s, status));
	if (dev.fd >= 0)
		close(dev.fd);
	disk_release(&dev);
	erase_run_free(&dev);
	erase_record_free(&dev);
	json_device_end(&dev);
	report_operation(NULL);
	*refused = dev.refused;
	return status;
}
