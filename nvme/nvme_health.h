/*
 * The SMART / Health Information log (Get Log Page 02h, NVM Express Base
 * 2.0, 5.16.1.3), read: pure functions of the 512 bytes the controller sent.
 */
#ifndef HDPARM_NVME_HEALTH_H
#define HDPARM_NVME_HEALTH_H

#include <stdbool.h>
#include <stdint.h>

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

#endif
