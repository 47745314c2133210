/*
 * The commands that touch data: sector reads and writes, TRIM, security,
 * sanitize and DCO, and the two file helpers (--fibmap, --fallocate).
 * Confirmation flags are checked before any of these runs (actions.c);
 * here each command checks what the drive says it supports and refuses
 * LBAs beyond its end, then sends exactly one well-formed command.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <linux/fiemap.h>
#include <linux/fs.h>

#include "array.h"
#include "json.h"
#include "nvme.h"
#include "partition.h"
#include "progress.h"
#include "ranges.h"
#include "sectors.h"
#include "sgio.h"
#include "sysfs.h"
#include "report.h"

#define LBA28_LIMIT ((1ULL << 28) - 1)
#define TRIM_RANGES_PER_BLOCK 64
#define TRIM_MAX_COUNT 0xffffULL

static const uint16_t *identify_or_report(struct device *dev, int *err)
{
	struct ata_result res;
	bool first = !dev->id_failed;
	const uint16_t *id = ata_identify(dev, err, &res);

	if (!id && first)
		ata_report("HDIO_DRIVE_CMD(identify)", &res, *err);
	return id;
}

/*
 * Sector commands take absolute LBAs: refuse a partition, naming the right
 * LBA, and refuse when where the device starts cannot be known.
 */
static int need_whole_disk(struct device *dev, uint64_t lba)
{
	unsigned long long start;
	int err = partition_start(block_device_of(dev->fd), dev->fd, dev->path, &start);

	if (err)
		return err;
	if (!start)
		return 0;
	complain("Device %s has non-zero LBA starting offset of %llu.\n", dev->path, start);
	complain("Please use an absolute LBA with the /dev/ entry for the raw device, rather than a partition or raid name.\n");
	complain("The absolute LBA of sector %llu from %s should be %llu\n", (unsigned long long)lba, dev->path,
		start + lba);
	complain("Aborting.\n");
	return EINVAL;
}

static int check_lba(const char *opt, const uint16_t *id, uint64_t lba, uint64_t count)
{
	uint64_t capacity = identify_capacity(id);

	if (lba >= capacity || count > capacity - lba) {
		complain(" %s %llu: beyond the end of the drive (%llu sectors)\n", opt,
			(unsigned long long)lba, (unsigned long long)capacity);
		return EINVAL;
	}
	return 0;
}

/* One sector, PIO, 28-bit command below LBA 2^28 - 1 and 48-bit above (as 9.65). */
static int sector_io(struct device *dev, uint64_t lba, void *buf, size_t len, bool write, struct ata_result *res)
{
	bool lba48 = lba >= LBA28_LIMIT;
	struct ata_cmd cmd = {
		.name = write ? "WRITE SECTORS" : "READ SECTORS",
		.tf = { .command = (uint8_t)(write ? (lba48 ? ATA_OP_WRITE_SECTORS_EXT : ATA_OP_WRITE_SECTORS)
					    : (lba48 ? ATA_OP_READ_SECTORS_EXT : ATA_OP_READ_SECTORS)),
			.count = 1, .lba = lba, .lba48 = lba48, .device = 0x40 },
		.protocol = write ? ATA_PROTO_PIO_OUT : ATA_PROTO_PIO_IN,
		.data = buf,
		.len = len,
		.data_out = write,
		.timeout_s = 60,
	};

	return ata_exec(dev, &cmd, res);
}

/* 9.65's word for how a command it announced went; returns err. */
static int say_outcome(int err)
{
	out(err ? "FAILED\n" : "succeeded\n");
	return err;
}

/* "--read-sector 204800: medium error (...), LBA 204800" */
static void report_sector_failure(const char *opt, uint64_t lba, const struct ata_result *res, int err)
{
	complain("%s %llu: %s", opt, (unsigned long long)lba, res->cause[0] ? res->cause : strerror(err));
	if (res->have_regs && !res->lba_incomplete && (res->status & 0x01) && (res->error & 0x40 || res->error & 0x10))
		complain(", LBA %llu", (unsigned long long)res->out.lba);
	complain("%c", '\n');
}

static void drop_cached_sectors(struct device *dev)
{
	sync();
	fsync(dev->fd);
	ioctl(dev->fd, BLKFLSBUF, NULL);
}

/* --read-sector and --write-sector: one sector, by absolute LBA, within the drive. */
static int one_sector(struct device *dev, uint64_t lba, bool write)
{
	const char *opt = write ? "--write-sector" : "--read-sector";
	struct ata_result res;
	const uint16_t *id;
	unsigned int bytes;
	uint8_t *buf;
	int err;

	if ((err = need_whole_disk(dev, lba)))
		return err;
	if (dev->nvme_nsid && !write)
		return nvme_read_sector(dev, lba);
	if (!(id = identify_or_report(dev, &err)))
		return err;
	if ((err = check_lba(opt, id, lba, 1)))
		return err;
	bytes = identify_sector_bytes(id);
	buf = calloc(1, bytes);	/* a write sends zeros */
	if (!buf)
		return ENOMEM;
	out(write ? "re-writing sector %llu: " : "reading sector %llu: ", (unsigned long long)lba);
	fflush(stdout);
	/* The page cache must not hand back the old contents afterwards. */
	if (write)
		drop_cached_sectors(dev);
	err = say_outcome(sector_io(dev, lba, buf, bytes, write, &res));
	if (err)
		report_sector_failure(opt, lba, &res, err);
	else if (!write)
		dump_sector(buf, bytes);
	if (write)
		drop_cached_sectors(dev);
	free(buf);
	return err;
}

int read_sector(struct device *dev, const struct settings *s, enum opt_id opt)
{
	return one_sector(dev, s->v[opt].num, false);
}

int write_sector(struct device *dev, const struct settings *s, enum opt_id opt)
{
	return one_sector(dev, s->v[opt].num, true);
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
	if ((err = check_lba("--make-bad-sector", id, v->num, 1)))
		return err;
	has_write_unc = ata_id_has_write_uncorrectable(id);
	if (!has_write_unc && !v->flag && v->num < LBA28_LIMIT) {
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
	struct ata_cmd cmd = {
		.name = "WRITE UNCORRECTABLE EXT",
		.tf = { .command = ATA_OP_WRITE_UNCORRECTABLE_EXT, .feature = v->flag ? ATA_WRITE_UNC_FLAGGED : ATA_WRITE_UNC_PSEUDO, .count = 1, .lba = v->num, .lba48 = true,
			.device = 0x40 },
		.protocol = ATA_PROTO_NONDATA,
		.timeout_s = 60,
	};
	err = say_outcome(ata_exec(dev, &cmd, &res));
	if (err)
		report_sector_failure("--make-bad-sector", v->num, &res, err);
	return err;
}

/* ---- TRIM ---- */

/* DSM/TRIM range entries: bits 47:0 the LBA, 63:48 the count; longer ranges split. */
static size_t pack_ranges(const struct sector_range *r, unsigned int n, struct range_cursor *c, uint8_t *buf,
			  size_t max_entries, uint64_t *sectors)
{
	size_t entries = 0;
	uint64_t lba, count;

	*sectors = 0;
	while (entries < max_entries && next_range_piece(r, n, c, TRIM_MAX_COUNT, &lba, &count)) {
		uint64_t e = count << 48 | lba;

		for (int b = 0; b < 8; b++)
			buf[entries * 8 + (size_t)b] = (uint8_t)(e >> (8 * b));
		entries++;
		*sectors += count;
	}
	return entries;
}

static int trim_ranges(struct device *dev, const struct sector_range *ranges, unsigned int n)
{
	const uint16_t *id;
	struct range_cursor cursor = { 0 };
	unsigned int limit;
	uint64_t sectors;
	uint8_t *buf;
	int err;

	if ((err = need_whole_disk(dev, 0)))
		return err;
	if (dev->nvme_nsid)
		return nvme_trim(dev, ranges, n);
	if (!(id = identify_or_report(dev, &err)))
		return err;
	if (!ata_id_has_trim(id)) {
		complain(" --trim-sector-ranges: the drive does not support TRIM (DATA SET MANAGEMENT)\n");
		return EOPNOTSUPP;
	}
	for (unsigned int i = 0; i < n; i++)
		if ((err = check_lba("--trim-sector-ranges", id, ranges[i].lba, ranges[i].count)))
			return err;
	/* Word 105: how many 512-byte blocks of ranges one command may carry. */
	limit = ata_id_word_reported(id[ATA_ID_DSM_BLOCKS]) ? id[ATA_ID_DSM_BLOCKS] : 1;
	if (limit > 8)
		limit = 8;
	buf = malloc((size_t)limit * 512);
	if (!buf)
		return ENOMEM;
	struct status_line line;

	status_begin(&line, !run.json);
	drop_cached_sectors(dev);
	for (;;) {
		struct ata_result res;
		size_t entries;
		unsigned int blocks;

		memset(buf, 0, (size_t)limit * 512);
		entries = pack_ranges(ranges, n, &cursor, buf, (size_t)limit * TRIM_RANGES_PER_BLOCK, &sectors);
		if (!entries)
			break;
		blocks = (unsigned int)((entries + TRIM_RANGES_PER_BLOCK - 1) / TRIM_RANGES_PER_BLOCK);
		struct ata_cmd cmd = {
			.name = "DATA SET MANAGEMENT",
			.tf = { .command = ATA_OP_DATA_SET_MANAGEMENT, .feature = ATA_DSM_TRIM, .count = (uint16_t)blocks, .lba48 = true,
				.device = ATA_DEVICE_LBA },
			.protocol = ATA_PROTO_DMA,
			.data = buf,
			.len = (size_t)blocks * 512,
			.data_out = true,
			.timeout_s = 300,
		};
		status_clear(&line);
		out("trimming %llu sectors from %zu ranges\n", (unsigned long long)sectors, entries);
		fflush(stdout);
		err = say_outcome(ata_exec(dev, &cmd, &res));
		if (err) {
			status_end(&line);
			ata_report("DATA SET MANAGEMENT (TRIM)", &res, err);
			break;
		}
		draw_trim_status(&line, range_cursor_done(&cursor, ranges, n), n);
	}
	status_end(&line);
	free(buf);
	drop_cached_sectors(dev);
	return err;
}

int trim_from_args(struct device *dev, const struct settings *s, enum opt_id opt)
{
	(void)opt;
	return trim_ranges(dev, s->ranges, s->nranges);
}

int trim_from_stdin(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct sector_range *r;
	unsigned int n;
	int err;

	(void)s;
	(void)opt;
	err = read_ranges(stdin, "stdin", &r, &n);
	if (!err && n)
		err = trim_ranges(dev, r, n);
	free(r);
	return err;
}

/* ---- security ---- */

static const struct security_op {
	enum opt_id opt;
	uint8_t command;
	const char *name;
} security_ops[] = {
	{ OPT_SECURITY_UNLOCK, ATA_OP_SECURITY_UNLOCK, "SECURITY_UNLOCK" },
	{ OPT_SECURITY_SET_PASS, ATA_OP_SECURITY_SET_PASSWORD, "SECURITY_SET_PASS" },
	{ OPT_SECURITY_DISABLE, ATA_OP_SECURITY_DISABLE_PASSWORD, "SECURITY_DISABLE" },
	{ OPT_SECURITY_ERASE, ATA_OP_SECURITY_ERASE_UNIT, "SECURITY_ERASE" },
	{ OPT_SECURITY_ERASE_ENHANCED, ATA_OP_SECURITY_ERASE_UNIT, "SECURITY_ERASE" },
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

static int security_command(struct device *dev, uint8_t command, const uint8_t block[512], unsigned int timeout_s,
			    const char *name)
{
	struct ata_result res;
	struct ata_cmd cmd = {
		.name = name,
		.tf = { .command = command, .count = 1 },
		.protocol = ATA_PROTO_PIO_OUT,
		.data = (void *)block,
		.len = 512,
		.data_out = true,
		.timeout_s = timeout_s,
	};
	int err = ata_exec(dev, &cmd, &res);

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

int security_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct security_op *op = TABLE_ROW(security_ops, opt);
	bool master = s->v[OPT_USER_MASTER].given && s->v[OPT_USER_MASTER].str && s->v[OPT_USER_MASTER].str[0] == 'm';
	bool maximum = s->v[OPT_SECURITY_MODE].given && s->v[OPT_SECURITY_MODE].str && s->v[OPT_SECURITY_MODE].str[0] == 'm';
	bool enhanced = opt == OPT_SECURITY_ERASE_ENHANCED;
	uint8_t block[512], pw[32];
	const uint16_t *id;
	int err;

	if (!(id = identify_or_report(dev, &err)))
		return err;
	if (!ata_id_has_security(id)) {
		complain(" %s: the drive does not support the Security feature set\n", op->name);
		return EOPNOTSUPP;
	}
	if (ata_id_security_frozen(id)) {
		complain(" %s: security is frozen until the drive is power-cycled\n", op->name);
		return EPERM;
	}
	if (opt != OPT_SECURITY_SET_PASS && !ata_id_security_enabled(id)) {
		complain(" %s: no password is set on the drive\n", op->name);
		return EINVAL;
	}
	if ((err = password_bytes(s->v[opt].str, pw)))
		return err;
	memset(block, 0, sizeof(block));
	block[0] = (uint8_t)((master ? 1 : 0) | (enhanced ? 2 : 0));
	memcpy(block + 2, pw, 32);
	if (opt == OPT_SECURITY_SET_PASS) {
		block[1] = maximum ? 1 : 0;
		if (master) {
			/* A new master password gets the next revision code (never FFFEh). */
			uint16_t rev = id[ATA_ID_MASTER_PASSWORD_REV] == 0xfffe ? 0 : id[ATA_ID_MASTER_PASSWORD_REV];

			rev++;
			block[34] = (uint8_t)rev;
			block[35] = (uint8_t)(rev >> 8);
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
	case OPT_SECURITY_ERASE_ENHANCED: {
		struct ata_result res;
		struct ata_cmd prep = { .name = "SECURITY ERASE PREPARE", .tf = { .command = ATA_OP_SECURITY_ERASE_PREPARE },
					.protocol = ATA_PROTO_NONDATA };

		err = ata_exec(dev, &prep, &res);
		if (err) {
			ata_report("ERASE_PREPARE", &res, err);
			return err;
		}
		static char interrupted[512];
		struct long_command lc;
		double seconds;

		snprintf(interrupted, sizeof(interrupted),
			 "Interrupted: hdparm stops here, but the drive goes on erasing, and stays locked until the erase "
			 "finishes or the drive is power-cycled.\nThe Security section of \"hdparm -I %s\" shows where it "
			 "stands.\n",
			 dev->path);
		long_command_begin(&lc, "erasing", erase_estimate_s(id, enhanced), interrupted, !run.json);
		err = security_command(dev, op->command, block, erase_timeout(id, enhanced), op->name);
		seconds = long_command_end(&lc);
		json_object_begin("security_erase");
		json_bool("enhanced", enhanced);
		json_bool("completed", !err);
		json_fixed("seconds", seconds, 1);
		json_uint("estimate_minutes", erase_estimate_s(id, enhanced) / 60);
		json_object_end();
		return err;
	}
	case OPT_SECURITY_DISABLE:
		/* DISABLE PASSWORD needs the drive unlocked first. */
		err = security_command(dev, ATA_OP_SECURITY_UNLOCK, block, 15, "SECURITY_UNLOCK");
		return err ? err : security_command(dev, op->command, block, 15, op->name);
	default:
		return security_command(dev, op->command, block, 15, op->name);
	}
}

int security_freeze(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct ata_result res;
	struct ata_cmd cmd = { .name = "SECURITY FREEZE LOCK", .tf = { .command = ATA_OP_SECURITY_FREEZE_LOCK },
			       .protocol = ATA_PROTO_NONDATA };
	int err;

	(void)opt;
	if (!s->quiet)
		out(" issuing security freeze command\n");
	fflush(stdout);
	err = ata_exec(dev, &cmd, &res);
	if (err)
		ata_report("HDIO_DRIVE_CMD(security_freeze)", &res, err);
	return err;
}

/* ---- sanitize ---- */

static const struct sanitize_op {
	enum opt_id opt;
	uint16_t feature;
	uint64_t key;		/* the signature the standard wants in the LBA field */
	const char *name;
} sanitize_ops[] = {
	{ OPT_SANITIZE_STATUS, 0x0000, 0, "SANITIZE_STATUS" },
	{ OPT_SANITIZE_CRYPTO, 0x0011, 0x43727970, "SANITIZE_CRYPTO_SCRAMBLE" },
	{ OPT_SANITIZE_BLOCK_ERASE, 0x0012, 0x426b4572, "SANITIZE_BLOCK_ERASE" },
	{ OPT_SANITIZE_OVERWRITE, 0x0014, 0x4f57ULL << 32, "SANITIZE_OVERWRITE" },
	{ OPT_SANITIZE_FREEZE, 0x0020, 0x46724c6b, "SANITIZE_FREEZE_LOCK" },
	{ OPT_SANITIZE_ANTIFREEZE, 0x0040, 0x416e7469, "SANITIZE_ANTIFREEZE_LOCK" },
};

/* SANITIZE STATUS EXT's answer (ACS-3): COUNT 15:8 the state bits, LBA 15:0 the progress in 1/65536. */
#define SANITIZE_COMPLETED_WITHOUT_ERROR 0x80
#define SANITIZE_IN_PROGRESS 0x40
#define SANITIZE_FROZEN 0x20
#define SANITIZE_ANTIFREEZE 0x10

/* Why the last sanitize failed: LBA 7:0 of a SANITIZE STATUS EXT that ended with ABRT. */
static const char *const sanitize_failures[] = {
	[0] = "the sanitize operation failed",
	[1] = "the sanitize operation completed with physical sectors that were not sanitized",
	[2] = "the sanitize command gave an unsupported mode",
	[3] = "sanitize is frozen until the drive is power-cycled",
	[4] = "the freeze lock was refused: the antifreeze lock is set",
};

/* 0 when the drive has the SANITIZE feature set; else the errno, with the reason said. */
static int sanitize_supported(struct device *dev)
{
	const uint16_t *id;
	int err;

	if (!(id = identify_or_report(dev, &err)))
		return err;
	if (!ata_id_has_sanitize(id)) {
		complain("SANITIZE feature set is not supported\n");
		return EOPNOTSUPP;
	}
	return 0;
}

/* SANITIZE STATUS EXT's bits are in COUNT 15:8, which fixed-format sense does not carry. */
static bool sanitize_status_returned(const struct ata_result *res)
{
	return res->have_regs && !(!res->out.lba48 && res->sense[0] == 0x70);
}

int sanitize_wait(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct status_line line;
	int err;

	(void)s;
	(void)opt;
	if ((err = sanitize_supported(dev)))
		return err;
	status_begin(&line, !run.json);
	for (;;) {
		struct ata_result res;
		struct ata_cmd cmd = {
			.name = "SANITIZE STATUS EXT",
			.tf = { .command = ATA_OP_SANITIZE, .lba48 = true, .device = ATA_DEVICE_LBA },
			.protocol = ATA_PROTO_NONDATA,
			.want_regs = true,
		};
		unsigned int flags;

		err = ata_exec(dev, &cmd, &res);
		if (err) {
			unsigned int reason = (unsigned int)(res.out.lba & 0xff);

			status_end(&line);
			if (res.have_regs && (res.error & 0x04) && reason < ARRAY_SIZE(sanitize_failures)) {
				complain(" --sanitize-wait: %s\n", sanitize_failures[reason]);
				return EIO;
			}
			ata_report("SANITIZE STATUS EXT", &res, err);
			return err;
		}
		if (!sanitize_status_returned(&res)) {
			status_end(&line);
			complain(" --sanitize-wait: the status bits were not returned (no registers, or fixed-format sense)\n");
			return EIO;
		}
		flags = res.out.count >> 8;
		if (!(flags & SANITIZE_IN_PROGRESS)) {
			status_end(&line);
			if (flags & SANITIZE_COMPLETED_WITHOUT_ERROR) {
				out("Sanitize operation completed without error\n");
				return 0;
			}
			complain(" --sanitize-wait: no sanitize operation is running, and the last one did not complete without error\n");
			return EIO;
		}
		if (line.shown) {
			char text[40];

			snprintf(text, sizeof(text), "sanitize: %u%% done", (unsigned int)((res.out.lba & 0xffff) * 100 / 65536));
			status_draw(&line, text);
		}
		sleep(1);
	}
}

int sanitize_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct sanitize_op *op = TABLE_ROW(sanitize_ops, opt);
	struct ata_result res;
	int err;

	if ((err = sanitize_supported(dev)))
		return err;
	struct ata_cmd cmd = {
		.name = op->name,
		.tf = { .command = ATA_OP_SANITIZE, .feature = op->feature, .lba = op->key, .lba48 = true,
			.device = ATA_DEVICE_LBA },
		.protocol = ATA_PROTO_NONDATA,
		.want_regs = opt == OPT_SANITIZE_STATUS,
	};
	if (opt == OPT_SANITIZE_OVERWRITE) {
		cmd.tf.lba |= s->v[opt].num & 0xffffffffULL;
		cmd.tf.count = (uint16_t)(s->v[OPT_SANITIZE_PASSES].num & 0x0f);
	}
	out("Issuing %s command\n", op->name);
	fflush(stdout);
	err = ata_exec(dev, &cmd, &res);
	if (err) {
		ata_report("SANITIZE", &res, err);
		return err;
	}
	if (opt == OPT_SANITIZE_STATUS) {
		unsigned int flags = res.out.count >> 8;

		if (!sanitize_status_returned(&res)) {
			complain(" SANITIZE_STATUS: the status bits were not returned (fixed-format sense)\n");
			return EIO;
		}
		out("Sanitize status:\n");
		if (flags & SANITIZE_FROZEN)
			out("    State:    SD1 Sanitize Frozen\n");
		else if (flags & SANITIZE_IN_PROGRESS) {
			unsigned int progress = (unsigned int)(res.out.lba & 0xffff);

			out("    State:    SD2 Sanitize operation In Process\n");
			out("    Progress: 0x%x (%u%%)\n", progress, progress == 0xffff ? 100 : 100 * (progress + 1) / 0xffff);
		} else
			out("    State:    SD0 Sanitize Idle\n");
		if (flags & SANITIZE_COMPLETED_WITHOUT_ERROR)
			out("    Last Sanitize Operation Completed Without Error\n");
		if (flags & SANITIZE_ANTIFREEZE)
			out("    Antifreeze bit set\n");
	} else if (opt == OPT_SANITIZE_BLOCK_ERASE || opt == OPT_SANITIZE_CRYPTO || opt == OPT_SANITIZE_OVERWRITE) {
		out("Operation started in background\n");
		out("You may use `--sanitize-status` to check progress\n");
	}
	return 0;
}

/* ---- Device Configuration Overlay ---- */

static uint8_t dco_checksum(const uint16_t *dco)
{
	uint8_t sum = 0;

	for (int i = 0; i < 255; i++)
		sum = (uint8_t)(sum + (dco[i] & 0xff) + (dco[i] >> 8));
	sum = (uint8_t)(sum + (dco[255] & 0xff));
	return (uint8_t)-sum;
}

static int dco_identify_page(struct device *dev, uint16_t dco[256])
{
	uint8_t raw[512] = { 0 };
	struct ata_result res;
	struct ata_cmd cmd = {
		.name = "DEVICE CONFIGURATION IDENTIFY",
		.tf = { .command = ATA_OP_DEVICE_CONFIGURATION, .feature = ATA_DCO_IDENTIFY, .count = 1 },
		.protocol = ATA_PROTO_PIO_IN,
		.data = raw,
		.len = sizeof(raw),
	};
	int err = ata_exec(dev, &cmd, &res);

	if (err) {
		ata_report("HDIO_DRIVE_CMD(dco_identify)", &res, err);
		return err;
	}
	for (int i = 0; i < 256; i++)
		dco[i] = (uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8);
	return 0;
}

static void print_bits(uint16_t word, const char *const names[], int first, int last)
{
	for (int b = first; b <= last; b++)
		if (word & (1u << b))
			out(" %s", names[b]);
}

static void dco_print(const uint16_t *dco)
{
	static const char *const w7[16] = { "SMART", "self_test", "error_log", "security", "PUIS", "TCQ", "AAM", "HPA",
					    "48_bit", "streaming", "TLC_Reserved_7[10]", "FUA", "selective_test",
					    "conveyance_test", "write_read_verify", "reserved_7[15]" };
	static const char *const w21[16] = { [11] = "free_fall", [12] = "trusted_computing", [13] = "WRITE_UNC_EXT",
					     [14] = "NV_cache_power_management", [15] = "NV_cache" };
	static const char *const w8[5] = { "NCQ", "NZ_buffer_offsets", "interface_power_management",
					   "async_notification", "SSP" };
	int udma;

	out("DCO Revision: 0x%04x", dco[0]);
	if (dco[0] == 0 || dco[0] > 2)
		out(" -- unknown, treating as 0002");
	out("\nThe following features can be selectively disabled via DCO:\n");
	out("\tTransfer modes:\n\t\t");
	if (dco[1] & 7) {
		int m = (dco[1] & 4) ? 2 : (dco[1] & 2) ? 1 : 0;

		for (int i = 0; i <= m; i++)
			out(" mdma%d", i);
		out("\n\t\t");
	}
	for (udma = 6; udma >= 0 && !(dco[2] & (1u << udma)); udma--)
		;
	for (int i = 0; i <= udma; i++)
		out(" udma%d", i);
	if (udma == 6 && dco[0] < 2)
		out("(?)");
	out_char('\n');
	out("\tReal max sectors: %llu\n",
	       (unsigned long long)((uint64_t)dco[5] << 32 | (uint64_t)dco[4] << 16 | dco[3]) + 1);
	out("\tATA command/feature sets:");
	if (dco[7] & 0x01ff) {
		out("\n\t\t");
		print_bits(dco[7], w7, 0, 8);
	}
	if (dco[7] & 0xfe00) {
		out("\n\t\t");
		if (dco[0] < 2)
			out(" (?):");
		print_bits(dco[7], w7, 9, 15);
	}
	if (dco[21] & 0xf800) {
		out("\n\t\t");
		if (dco[0] < 2)
			out(" (?):");
		print_bits(dco[21], w21, 11, 15);
	}
	out_char('\n');
	if (dco[8] & 0x1f) {
		out("\tSATA command/feature sets:\n\t\t");
		if (dco[0] < 2)
			out(" (?):");
		print_bits(dco[8], w8, 0, 4);
		out_char('\n');
	}
}

int dco_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	uint16_t dco[256];
	struct ata_result res;
	int err;

	if (opt == OPT_DCO_IDENTIFY) {
		if ((err = dco_identify_page(dev, dco)))
			return err;
		out(dco_checksum(dco) == (dco[255] >> 8) ? "DCO Checksum verified.\n" : "DCO Checksum FAILED!\n");
		dco_print(dco);
		return 0;
	}
	if (opt == OPT_DCO_RESTORE || opt == OPT_DCO_FREEZE) {
		struct ata_cmd cmd = {
			.name = opt == OPT_DCO_RESTORE ? "DEVICE CONFIGURATION RESTORE" : "DEVICE CONFIGURATION FREEZE LOCK",
			.tf = { .command = ATA_OP_DEVICE_CONFIGURATION,
				.feature = opt == OPT_DCO_RESTORE ? ATA_DCO_RESTORE : ATA_DCO_FREEZE_LOCK },
			.protocol = ATA_PROTO_NONDATA,
		};

		if (!s->quiet)
			out(" issuing DCO %s command\n", opt == OPT_DCO_RESTORE ? "restore" : "freeze");
		fflush(stdout);
		err = ata_exec(dev, &cmd, &res);
		if (err)
			ata_report(opt == OPT_DCO_RESTORE ? "HDIO_DRIVE_CMD(dco_restore)" : "HDIO_DRIVE_CMD(dco_freeze)", &res, err);
		return err;
	}
	/* --dco-setmax: change words 3-5 (max LBA) of the overlay and write it back. */
	const uint16_t *id;
	uint64_t max = s->v[opt].num;
	uint8_t raw[512];

	if (!(id = identify_or_report(dev, &err)))
		return err;
	if (max < identify_capacity(id) &&
	    (err = confirm_dangerous(dev, s, "--dco-setmax",
				     "You have requested reducing the apparent size of the drive.\n"
				     "This is a BAD idea, and can easily destroy all of the drive's contents.")))
		return err;
	if ((err = dco_identify_page(dev, dco)))
		return err;
	if (dco_checksum(dco) != (dco[255] >> 8)) {
		complain(" --dco-setmax: the drive's DCO checksum is wrong; nothing written\n");
		return EIO;
	}
	if (!s->quiet)
		out("issuing DCO set command (sectors = %llu)\n", (unsigned long long)max);
	dco[3] = (uint16_t)(max - 1);
	dco[4] = (uint16_t)((max - 1) >> 16);
	dco[5] = (uint16_t)((max - 1) >> 32);
	dco[255] = (uint16_t)((dco[255] & 0xff) | dco_checksum(dco) << 8);
	for (int i = 0; i < 256; i++) {
		raw[2 * i] = (uint8_t)dco[i];
		raw[2 * i + 1] = (uint8_t)(dco[i] >> 8);
	}
	struct ata_cmd cmd = {
		.name = "DEVICE CONFIGURATION SET",
		.tf = { .command = ATA_OP_DEVICE_CONFIGURATION, .feature = ATA_DCO_SET, .count = 1 },
		.protocol = ATA_PROTO_PIO_OUT,
		.data = raw,
		.len = sizeof(raw),
		.data_out = true,
	};
	err = ata_exec(dev, &cmd, &res);
	if (err)
		ata_report("DEVICE CONFIGURATION SET", &res, err);
	dev->id_valid = false;
	return err;
}

/* ---- files ---- */

int fallocate_file(const struct settings *s)
{
	const struct opt_value *v = &s->v[OPT_FALLOCATE];
	int fd = open(v->str, O_WRONLY | O_CREAT | O_EXCL, 0600);
	int err = 0;

	if (fd == -1) {
		err = errno;
		complain_errno(v->str);
		return err;
	}
	/* The blocks are reserved only once the metadata that says so is on disk. */
	if (fallocate(fd, 0, 0, (off_t)(v->num * 1024)) || fsync(fd))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	if (err) {
		complain("%s: %s\n", v->str, strerror(err));
		/* We made it: a failure leaves nothing behind that a retry would trip over. */
		unlink(v->str);
	}
	return err;
}

static void print_extent(uint64_t offset, uint64_t first_lba, uint64_t sectors, bool mapped)
{
	if (mapped)
		out("%12llu %10llu %10llu %10llu\n", (unsigned long long)offset, (unsigned long long)first_lba,
		       (unsigned long long)(first_lba + sectors - 1), (unsigned long long)sectors);
	else
		out("%12llu %s %10llu\n", (unsigned long long)offset, "      -          -   ", (unsigned long long)sectors);
}

int fibmap_file(const struct settings *s)
{
	const char *path = s->v[OPT_FIBMAP].str;
	unsigned long long start = 0;
	struct fiemap *fm;
	struct stat st;
	uint64_t next = 0;
	unsigned int count = 64;
	bool last = false;
	int fd, err = 0;

	fd = open(path, O_RDONLY);
	if (fd == -1 || fstat(fd, &st) == -1) {
		err = errno;
		complain_errno(path);
		if (fd != -1)
			close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		complain("%s: not a regular file\n", path);
		close(fd);
		return EINVAL;
	}
	/* Extents are relative to the filesystem: add where its partition starts. */
	if ((err = partition_start(st.st_dev, -1, path, &start))) {
		close(fd);
		return err;
	}
	out("\n%s:\n filesystem blocksize %lu, begins at LBA %llu; assuming 512 byte sectors.\n", path,
	       (unsigned long)st.st_blksize, start);
	out("%12s %10s %10s %10s\n", "byte_offset", "begin_LBA", "end_LBA", "sectors");

	fm = calloc(1, sizeof(*fm) + count * sizeof(struct fiemap_extent));
	if (!fm) {
		close(fd);
		return ENOMEM;
	}
	while (!last && next < (uint64_t)st.st_size) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = next;
		fm->fm_length = FIEMAP_MAX_OFFSET - next;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = count;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) == -1) {
			err = errno;
			complain_errno("ioctl(FIEMAP)");
			break;
		}
		if (fm->fm_mapped_extents == 0)
			break;
		for (unsigned int i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &fm->fm_extents[i];

			if (e->fe_logical > next)	/* a hole */
				print_extent(next, 0, (e->fe_logical - next) / 512, false);
			print_extent(e->fe_logical, start + e->fe_physical / 512, e->fe_length / 512, true);
			next = e->fe_logical + e->fe_length;
			if (e->fe_flags & FIEMAP_EXTENT_LAST)
				last = true;
		}
	}
	if (!err && next < (uint64_t)st.st_size)
		print_extent(next, 0, ((uint64_t)st.st_size - next + 511) / 512, false);
	free(fm);
	close(fd);
	return err;
}

/* ---- firmware download ---- */

static const struct fw_mode {
	enum opt_id opt;
	unsigned int mode;	/* DOWNLOAD MICROCODE subcommand; 0: choose from IDENTIFY */
	bool max_segments;
} fw_modes[] = {
	{ OPT_FWDOWNLOAD, 0, false },
	{ OPT_FWDOWNLOAD_MODE3, 0x03, false },
	{ OPT_FWDOWNLOAD_MODE3_MAX, 0x03, true },
	{ OPT_FWDOWNLOAD_MODE7, 0x07, false },
	{ OPT_FWDOWNLOAD_MODEE, 0x0e, false },
	{ OPT_FWDOWNLOAD_MODEE_MAX, 0x0e, true },
};

#define FW_MAX_BYTES (0xffffu * 512u)

/* One DOWNLOAD MICROCODE: count 7:0 and LBA 7:0 hold the block count, LBA 23:8 the offset. */
static int send_firmware_segment(struct device *dev, unsigned int mode, size_t offset, const uint8_t *data,
				 size_t bytes, struct ata_result *res)
{
	unsigned int blocks = (unsigned int)(bytes / 512);
	struct ata_cmd cmd = {
		.name = "DOWNLOAD MICROCODE",
		.tf = { .command = ATA_OP_DOWNLOAD_MICROCODE, .feature = (uint16_t)mode, .count = (uint16_t)(blocks & 0xff),
			.lba = (uint64_t)(offset / 512) << 8 | ((blocks >> 8) & 0xff) },
		.protocol = ATA_PROTO_PIO_OUT,
		.data = (void *)data,
		.len = bytes,
		.data_out = true,
		.timeout_s = 30,
		.want_regs = mode == 0x03 || mode == 0x0e,
	};

	return ata_exec(dev, &cmd, res);
}

int firmware_download(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct fw_mode *m = TABLE_ROW(fw_modes, opt);
	const char *path = s->v[opt].str;
	const uint16_t *id;
	unsigned int mode, seg_min = 1, seg_max = 0xffff;
	size_t segment, offset;
	struct stat st;
	uint8_t *fw = NULL;
	int fd, err;

	unsigned long long start;

	if ((err = partition_start(block_device_of(dev->fd), dev->fd, dev->path, &start)))
		return err;
	if (start) {
		complain("--fwdownload requires the raw device, not a partition.\n");
		return EINVAL;
	}
	if (!(id = identify_or_report(dev, &err)))
		return err;
	fd = open(path, O_RDONLY);
	if (fd == -1 || fstat(fd, &st) == -1) {
		err = errno;
		complain_errno(path);
		if (fd != -1)
			close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode) || st.st_size == 0 || st.st_size % 512 || st.st_size > FW_MAX_BYTES) {
		complain("%s: not a regular file of 512 to %u bytes in 512-byte multiples\n", path, FW_MAX_BYTES);
		close(fd);
		return EINVAL;
	}
	if (!ata_id_has_download_microcode(id)) {
		complain("DOWNLOAD_MICROCODE: not supported by device\n");
		close(fd);
		return EOPNOTSUPP;
	}
	fw = malloc((size_t)st.st_size);
	if (!fw || read(fd, fw, (size_t)st.st_size) != st.st_size) {
		err = fw ? EIO : ENOMEM;
		complain("%s: %s\n", path, strerror(err));
		free(fw);
		close(fd);
		return err;
	}
	close(fd);
	out("%s: %llu bytes\n", path, (unsigned long long)st.st_size);
	mode = m->mode;
	if (!mode)
		mode = ata_id_has_microcode_mode3(id) ? 0x03 : 0x07;
	if (mode != 0x07) {
		/* Words 234/235: the drive's smallest and largest segment, in 512-byte units. */
		seg_min = ata_id_word_reported(id[ATA_ID_MICROCODE_MIN_SEGMENT]) ? id[ATA_ID_MICROCODE_MIN_SEGMENT] : 1;
		seg_max = ata_id_word_reported(id[ATA_ID_MICROCODE_MAX_SEGMENT]) ? id[ATA_ID_MICROCODE_MAX_SEGMENT] : seg_min;
		complain("mode=%u, min=%u, max=%u\n", mode, seg_min, seg_max);
	}
	segment = mode == 0x07 ? (size_t)st.st_size : (size_t)(m->max_segments ? seg_max : seg_min) * 512;
	err = 0;
	struct status_line line;
	size_t segments = ((size_t)st.st_size + segment - 1) / segment;

	status_begin(&line, !run.json);
	for (offset = 0; offset < (size_t)st.st_size; offset += segment) {
		struct ata_result res;
		size_t bytes = (size_t)st.st_size - offset < segment ? (size_t)st.st_size - offset : segment;
		bool last = offset + bytes >= (size_t)st.st_size;

		err = send_firmware_segment(dev, mode, offset, fw + offset, bytes, &res);
		if (err) {
			status_end(&line);
			out_char('\n');
			ata_report("DOWNLOAD MICROCODE", &res, err);
			break;
		}
		/* On a terminal the status line counts the segments: a dot each would draw over it. */
		if (!line.shares_screen) {
			out_char('.');
			fflush(stdout);
		}
		if (line.shown) {
			char text[100];

			snprintf(text, sizeof(text), "firmware: segment %zu of %zu sent (%zu of %llu bytes)",
				 offset / segment + 1, segments, offset + bytes, (unsigned long long)st.st_size);
			status_draw(&line, text);
		}
		/* Segmented modes: count 1 = the drive wants more, 2 = it has all it needs. */
		if (res.have_regs && (res.out.count & 0xff) == 2 && !last) {
			complain("Error: drive completed transfer at %zu/%llu bytes\n", offset + bytes,
				(unsigned long long)st.st_size);
			err = EIO;
			break;
		}
		if (res.have_regs && (res.out.count & 0xff) == 1 && last) {
			complain("Error: drive expects more data than provided\n");
			err = EIO;
			break;
		}
	}
	status_end(&line);
	if (!err)
		out(" Done.\n");
	free(fw);
	dev->id_valid = false;
	return err;
}

/* ---- sector size, and the deliberate HSM error ---- */

int set_sector_size(struct device *dev, const struct settings *s, enum opt_id opt)
{
	uint64_t wanted = s->v[opt].num;
	uint8_t log[512];
	struct ata_result res;
	int err, index = -1;
	unsigned int check = 0;

	if ((err = need_whole_disk(dev, 0)))
		return err;
	if (!identify_or_report(dev, &err))
		return err;
	/* The Sector Configuration log lists the sizes on offer, each with its check word. */
	if (ata_read_log_page(dev, 0x2f, 0, log)) {
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
	out("changing sector size configuration to %llu: ", (unsigned long long)wanted);
	fflush(stdout);
	struct ata_cmd cmd = {
		.name = "SET SECTOR CONFIGURATION EXT",
		.tf = { .command = ATA_OP_SET_SECTOR_CONFIGURATION_EXT, .feature = (uint16_t)check, .count = (uint16_t)index, .lba48 = true,
			.device = 0x40 },
		.protocol = ATA_PROTO_NONDATA,
		.timeout_s = 60,
	};
	err = say_outcome(ata_exec(dev, &cmd, &res));
	if (err)
		ata_report("SET SECTOR CONFIGURATION EXT", &res, err);
	dev->id_valid = false;
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
	/* IDENTIFY sent as a command without data: the drive is left with DRQ set. */
	struct ata_cmd cmd = {
		.name = "IDENTIFY (no data)",
		.tf = { .command = dev->identify_op },
		.protocol = ATA_PROTO_NONDATA,
		.timeout_s = 60,
	};
	out(" triggering \"stuck DRQ\" host state machine error\n");
	fflush(stdout);
	drop_cached_sectors(dev);
	sleep(1);
	err = ata_exec(dev, &cmd, &res);
	ata_report("drq_hsm_error", &res, err ? err : EIO);
	if (res.have_regs)
		complain("ata status=0x%02x ata error=0x%02x\n", res.status, res.error);
	return err ? err : EIO;
}
