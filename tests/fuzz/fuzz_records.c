/*
 * What a disk says of its own health, as it arrived: SMART READ DATA's
 * attribute table (ata/smart_table.c) and NVMe's SMART / Health log
 * (nvme/nvme_health.c).  Each is 512 bytes from the disk; fewer came in
 * when the input is shorter (the rest zero, as the buffers are), and the
 * 512 are a heap block of their own, so a read past them is a heap
 * overflow the sanitizer sees.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nvme_health.h"
#include "smart_table.h"
#include "unaligned.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *page = calloc(1, SMART_TABLE_BYTES);
	uint64_t hours, errors;

	if (!page)
		return 0;
	memcpy(page, data, size < SMART_TABLE_BYTES ? size : SMART_TABLE_BYTES);
	/* Every attribute found is an entry of the table, with that id, and its raw value 48 bits. */
	for (unsigned int id = 0; id < 256; id++) {
		const uint8_t *a = smart_table_find(page, (uint8_t)id);

		if (!a)
			continue;
		if (id == 0 || a < page + 2 || a + 12 > page + 2 + 30 * 12 || (a - page - 2) % 12 || a[0] != id)
			__builtin_trap();
		if (smart_table_raw(a) >> 48)
			__builtin_trap();
	}
	/* The health log's counts: exact where they fit in 64 bits, and said not to where they do not. */
	(void)nvme_health_celsius(page);
	if (nvme_health_power_on_hours(page, &hours) != !get_le64(page + 136) ||
	    (!get_le64(page + 136) && hours != get_le64(page + 128)))
		__builtin_trap();
	if (nvme_health_percentage_used(page) != page[5] ||
	    nvme_health_data_units(page, false) != (get_le64(page + 40) ? UINT64_MAX : get_le64(page + 32)) ||
	    nvme_health_data_units(page, true) != (get_le64(page + 56) ? UINT64_MAX : get_le64(page + 48)))
		__builtin_trap();
	errors = nvme_health_media_errors(page);
	if (get_le64(page + 168) ? errors != UINT64_MAX : errors != get_le64(page + 160))
		__builtin_trap();
	{
		/* --condition: the health log read only as far as the bytes given (a heap block of just those bytes), the self-test log too. */
		static struct disk_condition d;
		uint8_t *exact = malloc(size ? size : 1);

		if (exact) {
			memcpy(exact, data, size);
			memset(&d, 0, sizeof(d));
			nvme_health_condition(exact, size, &d);
			nvme_self_test_condition(exact, size, &d);
			if (d.n_tests > COND_SELF_TESTS || d.n_hours > COND_HOURS_SOURCES || d.n_unreadable > COND_UNREADABLES)
				__builtin_trap();
			for (unsigned int i = 0; i < d.n_tests; i++)
				if (d.tests[i].result > COND_TEST_OTHER || d.tests[i].code > 15)
					__builtin_trap();
			free(exact);
		}
	}
	free(page);
	return 0;
}
