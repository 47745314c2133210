/* Power conditions on every disk: ATA's EPC feature set, SCSI's power condition mode page. */
#ifndef HDPARM_EPC_H
#define HDPARM_EPC_H

#include <stdbool.h>

#include "commands.h"
#include "device.h"

/* The condition named word (idle_a, ...) as the disk says now; 0 or an errno with *cause, nothing said. */
int epc_condition_now(struct device *dev, const char *word, struct disk_pc_state *st, struct disk_cause *cause);

/* Whether the power conditions as a whole are enabled (ATA's EPC); EOPNOTSUPP where they have no switch. */
int epc_switch_now(struct device *dev, bool *enabled, struct disk_cause *cause);

/* --epc, --epc-enable, --epc-disable, --epc-timer, --epc-goto, --epc-restore. */
step_fn epc_step;

/* After -B failed: where EPC is enabled, the reason, and what to use instead. */
void epc_explain_apm(struct device *dev, const char *option);

/* After -S: where power conditions are in force, a note on what governs the spin-down now. */
void epc_note_standby(struct device *dev, const char *option);

#endif
