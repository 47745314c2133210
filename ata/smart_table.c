/* SMART READ DATA's attribute table, read (pure). */
#include <stddef.h>

#include "smart_table.h"
#include "unaligned.h"

#define SMART_ATTRIBUTES 30
#define SMART_ATTRIBUTE_BYTES 12

const uint8_t *smart_table_find(const uint8_t data[SMART_TABLE_BYTES], uint8_t id)
{
	if (!id)
		return NULL;	/* an empty entry's id */
	for (unsigned int i = 0; i < SMART_ATTRIBUTES; i++) {
		const uint8_t *a = data + 2 + i * SMART_ATTRIBUTE_BYTES;

		if (a[0] == id)
			return a;
	}
	return NULL;
}

uint64_t smart_table_raw(const uint8_t *entry)
{
	return get_le32(entry + 5) | (uint64_t)get_le16(entry + 9) << 32;
}
