/* The ATA Security feature set: passwords, unlock, disable, erase, freeze. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "identify.h"
#include "ata_checks.h"
#include "checks.h"
#include "erase_record.h"
#include "erase_verify.h"
#include "erasecheck.h"
#include "json.h"
#include "progress.h"
#include "security.h"
#include "ata_commands.h"
#include "report.h"

static const struct security_op {
	uint8_t command;
	const char *name;
} security_ops[OPT_COUNT] = {
	[OPT_SECURITY_UNLOCK] = { .command = ATA_OP_SECURITY_UNLOCK, .name = "SECURITY_UNLOCK" },
	[OPT_SECURITY_SET_PASS] = { .command = ATA_OP_SECURITY_SET_PASSWORD, .name = "SECURITY_SET_PASS" },
	[OPT_SECURITY_DISABLE] = { .command = ATA_OP_SECURITY_DISABLE_PASSWORD, .name = "SECURITY_DISABLE" },
	[OPT_SECURITY_ERASE] = { .command = ATA_OP_SECURITY_ERASE_UNIT, .name = "SECURITY_ERASE" },
	[OPT_SECURITY_ERASE_ENHANCED] = { .command = ATA_OP_SECURITY_ERASE_UNIT, .name = "SECURITY_ERASE" },
};

static int hex_digit(char c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/* The 32 password bytes: text, "hex:" and 64 digits, or NULL for an empty one. */
static int password_bytes(const char *text, uint8_t pw[32])
{
	memset(pw, 0, 32);
	if (!text) {
		text = getpass("Please enter the drive password: ");
		if (!text) {
			complain("failed to read a password\n");
			return EINVAL;
		}
		if (strlen(text) > 32) {
			complain("password is too long (32 chars max)\n");
			return EINVAL;
		}
		for (size_t i = 0; text[i]; i++)
			pw[i] = (uint8_t)text[i];
		return 0;
	}
	if (strncmp(text, "hex:", 4) == 0) {
		for (int i = 0; i < 32; i++)
			pw[i] = (uint8_t)(hex_digit(text[4 + 2 * i]) << 4 | hex_digit(text[5 + 2 * i]));
	} else if (strcmp(text, "NULL") != 0) {
		/* A password fills 32 bytes: no terminating NUL. */
		for (size_t i = 0; i < 32 && text[i]; i++)
			pw[i] = (uint8_t)text[i];
	}
	return 0;
}

static int security_command(struct device *dev, uint8_t command, const struct ata_security_block *block, unsigned int timeout_s,
			    const char *name)
{
	struct ata_result res;
	int err = ata_security_data(dev, command, block, timeout_s, &res);

	if (err)
		ata_report(name, &res, err);
	return err;
}

/*
 * Words 89/90: the drive's time for SECURITY ERASE UNIT in 2-minute units
 * (0: none given), 15 bits wide where bit 15 says so, else 8; the largest
 * value means "more than".
 */
static unsigned int erase_units(const uint16_t *id, bool enhanced, bool *more_than)
{
	uint16_t w = id[enhanced ? 90 : 89];
	bool extended = w & 0x8000;
	unsigned int t = extended ? w & 0x7fff : w & 0xff;

	*more_than = t == (extended ? 0x7fffu : 0xffu);
	return t;
}

/* The drive's estimate in seconds, 0 when it gives none. */
static unsigned int erase_estimate_s(const uint16_t *id, bool enhanced)
{
	bool more_than;

	return erase_units(id, enhanced, &more_than) * 2 * 60;
}

/* Seconds to allow SECURITY ERASE UNIT: the drive's estimate (2-minute units) or 1 s per 30 MB. */
static unsigned int erase_timeout(const uint16_t *id, bool enhanced)
{
	bool more_than;
	unsigned int t = erase_units(id, enhanced, &more_than);
	uint64_t estimate = identify_capacity(id) / 2048 / 30 + 30 * 60;
	uint64_t secs;

	if (!t)
		return (unsigned int)(estimate > 0xffffffu ? 0xffffffu : estimate);
	if (more_than)	/* 65532 or 508 minutes and more: allow 90 minutes past that */
		secs = ((uint64_t)(t - 1) * 2 + 90) * 60;
	else
		secs = ((uint64_t)t * 2 + 60) * 60;
	if (secs < estimate)
		secs = estimate;
	return (unsigned int)(secs > 0xffffffu ? 0xffffffu : secs);
}

/* The erase under way, for the signal's report (one erase at a time in a process). */
static struct interrupted_erase {
	struct device *dev;
	bool enhanced;
	unsigned int estimate_s;
} under_way;

/*
 * A signal while SECURITY ERASE UNIT runs in the drive: the record says
 * interrupted, and the JSON's security_erase object says where it stopped
 * (the drive goes on by itself).  From the thread that waits for signals.
 */
static void erase_interrupted(void *arg, int sig)
{
	const struct interrupted_erase *e = arg;

	erase_record_interrupted(e->dev, sig);
	json_object_begin("security_erase");
	json_bool("enhanced", e->enhanced);
	json_bool("completed", false);
	json_bool("interrupted", true);
	json_bool("drive_continues", true);
	json_uint("signal", (unsigned int)sig);
	json_uint("estimate_minutes", e->estimate_s / 60);
	json_object_end();
}

/* SECURITY ERASE PREPARE, then ERASE UNIT with the drive's time, and where asked the read-back around it. */
static int security_erase(struct device *dev, const struct settings *s, enum opt_id opt, const uint16_t *id,
			  const struct ata_security_block *block)
{
	const struct security_op *op = &security_ops[opt];
	bool enhanced = opt == OPT_SECURITY_ERASE_ENHANCED;
	/* 9.65's output stays as it was unless a read-back or a record is asked for. */
	bool proven = erase_proof_asked(s);
	const char *command = enhanced ? "SECURITY ERASE UNIT (enhanced)" : "SECURITY ERASE UNIT";
	static char interrupted[512];
	struct long_command lc;
	double seconds;
	int err;

	/* Before ERASE PREPARE: the drive aborts an ERASE UNIT that does not follow it at once. */
	if (proven) {
		if ((err = erase_about_to_send(dev, ERASE_TO_SOME_PATTERN, 0, command)))
			return err;
		erase_run_hidden(dev);
	}
	err = ata_command(dev, "ERASE_PREPARE", ATA_OP_SECURITY_ERASE_PREPARE, 0, 0);
	/* No ERASE UNIT follows a PREPARE that failed: the erase was not sent, with a record as without one. */
	if (err) {
		erase_run_not_sent(dev);
		return err;
	}
	/* Without a record, what went out is known all the same: the JSON's erase_outcome says it. */
	if (!proven)
		erase_run_sent(dev, ERASE_TO_SOME_PATTERN, command);
	snprintf(interrupted, sizeof(interrupted),
		 "Interrupted: hdparm stops here, but the drive goes on erasing, and stays locked until the erase "
		 "finishes or the drive is power-cycled.\nThe Security section of \"hdparm -I %s\" shows where it "
		 "stands.\n",
		 dev->path);
	under_way = (struct interrupted_erase){ dev, enhanced, erase_estimate_s(id, enhanced) };
	long_command_begin(&lc, "erasing", erase_estimate_s(id, enhanced), interrupted, !dev->run.json,
			   erase_interrupted, &under_way);
	err = security_command(dev, op->command, block, erase_timeout(id, enhanced), op->name);
	seconds = long_command_end(&lc);
	json_object_begin("security_erase");
	json_bool("enhanced", enhanced);
	json_bool("completed", !err);
	json_fixed("seconds", seconds, 1);
	json_uint("estimate_minutes", erase_estimate_s(id, enhanced) / 60);
	json_object_end();
	erase_run_status(dev, err ? "SECURITY ERASE UNIT failed" : "SECURITY ERASE UNIT completed");
	if (err || !proven)
		return err;
	drop_cached_sectors(dev);
	return erase_check(dev, ERASE_TO_SOME_PATTERN, 0, verify_full(s));
}

/* The drive can take opt now: id is its IDENTIFY page, block holds the password; else the refusal, said. */
static int check_drive(struct device *dev, const struct settings *s, enum opt_id opt, const uint16_t **id,
		       struct ata_security_block *block)
{
	const struct security_op *op = &security_ops[opt];
	int err;

	if (!(*id = identify_or_report(dev, &err)))
		return err;
	if (!ata_id_has_security(*id)) {
		complain(" %s: the drive does not support the Security feature set\n", op->name);
		return EOPNOTSUPP;
	}
	if (ata_id_security_frozen(*id)) {
		complain(" %s: the drive's security is frozen (SECURITY FREEZE LOCK, as firmware or the kernel send at boot):"
			 " it refuses security commands until it is reset; a suspend and resume resets most drives"
			 " (rtcwake -m mem -s 10), or unplug the drive and plug it in again; hdparm does not suspend the"
			 " machine itself\n", op->name);
		return EPERM;
	}
	if (opt != OPT_SECURITY_SET_PASS && !ata_id_security_enabled(*id)) {
		complain(" %s: no password is set on the drive\n", op->name);
		return EINVAL;
	}
	memset(block, 0, sizeof(*block));
	return password_bytes(s->v[opt].str, block->password);
}

int security_erase_check(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct ata_security_block block;
	const uint16_t *id;

	return check_drive(dev, s, opt, &id, &block);
}

int security_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct security_op *op = &security_ops[opt];
	bool master = s->v[OPT_USER_MASTER].given && s->v[OPT_USER_MASTER].str && s->v[OPT_USER_MASTER].str[0] == 'm';
	bool maximum = s->v[OPT_SECURITY_MODE].given && s->v[OPT_SECURITY_MODE].str && s->v[OPT_SECURITY_MODE].str[0] == 'm';
	bool enhanced = opt == OPT_SECURITY_ERASE_ENHANCED;
	struct ata_security_block block;
	const uint16_t *id;
	int err;

	if ((err = check_drive(dev, s, opt, &id, &block)))
		return err;
	block.control = (uint8_t)((master ? ATA_SECURITY_MASTER : 0) | (enhanced ? ATA_SECURITY_ENHANCED : 0));
	if (opt == OPT_SECURITY_SET_PASS) {
		block.level = maximum ? ATA_SECURITY_MAXIMUM : 0;
		if (master) {
			/* A new master password gets the next revision code (never FFFEh). */
			uint16_t rev = id[ATA_ID_MASTER_PASSWORD_REV] == 0xfffe ? 0 : id[ATA_ID_MASTER_PASSWORD_REV];

			rev++;
			block.master_id[0] = (uint8_t)rev;
			block.master_id[1] = (uint8_t)(rev >> 8);
		}
	}
	if (!s->quiet) {
		out(" Issuing %s command, password=\"%.32s\", user=%s", op->name,
		       s->v[opt].str ? s->v[opt].str : "", master ? "master" : "user");
		if (opt == OPT_SECURITY_SET_PASS)
			out(", mode=%s", maximum ? "max" : "high");
		out("\n");
	}
	fflush(stdout);
	switch (opt) {
	case OPT_SECURITY_ERASE:
	case OPT_SECURITY_ERASE_ENHANCED:
		return security_erase(dev, s, opt, id, &block);
	case OPT_SECURITY_DISABLE:
		/* DISABLE PASSWORD needs the drive unlocked first. */
		err = security_command(dev, ATA_OP_SECURITY_UNLOCK, &block, 15, "SECURITY_UNLOCK");
		return err ? err : security_command(dev, op->command, &block, 15, op->name);
	default:
		return security_command(dev, op->command, &block, 15, op->name);
	}
}

int security_freeze(struct device *dev, const struct settings *s, enum opt_id opt)
{
	(void)opt;
	if (!s->quiet)
		out(" issuing security freeze command\n");
	fflush(stdout);
	return ata_command(dev, "HDIO_DRIVE_CMD(security_freeze)", ATA_OP_SECURITY_FREEZE_LOCK, 0, 0);
}
