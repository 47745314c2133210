/* --fwdownload on NVMe and SCSI disks: checked, sent in pieces, committed and read back. */
#ifndef HDPARM_FIRMWARE_UPDATE_H
#define HDPARM_FIRMWARE_UPDATE_H

#include "commands.h"

/* The refusal a download would meet on this disk, nothing sent (many disks check all first). */
step_fn firmware_update_check;
step_fn firmware_update_step;

#endif
