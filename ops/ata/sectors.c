/*
 * An ATA drive's sector access by absolute LBA: --write-sector,
 * --make-bad-sector, and the two commands that change how the drive
 * answers (--set-sector-size, --drq-hsm-error).  --read-sector, which
 * every disk has, is read_sector.c.  Confirmation flags were
 * checked before any of these runs (actions.c); each refuses a partition
 * and an LBA beyond the drive's end, then sends one well-formed command.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "identify.h"
#include "largefile.h"
#include "ata_checks.h"
#include "checks.h"
#include "erasecheck.h"
#include "erase_record.h"
#include "sectors.h"
#include "ata_commands.h"
#include "report.h"


/* "--write-sector 204800: medium error (...), LBA 204800" */
static void report_sector_failure(const char *opt, uint64_t lba, const struct ata_result *res, int err)
{
	char why[sizeof(res->cause) + 32];

	ata_sector_failure(res, err, why, sizeof(why));
	complain("%s %llu: %s\n", opt, (unsigned long long)lba, why);
}

/* --write-sector: zeros into one sector, by absolute LBA, within the drive. */
static int write_zeros(struct device *dev, uint64_t lba)
{
	const char *opt = "--write-sector";
	struct ata_result res;
	const uint16_t *id;
	unsigned int bytes;
	uint8_t *buf;
	int err;

	if (!(id = identify_or_report(dev, &err)))
		return err;
	if ((err = check_lba(opt, identify_capacity(id), lba, 1)))
		return err;
	bytes = identify_sector_bytes(id);
	buf = calloc(1, bytes);	/* a write sends zeros */
	if (!buf)
		return ENOMEM;
	out("re-writing sector %llu: ", (unsigned long long)lba);
	fflush(stdout);
	/* The page cache must not hand back the old contents afterwards. */
	drop_cached_sectors(dev);
	err = say_outcome(ata_sector(dev, lba, true, buf, bytes, &res));
	if (err)
		report_sector_failure(opt, lba, &res, err);
	drop_cached_sectors(dev);
	free(buf);
	return err;
}

int write_sector(struct device *dev, const struct settings *s, enum opt_id opt)
{
	uint64_t lba = s->v[opt].num;
	int err = need_whole_disk(dev, lba);

	return err ? err : write_zeros(dev, lba);
}

int make_bad_sector(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct opt_value *v = &s->v[opt];
	struct ata_result res;
	const uint16_t *id;
	bool has_write_unc;
	int err;

	if ((err = need_whole_disk(dev, v->num)))
		return err;
	if (!(id = identify_or_report(dev, &err)))
		return err;
	if ((err = check_lba("--make-bad-sector", identify_capacity(id), v->num, 1)))
		return err;
	has_write_unc = ata_id_has_write_uncorrectable(id);
	if (!has_write_unc && !v->flag && v->num < ATA_LBA28_LIMIT) {
		complain(" --make-bad-sector: the drive has no WRITE UNCORRECTABLE EXT, and WRITE LONG is not "
				"supported through SG_IO; use f%llu to try WRITE UNCORRECTABLE EXT anyway\n",
			(unsigned long long)v->num);
		return EOPNOTSUPP;
	}
	if (!has_write_unc)
		out("Device does not claim to implement the required WRITE_UNC_EXT command\n"
		       "This operation will probably fail (continuing regardless).\n");
	out("Corrupting sector %llu (WRITE_UNC_EXT as %s): ", (unsigned long long)v->num,
	       v->flag ? "flagged" : "pseudo");
	fflush(stdout);
	drop_cached_sectors(dev);
	err = say_outcome(ata_write_uncorrectable(dev, v->num, v->flag, &res));
	if (err)
		report_sector_failure("--make-bad-sector", v->num, &res, err);
	return err;
}

/* The ATA row's check: SET SECTOR CONFIGURATION has no protection information and no LBA formats. */
int set_sector_size_check(struct device *dev, const struct settings *s, enum opt_id opt)
{
	(void)dev;
	(void)opt;
	if (!s->v[OPT_PROTECTION_INFO].given && !s->v[OPT_LBAF].given)
		return 0;
	complain(" %s: an ATA drive's SET SECTOR CONFIGURATION has no protection information and no LBA formats\n",
		 s->v[OPT_PROTECTION_INFO].given ? "--protection-info" : "--lbaf");
	return EINVAL;
}

int set_sector_size(struct device *dev, const struct settings *s, enum opt_id opt)
{
	uint64_t wanted = s->v[opt].num;
	uint8_t log[512];
	struct ata_result res;
	struct disk_cause cause = { 0 };
	int err, index = -1;
	unsigned int check = 0;

	/* ATA keeps 9.65's command; the other kinds format to another block size (erase/sector_format.c). */
	if ((err = set_sector_size_check(dev, s, opt)))
		return err;
	if ((err = need_whole_disk(dev, 0)))
		return err;
	if (!identify_or_report(dev, &err))
		return err;
	/* The Sector Configuration log lists the sizes on offer, each with its check word. */
	if (ata_read_log_page(dev, ATA_LOG_SECTOR_CONFIGURATION, 0, log, &cause)) {
		say_cause(&cause, 0);
		complain("READ_LOG_EXT(SECTOR_CONFIGURATION) failed\n");
		return EIO;
	}
	struct sector_config configs[SECTOR_CONFIGS];
	unsigned int n = sector_configs(log, configs);

	for (unsigned int i = 0; i < n && index < 0; i++) {
		if (configs[i].bytes == wanted) {
			index = (int)configs[i].index;
			check = configs[i].check;
		}
	}
	if (index < 0) {
		complain("ERROR: unsupported sector size: %llu\n", (unsigned long long)wanted);
		return EINVAL;
	}
	if ((err = erase_format_about_to_send(dev, "ATA SET SECTOR CONFIGURATION EXT", NULL)))
		return err;
	out("changing sector size configuration to %llu: ", (unsigned long long)wanted);
	fflush(stdout);
	err = say_outcome(ata_set_sector_configuration(dev, (uint16_t)check, (uint16_t)index, &res));
	erase_run_format_ended(dev, err ? "failed" : "completed", NULL, NULL);
	if (err)
		ata_report("SET SECTOR CONFIGURATION EXT", &res, err);
	ata_identify_forget(dev);
	return err;
}

int drq_hsm_error(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct ata_result res;
	int err;

	(void)s;
	(void)opt;
	if (!identify_or_report(dev, &err))
		return err;
	out(" triggering \"stuck DRQ\" host state machine error\n");
	fflush(stdout);
	drop_cached_sectors(dev);
	sleep(1);
	/* IDENTIFY sent as a command without data: the drive is left with DRQ set. */
	err = ata_identify_without_data(dev, &res);
	ata_report("drq_hsm_error", &res, err ? err : EIO);
	if (res.have_regs)
		complain("ata status=0x%02x ata error=0x%02x\n", res.status, res.error);
	return err ? err : EIO;
}
