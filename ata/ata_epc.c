/*
 * The Extended Power Conditions feature set of ATA drives (ACS-3 4.9): its
 * five conditions read from the Power Conditions log (08h), and changed by
 * the SET FEATURES EPC subcommands.  What is shown and refused is
 * ops/any_disk/epc.c's.
 */
#include <errno.h>
#include <stdio.h>

#include "array.h"
#include "ata_commands.h"
#include "ata_disk.h"
#include "ata_epc.h"
#include "epc_decode.h"

/* Each condition's identifier (COUNT), and where the log describes it; in enum disk_pc's order. */
static const struct {
	uint8_t id;
	uint8_t page;
	unsigned int offset;
} conditions[DISK_PCS] = {
	[DISK_PC_IDLE_A] = { ATA_PC_IDLE_A, ATA_PCL_PAGE_IDLE, 0 },
	[DISK_PC_IDLE_B] = { ATA_PC_IDLE_B, ATA_PCL_PAGE_IDLE, 64 },
	[DISK_PC_IDLE_C] = { ATA_PC_IDLE_C, ATA_PCL_PAGE_IDLE, 128 },
	[DISK_PC_STANDBY_Y] = { ATA_PC_STANDBY_Y, ATA_PCL_PAGE_STANDBY, 384 },
	[DISK_PC_STANDBY_Z] = { ATA_PC_STANDBY_Z, ATA_PCL_PAGE_STANDBY, 448 },
};

uint64_t ata_epc_counts(uint64_t tenths)
{
	uint64_t effective = 0;
	uint32_t lba;

	return epc_timer_field(tenths, &lba, &effective) ? 0 : effective;
}

int ata_disk_epc_read(struct device *dev, struct disk_epc *e)
{
	const uint16_t *id;
	uint8_t page[2][512];
	int err;

	e->switchable = true;
	e->timer_limit = "65535 minutes";
	if (!(id = identify_for(dev, &err, &e->cause)))
		return err;
	if (!ata_id_has_epc(id)) {
		e->cause.about_option = true;
		snprintf(e->cause.why, sizeof(e->cause.why),
			 "the Extended Power Conditions feature set is not supported by this drive");
		return EOPNOTSUPP;
	}
	e->source = "Power Conditions log (08h)";
	e->enabled = ata_id_epc_enabled(id);
	if (e->depth == EPC_READ_PRESENCE || (e->depth == EPC_READ_IF_ENABLED && !e->enabled))
		return 0;
	for (unsigned int p = 0; p < ARRAY_SIZE(page); p++)
		if (ata_read_log_page(dev, ATA_LOG_POWER_CONDITIONS, (uint8_t)p, page[p], &e->cause))
			return EIO;
	for (unsigned int i = 0; i < DISK_PCS; i++)
		epc_decode(page[conditions[i].page] + conditions[i].offset, &e->pc[i]);
	e->conditions_read = true;
	return 0;
}

int ata_disk_epc_change(struct device *dev, const struct disk_epc_change *ch, struct disk_cause *c)
{
	uint32_t lba = ch->save ? ATA_EPC_SAVE : 0, timer = 0;
	uint8_t condition = conditions[ch->pc].id;
	struct ata_result res;
	const char *what;
	uint64_t effective;
	int err;

	switch (ch->what) {
	case EPC_SWITCH:
		what = ch->on ? "SET FEATURES EPC (enable)" : "SET FEATURES EPC (disable)";
		lba = ch->on ? ATA_EPC_ENABLE : ATA_EPC_DISABLE;
		condition = 0;
		break;
	case EPC_SET:
		if (!ch->on) {
			what = "SET FEATURES EPC (set power condition state)";
			lba |= ATA_EPC_SET_STATE;
			break;
		}
		what = "SET FEATURES EPC (set power condition timer)";
		if (epc_timer_field(ch->tenths, &timer, &effective))
			return EINVAL;
		lba |= timer | ATA_EPC_SET_TIMER | ATA_EPC_ENABLE_BIT;
		break;
	case EPC_GOTO:
		what = "SET FEATURES EPC (go to power condition)";
		lba = ATA_EPC_GOTO;
		break;
	case EPC_RESTORE:
		what = "SET FEATURES EPC (restore power condition settings)";
		lba |= ATA_EPC_RESTORE | (ch->from_saved ? 0 : ATA_EPC_RESTORE_DEFAULT);
		condition = ATA_PC_ALL;
		break;
	default:
		return EINVAL;
	}
	err = ata_set_epc(dev, lba, condition, &res);
	/* The drive's settings changed: later queries read IDENTIFY afresh. */
	ata_identify_forget(dev);
	return ata_cause(c, what, &res, err);
}
