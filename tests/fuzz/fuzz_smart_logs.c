/*
 * An ATA drive's condition as it arrived (ata/smart_logs.c): SMART READ
 * DATA, the self-test logs (06h, 07h), the error logs' counts, the Device
 * Statistics pages and FARM's first sectors.  The input is given to each
 * reader as a heap block of exactly its length, so a read past what came
 * is a heap overflow the sanitizer sees; what each says is checked against
 * the bytes it was given.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "smart_logs.h"
#include "unaligned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *b = malloc(size ? size : 1);
	char *model = malloc(size + 1);
	struct smart_selftest t[SMART_SELFTEST_MAX];
	struct devstat_reading r = { 0 };
	uint64_t v;
	uint32_t count;
	size_t half = size / 2;
	const char *source;
	int n;

	if (!b || !model)
		abort();
	memcpy(b, data, size);
	memcpy(model, data, size);
	model[size] = 0;
	(void)smart_hours_format(model, &source);
	for (int f = HOURS_PLAIN; f <= HOURS_MSEC24_HOUR32; f++)
		if (smart_attr_hours(b, size, (enum smart_hours_format)f, &v) == SMART_READ && v > 0xffffff)
			__builtin_trap();
	for (unsigned int id = 1; id < 256; id++)
		if (smart_attr_count(b, size, (uint8_t)id, 1000, &v) == SMART_READ &&
		    (v >> 48 || ((id == 5 || id == 197) && v > 1000)))
			__builtin_trap();
	n = smart_selftest_log(b, size, t, SMART_SELFTEST_MAX);
	if (n > SMART_SELFTEST_MAX || (n >= 0 && size < 512))
		__builtin_trap();
	n = smart_ext_selftest_log(b, size, t, SMART_SELFTEST_MAX);
	if (n > SMART_SELFTEST_MAX || (n >= 0 && size < 512))
		__builtin_trap();
	for (int i = 0; i < n; i++)
		if (t[i].status > 15 || t[i].remaining > 15 || t[i].failing_lba >> 48)
			__builtin_trap();
	if (smart_error_count(b, size, true, &count) == SMART_READ && count != get_le16(b + 500))
		__builtin_trap();
	(void)smart_error_count(b, size, false, &count);
	for (unsigned int id = 0; id < 256; id++)
		(void)smart_attr_threshold(b, size, (uint8_t)id, id % 31);
	devstat_general(b, size, &r);
	devstat_solid_state(b, size, &r);
	if (r.written == SMART_READ && r.sectors_written >> 48)
		__builtin_trap();
	/* FARM: the input cut in two, the header's sector and the drive page's. */
	if (farm_power_on_hours(b, half, b + half, size - half, &v) == SMART_READ && v > 0xffffff)
		__builtin_trap();
	free(model);
	free(b);
	return 0;
}
