/* The Extended Power Conditions feature set of ATA drives. */
#ifndef HDPARM_EPC_H
#define HDPARM_EPC_H

#include <stdbool.h>
#include <stdint.h>

#include "ata.h"
#include "commands.h"

#define EPC_CONDITIONS 5	/* Idle_a, Idle_b, Idle_c, Standby_y, Standby_z */

/* One Power Conditions log descriptor, decoded; timers in 100 ms units. */
struct epc_state {
	bool supported, saveable, changeable;
	bool default_enabled, saved_enabled, current_enabled;
	uint32_t default_timer, saved_timer, current_timer, min_timer, max_timer;
};

/* Decode a 64-byte descriptor of the Power Conditions log (ACS-3 9.7). */
void epc_decode(const uint8_t desc[ATA_PCL_DESCRIPTOR], struct epc_state *st);

/*
 * The LBA bits of Set Power Condition Timer for tenths of a second: 100 ms
 * units up to 6553.5 s, whole minutes (rounded up) above; *effective the
 * time the drive will count, in tenths.  ERANGE past 65535 minutes.
 */
int epc_timer_field(uint64_t tenths, uint32_t *lba, uint64_t *effective);

/* The condition named word (idle_a, ...) as the Power Conditions log says now; 0 or an errno with *cause, nothing said. */
int epc_condition_now(struct device *dev, const char *word, struct epc_state *st, struct disk_cause *cause);

/* --epc, --epc-enable, --epc-disable, --epc-timer, --epc-goto, --epc-restore. */
step_fn epc_step;

/* After -B failed: where EPC is enabled, the reason, and what to use instead. */
void epc_explain_apm(struct device *dev, const char *option);

/* After -S: where EPC is enabled, a note on what governs the spin-down now. */
void epc_note_standby(struct device *dev, const char *option);

#endif
