/*
 * A SCSI disk's power conditions (SPC-4 5.12): Idle_a, Idle_b, Idle_c,
 * Standby_y and Standby_z, each an enable bit and a timer in the power
 * condition mode page (1Ah), read as current, changeable, default and
 * saved values (MODE SENSE PC 0-3) and set by MODE SELECT (SP where saved).
 * A condition is entered now by START STOP UNIT's FORCE_IDLE_0 or
 * FORCE_STANDBY_0, which leave the timers in charge afterwards (IDLE and
 * STANDBY would stop them until a LU_CONTROL).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "scsi.h"
#include "scsi_epc.h"
#include "unaligned.h"

static const struct {
	uint8_t byte, bit;	/* the enable bit */
	uint8_t timer;		/* the timer's offset */
	uint8_t force, modifier;	/* START STOP UNIT's power condition and modifier */
} conditions[DISK_PCS] = {
	[DISK_PC_IDLE_A] = { 3, POWER_CONDITION_IDLE_A, PC_IDLE_A_TIMER, POWER_CONDITION_FORCE_IDLE_0, 0 },
	[DISK_PC_IDLE_B] = { 3, POWER_CONDITION_IDLE_B, PC_IDLE_B_TIMER, POWER_CONDITION_FORCE_IDLE_0, 1 },
	[DISK_PC_IDLE_C] = { 3, POWER_CONDITION_IDLE_C, PC_IDLE_C_TIMER, POWER_CONDITION_FORCE_IDLE_0, 2 },
	[DISK_PC_STANDBY_Y] = { 2, POWER_CONDITION_STANDBY_Y, PC_STANDBY_Y_TIMER, POWER_CONDITION_FORCE_STANDBY_0, 1 },
	[DISK_PC_STANDBY_Z] = { 3, POWER_CONDITION_STANDBY_Z, PC_STANDBY_Z_TIMER, POWER_CONDITION_FORCE_STANDBY_0, 0 },
};

/* The page's values pc asks for: 0, or an errno with the cause (EOPNOTSUPP: the disk has no such page). */
static int power_page(struct device *dev, enum scsi_page_control pc, uint8_t mode[MODE_SENSE_BUF], uint8_t **page,
		      size_t *len, struct disk_cause *c)
{
	struct scsi_result res;
	int err;

	*len = 0;
	err = scsi_mode_sense(dev, MODE_PAGE_POWER_CONDITION, 0, pc, mode, MODE_SENSE_BUF, page, len, &res);
	if (err == EOPNOTSUPP || scsi_refused(err, &res) || (!err && *len < POWER_CONDITION_LEN)) {
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "not supported by this disk (it has no power condition mode page)");
		return EOPNOTSUPP;
	}
	return scsi_cause(c, "MODE SENSE (power condition page)", &res, err);
}

uint64_t scsi_epc_counts(uint64_t tenths)
{
	return tenths <= UINT32_MAX ? tenths : 0;
}

int scsi_disk_epc_read(struct device *dev, struct disk_epc *e)
{
	uint8_t mode[4][MODE_SENSE_BUF], *page[4] = { NULL };
	static const enum scsi_page_control pcs[4] = { MODE_CURRENT, MODE_CHANGEABLE, MODE_DEFAULT, MODE_SAVED };
	struct disk_cause lesser = { 0 };
	size_t len;
	int err;

	e->source = "power condition mode page (1Ah)";
	e->switchable = false;
	e->enabled = true;
	e->timer_limit = "429496729.5 s";
	if ((err = power_page(dev, MODE_CURRENT, mode[0], &page[0], &len, &e->cause)))
		return err;
	/*
	 * The changeable, default and saved values only for a full read; a
	 * disk that will not say them: none changeable, and zeros.
	 */
	for (unsigned int i = 1; i < 4 && e->depth == EPC_READ_ALL; i++)
		if (power_page(dev, pcs[i], mode[i], &page[i], &len, &lesser))
			page[i] = NULL;
	for (unsigned int i = 0; i < DISK_PCS; i++) {
		struct disk_pc_state *st = &e->pc[i];
		uint8_t byte = conditions[i].byte, bit = conditions[i].bit, t = conditions[i].timer;

		st->current_enabled = page[0][byte] & bit;
		st->current_timer = get_be32(page[0] + t);
		st->changeable = page[1] && (page[1][byte] & bit) && get_be32(page[1] + t);
		st->default_enabled = page[2] && (page[2][byte] & bit);
		st->default_timer = page[2] ? get_be32(page[2] + t) : 0;
		st->saved_enabled = page[3] && (page[3][byte] & bit);
		st->saved_timer = page[3] ? get_be32(page[3] + t) : 0;
		st->saveable = page[0][0] & 0x80;	/* PS */
		/* The page has a place for every condition; one the disk lacks is all zeros and fixed. */
		st->supported = st->changeable || st->current_enabled || st->default_enabled || st->current_timer ||
				st->default_timer;
	}
	e->conditions_read = true;
	return 0;
}

int scsi_disk_epc_change(struct device *dev, const struct disk_epc_change *ch, struct disk_cause *c)
{
	uint8_t mode[MODE_SENSE_BUF], *page;
	struct scsi_result res;
	size_t len;
	int err;

	switch (ch->what) {
	case EPC_GOTO:
		err = scsi_start_stop(dev, conditions[ch->pc].force, conditions[ch->pc].modifier, false, &res);
		return scsi_cause(c, "START STOP UNIT", &res, err);
	case EPC_SET:
		if ((err = power_page(dev, MODE_CURRENT, mode, &page, &len, c)))
			return err;
		if (ch->on)
			page[conditions[ch->pc].byte] |= conditions[ch->pc].bit;
		else
			page[conditions[ch->pc].byte] &= (uint8_t)~conditions[ch->pc].bit;
		if (ch->on)
			put_be32(page + conditions[ch->pc].timer, (uint32_t)ch->tenths);
		break;
	case EPC_RESTORE:
		if ((err = power_page(dev, ch->from_saved ? MODE_SAVED : MODE_DEFAULT, mode, &page, &len, c)))
			return err;
		break;
	default:
		return EINVAL;
	}
	err = scsi_mode_select(dev, mode, page, len, ch->save, &res);
	return scsi_cause(c, "MODE SELECT (power condition page)", &res, err);
}
