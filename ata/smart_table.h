/*
 * SMART READ DATA's attribute table (ATA/ATAPI-7 and the vendors' common
 * layout): 30 entries of 12 bytes from byte 2, each its attribute's id
 * (byte 0, 0: an empty entry), flags, value, worst and raw bytes 5 to 10.
 * Pure functions of the 512 bytes the drive sent.
 */
#ifndef HDPARM_SMART_TABLE_H
#define HDPARM_SMART_TABLE_H

#include <stdint.h>

#define SMART_TABLE_BYTES 512

/* The entry of attribute id (1-255), or NULL where the table has none. */
const uint8_t *smart_table_find(const uint8_t data[SMART_TABLE_BYTES], uint8_t id);

/* An entry's raw value: 48 bits, little-endian, its bytes 5 to 10, as smartctl shows it. */
uint64_t smart_table_raw(const uint8_t *entry);

#endif
