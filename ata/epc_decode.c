/*
 * The Power Conditions log's descriptors and the timer field of SET
 * FEATURES EPC (ACS-3 9.7, 7.45.19): pure functions of bytes and numbers.
 */
#include <errno.h>

#include "epc_decode.h"
#include "unaligned.h"

void epc_decode(const uint8_t desc[ATA_PCL_DESCRIPTOR], struct disk_pc_state *st)
{
	uint8_t flags = desc[1];

	st->supported = flags & ATA_PCL_SUPPORTED;
	st->saveable = flags & ATA_PCL_SAVEABLE;
	st->changeable = flags & ATA_PCL_CHANGEABLE;
	st->default_enabled = flags & ATA_PCL_DEFAULT_ENABLED;
	st->saved_enabled = flags & ATA_PCL_SAVED_ENABLED;
	st->current_enabled = flags & ATA_PCL_CURRENT_ENABLED;
	st->default_timer = get_le32(desc + ATA_PCL_DEFAULT_TIMER);
	st->saved_timer = get_le32(desc + ATA_PCL_SAVED_TIMER);
	st->current_timer = get_le32(desc + ATA_PCL_CURRENT_TIMER);
	st->min_timer = get_le32(desc + ATA_PCL_MIN_TIMER);
	st->max_timer = get_le32(desc + ATA_PCL_MAX_TIMER);
}

int epc_timer_field(uint64_t tenths, uint32_t *lba, uint64_t *effective)
{
	if (tenths <= ATA_EPC_TIMER_MAX) {
		*lba = (uint32_t)tenths << ATA_EPC_TIMER_SHIFT;
		*effective = tenths;
		return 0;
	}
	/* Above 6553.5 s the timer counts whole minutes: rounded up. */
	uint64_t minutes = (tenths + 599) / 600;

	if (minutes > ATA_EPC_TIMER_MAX)
		return ERANGE;
	*lba = (uint32_t)minutes << ATA_EPC_TIMER_SHIFT | ATA_EPC_TIMER_MINUTES;
	*effective = minutes * 600;
	return 0;
}
