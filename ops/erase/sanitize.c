/*
 * The ATA SANITIZE feature set's own options: the freeze and antifreeze
 * locks.  The erases are sanitize_start.c's, the status
 * sanitize_status.c's, the wait sanitize_wait.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ata_checks.h"
#include "checks.h"
#include "sanitize.h"
#include "ata_commands.h"
#include "report.h"

static const struct sanitize_op {
	uint16_t feature;
	uint64_t key;		/* the signature the standard wants in the LBA field */
	const char *name;
} sanitize_ops[OPT_COUNT] = {
	[OPT_SANITIZE_FREEZE] = { .feature = ATA_SANITIZE_FREEZE_LOCK, .key = ATA_SANITIZE_FREEZE_KEY, .name = "SANITIZE_FREEZE_LOCK" },
	[OPT_SANITIZE_ANTIFREEZE] = { .feature = ATA_SANITIZE_ANTIFREEZE_LOCK, .key = ATA_SANITIZE_ANTIFREEZE_KEY,
				      .name = "SANITIZE_ANTIFREEZE_LOCK" },
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
	out("Issuing %s command\n", op->name);
	fflush(stdout);
	err = ata_sanitize(dev, op->feature, op->key, 0, false, &res);
	if (err) {
		ata_report("SANITIZE", &res, err);
		return err;
	}
	return 0;
}
