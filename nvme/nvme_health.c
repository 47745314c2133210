/* The SMART / Health Information log, read (pure). */
#include "nvme_health.h"
#include "nvme_spec.h"
#include "unaligned.h"

int nvme_health_celsius(const uint8_t log[NVME_HEALTH_BYTES])
{
	return (int)get_le16(log + NVME_SMART_COMPOSITE_TEMPERATURE) - NVME_KELVIN_0C;
}

bool nvme_health_power_on_hours(const uint8_t log[NVME_HEALTH_BYTES], uint64_t *hours)
{
	if (get_le64(log + NVME_SMART_POWER_ON_HOURS + 8))
		return false;
	*hours = get_le64(log + NVME_SMART_POWER_ON_HOURS);
	return true;
}

uint64_t nvme_health_media_errors(const uint8_t log[NVME_HEALTH_BYTES])
{
	/* Beyond 64 bits no disk counts: the highest 64-bit value stands for it. */
	return get_le64(log + NVME_SMART_MEDIA_ERRORS + 8) ? UINT64_MAX : get_le64(log + NVME_SMART_MEDIA_ERRORS);
}

unsigned int nvme_health_percentage_used(const uint8_t log[NVME_HEALTH_BYTES])
{
	return log[NVME_SMART_PERCENTAGE_USED];
}

uint64_t nvme_health_data_units(const uint8_t log[NVME_HEALTH_BYTES], bool written)
{
	const uint8_t *p = log + (written ? NVME_SMART_DATA_UNITS_WRITTEN : NVME_SMART_DATA_UNITS_READ);

	return get_le64(p + 8) ? UINT64_MAX : get_le64(p);
}
