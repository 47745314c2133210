/*
 * The SMART / Health Information log (Get Log Page 02h, NVM Express Base
 * 2.0, 5.16.1.3), read: pure functions of the 512 bytes the controller sent.
 */
#ifndef HDPARM_NVME_HEALTH_H
#define HDPARM_NVME_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "condition_facts.h"

#define NVME_HEALTH_BYTES 512

/* The composite temperature (bytes 2:1, kelvin) in degrees Celsius. */
int nvme_health_celsius(const uint8_t log[NVME_HEALTH_BYTES]);

/* Power On Hours (bytes 143:128, a 128-bit count) into *hours; false where it needs more than 64 bits. */
bool nvme_health_power_on_hours(const uint8_t log[NVME_HEALTH_BYTES], uint64_t *hours);

/* Media and Data Integrity Errors (bytes 175:160, 128 bits); UINT64_MAX stands for a count beyond 64 bits. */
uint64_t nvme_health_media_errors(const uint8_t log[NVME_HEALTH_BYTES]);

/* Percentage Used (byte 5). */
unsigned int nvme_health_percentage_used(const uint8_t log[NVME_HEALTH_BYTES]);

/* Data Units Read or (written) Written (128 bits, units of 512,000 bytes); UINT64_MAX for a count beyond 64 bits. */
uint64_t nvme_health_data_units(const uint8_t log[NVME_HEALTH_BYTES], bool written);

/*
 * --condition: the log's hours, wear and counts into *d (NVMe Base 2.0,
 * Figure 207): Critical Warning (byte 0), Available Spare and its threshold
 * (3, 4), Percentage Used (5), Data Units Written (63:48, units of 1000
 * 512-byte blocks), Power On Hours (143:128), Media and Data Integrity
 * Errors (175:160), Number of Error Information Log Entries (191:176).
 * got: the bytes that came; a log shorter than those fields is unreadable.
 */
void nvme_health_condition(const uint8_t *log, size_t got, struct disk_condition *d);

/*
 * The Device Self-test log (06h, Figure 215: 4 bytes, then 20 entries of
 * 28) into d->tests, newest first, entries not used (result Fh) left out;
 * a log shorter than its header is unreadable.
 */
#define NVME_SELF_TEST_LOG_BYTES 564
void nvme_self_test_condition(const uint8_t *log, size_t got, struct disk_condition *d);

#endif
