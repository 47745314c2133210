/*
 * --scan-map's file is input read from disk (a map edited by hand, torn by
 * a crash, or anyone's file): its header and each log line through the
 * parsers of ops/scan/scan_map_format.c.  The header is exactly size
 * bytes, so a read past what the file held is a heap overflow the
 * sanitizer sees; a header or a checkpoint taken as ours is written again
 * and read back the same.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scan_map_format.h"

static void same_id(const struct scan_map_id *a, const struct scan_map_id *b)
{
	if (strcmp(a->model, b->model) || strcmp(a->serial, b->serial) || strcmp(a->wwid, b->wwid) ||
	    strcmp(a->backing, b->backing) || strcmp(a->backing_inode, b->backing_inode) ||
	    strcmp(a->partition, b->partition) || strcmp(a->sample, b->sample) || a->sectors != b->sectors ||
	    a->sector_bytes != b->sector_bytes || a->first_lba != b->first_lba || a->last_lba != b->last_lba)
		__builtin_trap();
}

static int printable(const struct scan_map_id *id)
{
	const char *const fields[] = { id->model, id->serial, id->wwid, id->backing, id->backing_inode, id->partition,
				       id->sample };

	for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++)
		for (const char *p = fields[f]; *p; p++)
			if (*p < 0x20 || *p >= 0x7f)
				return 0;
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size ? size : 1), line[SCAN_MAP_LINE_MAX + 1], again[4096];
	struct scan_map_id id, back;
	size_t at = 0, classes_at;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	memset(&id, 0x5a, sizeof(id));	/* what the parser leaves unset shows */
	if (scan_map_parse_header(buf, size, &id, &classes_at)) {
		size_t len;

		if (classes_at > size)
			__builtin_trap();
		if (!memchr(id.model, 0, sizeof(id.model)) || !memchr(id.serial, 0, sizeof(id.serial)) ||
		    !memchr(id.wwid, 0, sizeof(id.wwid)) || !memchr(id.backing, 0, sizeof(id.backing)) ||
		    !memchr(id.partition, 0, sizeof(id.partition)))
			__builtin_trap();
		/* Written again, read back the same (hdparm writes a field's other bytes as '?', on purpose). */
		len = scan_map_header(&id, again, sizeof(again));
		memset(&back, 0, sizeof(back));
		if (len && printable(&id) && (!scan_map_parse_header(again, len, &back, &classes_at) || (same_id(&id, &back), 0)))
			__builtin_trap();
		at = classes_at;
	}
	for (size_t i = 0; i < size && i < 256; i++)
		scan_map_char_class(buf[i]);
	/* The log: each line, whatever came before it. */
	while (at < size) {
		const char *nl = memchr(buf + at, '\n', size - at);
		size_t n = nl ? (size_t)(nl - (buf + at)) : size - at;
		uint64_t bad;
		struct scan_region slow;
		struct scan_map_checkpoint cp, cp2;

		if (n > SCAN_MAP_LINE_MAX)
			n = SCAN_MAP_LINE_MAX;
		memcpy(line, buf + at, n);
		line[n] = '\0';
		at += n + 1;
		switch (scan_map_parse_line(line, &bad, &slow, &cp)) {
		case MAP_LINE_SLOW:
			if (slow.first_lba > slow.last_lba)
				__builtin_trap();
			break;
		case MAP_LINE_CHECKPOINT: {
			size_t len = scan_map_checkpoint_line(&cp, again, sizeof(again));

			if (!len || again[len - 1] != '\n')
				__builtin_trap();
			again[len - 1] = '\0';
			if (scan_map_parse_line(again, &bad, &slow, &cp2) != MAP_LINE_CHECKPOINT ||
			    cp2.next_lba != cp.next_lba || cp2.bytes_read != cp.bytes_read || cp2.nbad != cp.nbad ||
			    cp2.nslow != cp.nslow)
				__builtin_trap();
			break;
		}
		default:
			break;
		}
	}
	free(buf);
	return 0;
}
