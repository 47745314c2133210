/*
 * -N: the max address (HPA): the native max and the current one, and
 * setting it (SET MAX ADDRESS, or SET ACCESSIBLE MAX ADDRESS EXT where the
 * drive has AMAC).  The output lines are hdparm 9.65's.
 */
#include <errno.h>
#include <stdio.h>

#include "ata_commands.h"
#include "ata_checks.h"
#include "checks.h"
#include "identify.h"
#include "json.h"
#include "max_address.h"
#include "report.h"

#define LBA28_LIMIT ((1ULL << 28) - 1)

/* The native max address + 1, or 0 with *err set. */
static uint64_t native_max_sectors(struct device *dev, const uint16_t *id, int *err)
{
	static const char *const names[] = {
		[ATA_MAX_ACCESSIBLE] = "GET_NATIVE_MAX_ADDRESS_EXT",
		[ATA_MAX_EXT] = "READ_NATIVE_MAX_ADDRESS_EXT",
		[ATA_MAX_28] = "READ_NATIVE_MAX_ADDRESS",
	};
	struct ata_result res;
	enum ata_max_command kind = ata_native_max_command(id);

	*err = ata_read_native_max(dev, kind, &res);
	if (!*err && !res.have_regs) {
		snprintf(res.cause, sizeof(res.cause), "the drive's answer did not come back");
		*err = EIO;
	}
	if (!*err && res.lba_incomplete) {
		snprintf(res.cause, sizeof(res.cause), "LBA bits 47:24 were not returned (fixed-format sense)");
		*err = EIO;
	}
	if (*err) {
		ata_report(names[kind], &res, *err);
		return 0;
	}
	if (dev->run.verbose)
		out("%s response: lba=%llx\n", names[kind], (unsigned long long)res.out.lba);
	return ata_native_max_sectors(&res, kind);
}

int get_max_sectors(struct device *dev, const struct settings *s, enum opt_id opt)
{
	uint64_t visible, native;
	int err;
	const uint16_t *id = identify_or_report_each(dev, &err);

	(void)s;
	(void)opt;
	if (!id)
		return err;
	visible = identify_capacity(id);
	native = native_max_sectors(dev, id, &err);
	if (!native)
		return err;
	json_object_begin("max_sectors");
	json_uint("visible", visible);
	json_uint("native", native);
	json_bool("hpa_enabled", visible < native);
	json_object_end();
	out(" max sectors   = %llu/%llu", (unsigned long long)visible, (unsigned long long)native);
	if (visible < native) {
		if (ata_id_has_amax(id))
			out(", ACCESSIBLE MAX ADDRESS enabled\nPower cycle your device after every ACCESSIBLE MAX ADDRESS\n");
		else
			out(", HPA is enabled\n");
	} else if (visible == native) {
		out(ata_id_has_amax(id) ? ", ACCESSIBLE MAX ADDRESS disabled\n" : ", HPA is disabled\n");
	} else {
		out(", HPA setting seems invalid");
		if ((native & 0xffffff000000ull) == 0)
			out(" (buggy kernel device driver?)");
		out_char('\n');
	}
	return 0;
}

int set_max_sectors(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct opt_value *v = &s->v[opt];
	const uint16_t *id;
	static const char *const names[] = {
		[ATA_MAX_ACCESSIBLE] = "SET_ACCESSIBLE_MAX_ADDRESS_EXT",
		[ATA_MAX_EXT] = "SET_MAX_ADDRESS_EXT",
		[ATA_MAX_28] = "SET_MAX_ADDRESS",
	};
	uint64_t max_lba = v->num - 1;
	struct ata_result res;
	enum ata_max_command kind;
	int err;

	if (!s->quiet && v->noisy)
		out(" setting max visible sectors to %llu (%s)\n", (unsigned long long)v->num,
		       v->flag ? "permanent" : "temporary");
	id = identify_or_report_each(dev, &err);
	if (!id)
		return err;
	if (v->num < identify_capacity(id)) {
		err = confirm_dangerous(dev, s, "-Nnnnnn",
					"You have requested reducing the apparent size of the drive.\n"
					"This is a BAD idea, and can easily destroy all of the drive's contents.");
		if (err)
			return err;
	}
	kind = ata_id_has_amax(id) ? ATA_MAX_ACCESSIBLE
	       : max_lba >= LBA28_LIMIT || ata_id_lba48_enabled(id) ? ATA_MAX_EXT : ATA_MAX_28;
	/* The standard wants READ NATIVE MAX ADDRESS immediately before SET MAX. */
	if (kind != ATA_MAX_ACCESSIBLE && !native_max_sectors(dev, id, &err))
		return err;
	err = ata_set_max(dev, kind, max_lba, v->flag, &res);
	if (err)
		ata_report(names[kind], &res, err);
	ata_identify_forget(dev);
	return err;
}
