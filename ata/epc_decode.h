/* The Power Conditions log and the EPC timer field (ACS-3), decoded and encoded. */
#ifndef HDPARM_EPC_DECODE_H
#define HDPARM_EPC_DECODE_H

#include <stdint.h>

#include "ata.h"
#include "device.h"

/* Decode a 64-byte descriptor of the Power Conditions log (ACS-3 9.7). */
void epc_decode(const uint8_t desc[ATA_PCL_DESCRIPTOR], struct disk_pc_state *st);

/*
 * The LBA bits of Set Power Condition Timer for tenths of a second: 100 ms
 * units up to 6553.5 s, whole minutes (rounded up) above; *effective the
 * time the drive will count, in tenths.  ERANGE past 65535 minutes.
 */
int epc_timer_field(uint64_t tenths, uint32_t *lba, uint64_t *effective);

#endif
