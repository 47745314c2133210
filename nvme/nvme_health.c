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

#define HEALTH_SOURCE "NVMe SMART / Health log (02h)"

/* A 128-bit count little-endian at p, where it fits 64 bits; beyond them no disk counts: unreadable, never a made-up figure. */
static void count128(struct disk_condition *d, struct cond_value *v, const uint8_t *p, const char *why)
{
	if (get_le64(p + 8))
		condition_unreadable(d, HEALTH_SOURCE, why);
	else
		condition_set(v, HEALTH_SOURCE, get_le64(p));
}

/* The last byte --condition reads: Number of Error Information Log Entries ends at 191. */
#define HEALTH_CONDITION_BYTES 192

void nvme_health_condition(const uint8_t *log, size_t got, struct disk_condition *d)
{
	d->family = "nvme";
	if (got < HEALTH_CONDITION_BYTES) {
		condition_unreadable(d, HEALTH_SOURCE, "the log came shorter than its fields");
		return;
	}
	condition_set(&d->critical_warning, HEALTH_SOURCE, log[0]);
	condition_set(&d->available_spare, HEALTH_SOURCE, log[3]);
	condition_set(&d->spare_threshold, HEALTH_SOURCE, log[4]);
	condition_set(&d->percentage_used, HEALTH_SOURCE, log[5]);
	/* Beyond 64 bits of 512,000-byte units is more than any disk writes: no figure, and no verdict from it. */
	if (get_le64(log + 56))
		condition_unreadable(d, HEALTH_SOURCE, "data units written beyond 64 bits: no count a disk reaches");
	else
		condition_set(&d->data_written, HEALTH_SOURCE, get_le64(log + 48));
	d->data_unit = 512000;
	if (get_le64(log + NVME_SMART_POWER_ON_HOURS + 8))
		condition_unreadable(d, HEALTH_SOURCE, "power-on hours beyond 64 bits: no count a disk reaches");
	else
		condition_hours(d, HEALTH_SOURCE, get_le64(log + NVME_SMART_POWER_ON_HOURS));
	count128(d, &d->counts[COND_MEDIA_ERRORS], log + NVME_SMART_MEDIA_ERRORS,
		 "media errors beyond 64 bits: no count a disk reaches");
	count128(d, &d->counts[COND_ERROR_LOG], log + 176, "error log entries beyond 64 bits: no count a disk reaches");
}

#define SELF_TEST_SOURCE "NVMe Device Self-test log (06h)"
#define SELF_TEST_HEADER 4
#define SELF_TEST_ENTRY 28
#define SELF_TEST_ENTRIES 20

/* The Result field (byte 0 bits 3:0) sorted: completed, failed (5h fatal, 6h and 7h failed segments), aborted. */
static enum cond_test_result test_result(unsigned int code)
{
	if (code == 0x0)
		return COND_TEST_PASSED;
	if (code >= 0x5 && code <= 0x7)
		return COND_TEST_FAILED;
	if ((code >= 0x1 && code <= 0x4) || code == 0x8 || code == 0x9)
		return COND_TEST_ABORTED;
	return COND_TEST_OTHER;
}

void nvme_self_test_condition(const uint8_t *log, size_t got, struct disk_condition *d)
{
	unsigned int entries = 0;

	if (got < SELF_TEST_HEADER) {
		condition_unreadable(d, SELF_TEST_SOURCE, "the log came shorter than its header");
		return;
	}
	for (unsigned int i = 0; i < SELF_TEST_ENTRIES; i++) {
		const uint8_t *e = log + SELF_TEST_HEADER + (size_t)i * SELF_TEST_ENTRY;
		struct cond_self_test *t;
		unsigned int kind;

		/* An entry that did not come whole is not read: the log ends where the bytes do. */
		if ((size_t)(e - log) + SELF_TEST_ENTRY > got || (e[0] & 0x0f) == 0x0f)
			break;
		entries++;
		if (d->n_tests >= COND_SELF_TESTS)
			continue;
		t = &d->tests[d->n_tests++];
		kind = e[0] >> 4;
		t->type = (uint8_t)kind;
		t->kind = kind == 0x1 ? "short" : kind == 0x2 ? "extended" : kind == 0xe ? "vendor" : "other";
		t->code = e[0] & 0x0f;
		t->result = test_result(t->code);
		t->hour = get_le64(e + 4);
		/* Byte 2 bit 1: the Failing LBA field is valid, whatever the result (as nvme-cli and smartctl read it). */
		t->has_lba = (e[2] & 0x02) != 0;
		t->segment = e[1];
		t->lba = t->has_lba ? get_le64(e + 16) : 0;
	}
	condition_set(&d->self_test_log, SELF_TEST_SOURCE, entries);
}
