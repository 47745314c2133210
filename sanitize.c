/* The ATA SANITIZE feature set: status, the three erase methods and the locks (waiting: sanitize_wait.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "erasecheck.h"
#include "json.h"
#include "sanitize.h"
#include "sgio.h"
#include "report.h"

static const struct sanitize_op {
	uint16_t feature;
	uint64_t key;		/* the signature the standard wants in the LBA field */
	const char *name;
} sanitize_ops[OPT_COUNT] = {
	[OPT_SANITIZE_STATUS] = { .feature = 0x0000, .name = "SANITIZE_STATUS" },
	[OPT_SANITIZE_CRYPTO] = { .feature = 0x0011, .key = 0x43727970, .name = "SANITIZE_CRYPTO_SCRAMBLE" },
	[OPT_SANITIZE_BLOCK_ERASE] = { .feature = 0x0012, .key = 0x426b4572, .name = "SANITIZE_BLOCK_ERASE" },
	[OPT_SANITIZE_OVERWRITE] = { .feature = 0x0014, .key = 0x4f57ULL << 32, .name = "SANITIZE_OVERWRITE" },
	[OPT_SANITIZE_FREEZE] = { .feature = 0x0020, .key = 0x46724c6b, .name = "SANITIZE_FREEZE_LOCK" },
	[OPT_SANITIZE_ANTIFREEZE] = { .feature = 0x0040, .key = 0x416e7469, .name = "SANITIZE_ANTIFREEZE_LOCK" },
	/* SANITIZE STATUS EXT with CLEAR SANITIZE OPERATION FAILED: the failure state left. */
	[OPT_SANITIZE_EXIT_FAILURE] = { .feature = 0x0000, .name = "SANITIZE_STATUS (clear failure)" },
};

/* COUNT bits of the erase commands and of SANITIZE STATUS EXT (ACS-3 7.36). */
#define SANITIZE_FAILURE_MODE 0x0010	/* the failure state may be left by a STATUS with CLEAR */
#define SANITIZE_CLEAR_FAILED 0x0001	/* SANITIZE STATUS EXT: leave the failure state */

static bool erases(enum opt_id opt)
{
	return opt == OPT_SANITIZE_BLOCK_ERASE || opt == OPT_SANITIZE_CRYPTO || opt == OPT_SANITIZE_OVERWRITE;
}

/* What the erase leaves: ACS lets a block erase leave any one value; an overwrite leaves its pattern. */
static enum erase_kind erase_kind_of(enum opt_id opt)
{
	return opt == OPT_SANITIZE_CRYPTO ? ERASE_CRYPTO : opt == OPT_SANITIZE_OVERWRITE ? ERASE_TO_PATTERN : ERASE_TO_SOME_PATTERN;
}

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

int sanitize_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct sanitize_op *op = &sanitize_ops[opt];
	struct ata_result res;
	int err;

	if (s->v[OPT_SANITIZE_NO_DEALLOC].given && op->key) {
		complain(" %s: ATA SANITIZE has no choice of deallocation: --sanitize-no-deallocate is for NVMe\n", s->v[opt].name);
		return EOPNOTSUPP;
	}
	if ((err = sanitize_supported(dev)))
		return err;
	uint64_t lba = op->key;
	uint16_t count = 0;

	if (opt == OPT_SANITIZE_OVERWRITE) {
		lba |= s->v[opt].num & 0xffffffffULL;	/* the pattern */
		count = (uint16_t)(s->v[OPT_SANITIZE_PASSES].num & 0x0f);
	}
	if (s->v[OPT_SANITIZE_AUSE].given && (opt == OPT_SANITIZE_BLOCK_ERASE || opt == OPT_SANITIZE_CRYPTO || opt == OPT_SANITIZE_OVERWRITE))
		count |= SANITIZE_FAILURE_MODE;
	if (opt == OPT_SANITIZE_EXIT_FAILURE)
		count |= SANITIZE_CLEAR_FAILED;
	if (erases(opt))
		erase_sample_before(dev, erase_kind_of(opt), (uint32_t)lba);
	out("Issuing %s command\n", op->name);
	fflush(stdout);
	err = ata_sanitize(dev, op->feature, lba, count, opt == OPT_SANITIZE_STATUS || opt == OPT_SANITIZE_EXIT_FAILURE, &res);
	if (erases(opt)) {
		/* A sanitize that did not start ends the device's run: a wait after it would report an older one. */
		if (err)
			dev->refused = true;
		erase_json_sanitize(opt, err);
	}
	if (err) {
		ata_report("SANITIZE", &res, err);
		return err;
	}
	if (opt == OPT_SANITIZE_STATUS) {
		unsigned int flags = res.out.count >> 8;

		if (!ata_sanitize_status_returned(&res)) {
			complain(" SANITIZE_STATUS: the status bits were not returned (fixed-format sense)\n");
			return EIO;
		}
		out("Sanitize status:\n");
		if (flags & ATA_SANITIZE_FROZEN)
			out("    State:    SD1 Sanitize Frozen\n");
		else if (flags & ATA_SANITIZE_IN_PROGRESS) {
			unsigned int progress = (unsigned int)(res.out.lba & 0xffff);

			out("    State:    SD2 Sanitize operation In Process\n");
			out("    Progress: 0x%x (%u%%)\n", progress, progress == 0xffff ? 100 : 100 * (progress + 1) / 0xffff);
		} else
			out("    State:    SD0 Sanitize Idle\n");
		if (flags & ATA_SANITIZE_COMPLETED_WITHOUT_ERROR)
			out("    Last Sanitize Operation Completed Without Error\n");
		if (flags & ATA_SANITIZE_ANTIFREEZE)
			out("    Antifreeze bit set\n");
	} else if (erases(opt)) {
		out("Operation started in background\n");
		out("You may use `--sanitize-status` to check progress\n");
	}
	return 0;
}
