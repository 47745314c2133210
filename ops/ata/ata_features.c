/*
 * ATA drive settings and commands that 9.65 sends as they are: SET
 * FEATURES-style settings from one table (-A -B -D -K -M -P -R -X, doorlock,
 * prefetch, ...), -m (multiple count), -s (power-up in standby) and the
 * ATA-only power and vendor commands (--idle-immediate, -L, -Z, ...).  Every
 * command is one of the ATA commands' typed calls (ata_commands.c).  The
 * output lines are hdparm 9.65's; where a command fails, a line on stderr
 * says so and the step fails, instead of printing a made-up result.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/hdreg.h>

#include "ata_commands.h"
#include "ata_features.h"
#include "ata_checks.h"
#include "checks.h"
#include "epc.h"
#include "json.h"
#include "modes.h"
#include "report.h"

int get_multcount(struct device *dev, const struct settings *s, enum opt_id opt)
{
	long count = -1;
	bool explicit = s->v[opt].given && s->v[opt].noisy;

	if (ioctl(dev->fd, HDIO_GET_MULTCOUNT, &count)) {
		int err = errno, idle_err;
		struct ata_result res;
		const uint16_t *id;

		/* libata has no HDIO_GET_MULTCOUNT: word 59 holds the same. */
		if (!explicit && !s->defaults)
			return 0;
		id = ata_identify(dev, &idle_err, &res);
		if (!id) {
			if (!explicit)
				return 0;
			complain(" HDIO_GET_MULTCOUNT failed: %s\n", strerror(err));
			return err;
		}
		count = (id[ATA_ID_MULTIPLE] & 0xff00) == 0x100 ? id[ATA_ID_MULTIPLE] & 0xff : 0;
	}
	json_int("multcount", count);
	out(" multcount     = %2ld", count);
	print_on_off((unsigned long)count);
	return 0;
}

/* ---- ATA commands ---- */

/* SET FEATURES (and the like) driven by one value: on/off subcommands or a count. */
struct drive_feature {
	uint8_t command_on, command_off;	/* for a non-zero and a zero value */
	uint8_t feature_on, feature_off;
	bool count_is_value;
	const char *set_text;			/* %d is the value */
	bool set_on_off;
	const char *what;			/* names the command when it fails */
};

static const struct drive_feature drive_features[OPT_COUNT] = {
	[OPT_DOORLOCK] = { .command_on = ATA_OP_DOOR_LOCK, .command_off = ATA_OP_DOOR_UNLOCK,
			   .set_text = " setting drive doorlock to %d", .set_on_off = true, .what = "HDIO_DRIVE_CMD(doorlock)" },
	[OPT_DRIVE_KEEP] = { .command_on = ATA_OP_SET_FEATURES, .command_off = ATA_OP_SET_FEATURES,
			     .feature_on = ATA_SF_REVERT_OFF, .feature_off = ATA_SF_REVERT_ON,
			     .set_text = " setting drive keep features to %d", .set_on_off = true, .what = "HDIO_DRIVE_CMD(keepsettings)" },
	[OPT_DEFECTS] = { .command_on = ATA_OP_SET_FEATURES, .command_off = ATA_OP_SET_FEATURES,
			  .feature_on = ATA_SF_DEFECTS_ON, .feature_off = ATA_SF_DEFECTS_OFF,
			  .set_text = " setting drive defect management to %d\n", .what = "HDIO_DRIVE_CMD(defectmgmt)" },
	[OPT_PREFETCH] = { .command_on = ATA_OP_SET_FEATURES, .command_off = ATA_OP_SET_FEATURES,
			   .feature_on = ATA_SF_PREFETCH, .feature_off = ATA_SF_PREFETCH, .count_is_value = true,
			   .set_text = " setting drive prefetch to %d\n", .what = "HDIO_DRIVE_CMD(setprefetch)" },
	[OPT_XFERMODE] = { .command_on = ATA_OP_SET_FEATURES, .command_off = ATA_OP_SET_FEATURES,
			   .feature_on = ATA_SF_XFER_MODE, .feature_off = ATA_SF_XFER_MODE, .count_is_value = true,
			   .set_text = " setting xfermode to %d", .what = "HDIO_DRIVE_CMD(setxfermode)" },
	[OPT_APM] = { .command_on = ATA_OP_SET_FEATURES, .command_off = ATA_OP_SET_FEATURES,
		      .feature_on = ATA_SF_APM_ON, .feature_off = ATA_SF_APM_ON, .count_is_value = true,
		      .set_text = " setting Advanced Power Management level to", .what = "HDIO_DRIVE_CMD(setapm)" },
	[OPT_ACOUSTIC] = { .command_on = ATA_OP_SET_FEATURES, .command_off = ATA_OP_SET_FEATURES,
			   .feature_on = ATA_SF_AAM_ON, .feature_off = ATA_SF_AAM_OFF, .count_is_value = true,
			   .set_text = " setting acoustic management to %d\n", .what = "HDIO_DRIVE_CMD:ACOUSTIC" },
	[OPT_WRV] = { .command_on = ATA_OP_SET_FEATURES, .command_off = ATA_OP_SET_FEATURES,
		      .feature_on = ATA_SF_WRV_ON, .feature_off = ATA_SF_WRV_OFF, .count_is_value = true,
		      .set_text = " setting write-read-verify to %d\n", .what = "HDIO_DRIVE_CMD:WRV" },
};

int set_drive_feature(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct drive_feature *f = &drive_features[opt];
	const struct opt_value *v = &s->v[opt];
	unsigned int value = (unsigned int)v->num;
	uint8_t feature;
	uint16_t count;

	feature = value ? f->feature_on : f->feature_off;
	count = f->count_is_value ? (uint16_t)value : 0;
	if (opt == OPT_APM && value == 255) {
		feature = ATA_SF_APM_OFF;
		count = 0;
	}
	if (v->noisy) {
		out(f->set_text, (int)value);
		if (f->set_on_off)
			print_on_off(value);
		if (opt == OPT_XFERMODE) {
			char buf[48];

			out(" (%s)\n", xfermode_describe(value, buf, sizeof(buf)));
		}
		if (opt == OPT_APM) {
			if (value == 255)
				out(" disabled\n");
			else
				out(" 0x%02x (%u)\n", value, value);
		}
	}
	int err = ata_command(dev, f->what, value ? f->command_on : f->command_off, feature, count);

	if (err && opt == OPT_APM)
		epc_explain_apm(dev, v->name);
	return err;
}

int get_drive_feature(struct device *dev, const struct settings *s, enum opt_id opt)
{
	int err;
	const uint16_t *id;

	(void)s;
	id = identify_or_report_each(dev, &err);
	if (!id)
		return err;
	switch (opt) {
	case OPT_APM: {
		unsigned int level = id[ATA_ID_APM_LEVEL] & 0xff;

		json_object_begin("apm");
		json_bool("supported", ata_id_has_apm(id));
		json_bool("enabled", ata_id_apm_enabled(id));
		if (ata_id_apm_enabled(id))
			json_uint("level", level);
		else
			json_null("level");
		json_object_end();
		out(" APM_level\t= ");
		if (ata_id_apm_enabled(id))
			out("%u\n", level);
		else
			out(ata_id_has_apm(id) ? "off\n" : "not supported\n");
		break;
	}
	case OPT_ACOUSTIC: {
		unsigned int level = id[ATA_ID_ACOUSTIC_LEVEL] & 0xff;

		json_object_begin("acoustic");
		json_bool("supported", ata_id_has_aam(id));
		if (ata_id_has_aam(id))
			json_uint("level", level);
		else
			json_null("level");
		json_object_end();
		if (ata_id_has_aam(id))
			out(" acoustic      = %2u (128=quiet ... 254=fast)\n", level);
		else
			out(" acoustic      = not supported\n");
		break;
	}
	case OPT_WRV:
		json_object_begin("write_read_verify");
		json_bool("supported", ata_id_has_wrv(id));
		json_bool("enabled", ata_id_wrv_enabled(id));
		json_object_end();
		/* 9.65 prints the enable bit's value (2), not 1. */
		if (ata_id_has_wrv(id))
			out(" write-read-verify = %2u\n", (unsigned int)(id[ATA_ID_COMMAND_SET_4] & 0x2));
		else
			out(" write-read-verify = not supported\n");
		break;
	default:
		break;
	}
	return 0;
}

int set_powerup_standby(struct device *dev, const struct settings *s, enum opt_id opt)
{
	unsigned int on = (unsigned int)s->v[opt].num;

	/* -s1 was confirmed before any command went out (actions.c). */
	if (!on) {
		struct ata_result res;

		/* A drive powered up in standby needs the spin-up subcommand first. */
		out(" spin-up:");
		fflush(stdout);
		(void)ata_nondata(dev, ATA_OP_SET_FEATURES, ATA_SF_PUIS_SPINUP, 0, 0, false, &res, 0);
	}
	if (s->v[opt].noisy) {
		out(" setting power-up in standby to %u", on);
		print_on_off(on);
	}
	return ata_set_features(dev, "HDIO_DRIVE_CMD(powerup_in_standby)", on ? ATA_SF_PUIS_ON : ATA_SF_PUIS_OFF, 0);
}

int set_multcount(struct device *dev, const struct settings *s, enum opt_id opt)
{
	unsigned int count = (unsigned int)s->v[opt].num;
	int err;

	if (s->v[opt].noisy)
		out(" setting multcount to %u\n", count);
	if (!ioctl(dev->fd, HDIO_SET_MULTCOUNT, (unsigned long)count))
		return 0;
	if (errno != ENOTTY)
		return complain_failed("HDIO_SET_MULTCOUNT");
	err = confirm_dangerous(dev, s, "-m",
				"Only the old IDE drivers work correctly with -m with kernels up to at least 2.6.29.\n"
				"libata drives may fail and get hung if you set this flag.");
	if (err)
		return err;
	return ata_command(dev, "HDIO_DRIVE_CMD(set_multi_count)", ATA_OP_SET_MULTIPLE, 0, (uint16_t)count);
}

/* Commands that only tell the drive to do something. */
static const struct power_cmd {
	uint8_t command, fallback;	/* fallback: the ATA-1 opcode, tried if the first fails */
	uint8_t feature;
	uint64_t lba;
	const char *message;
	const char *what;
} power_cmds[OPT_COUNT] = {
	[OPT_SEAGATE] = { .command = ATA_OP_VENDOR_SEAGATE_PWRSAVE, .message = " disabling Seagate auto powersaving mode\n", .what = "HDIO_DRIVE_CMD(seagatepwrsave)" },
	[OPT_IDLE_IMMEDIATE] = { .command = ATA_OP_IDLE_IMMEDIATE, .message = " issuing idle_immediate command\n", .what = "HDIO_DRIVE_CMD(idle_immediate)" },
	/* IDLE IMMEDIATE with the UNLOAD FEATURE: the LBA spells "UNL". */
	[OPT_IDLE_UNLOAD] = { .command = ATA_OP_IDLE_IMMEDIATE, .feature = ATA_IDLE_UNLOAD_FEATURE, .lba = ATA_IDLE_UNLOAD_SIGNATURE, .message = " issuing idle_immediate_unload command\n", .what = "TASKFILE(idle_immediate_unload)" },
};

int power_command(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct power_cmd *p = &power_cmds[opt];
	struct ata_result res;
	int err;

	if (s->v[opt].noisy && !(opt == OPT_SEAGATE && s->quiet))
		out("%s", p->message);
	err = ata_nondata(dev, p->command, p->feature, 0, p->lba, false, &res, 0);
	if (err && p->fallback)
		err = ata_nondata(dev, p->fallback, p->feature, 0, p->lba, false, &res, 0);
	if (err)
		ata_report(p->what, &res, err);
	return err;
}
