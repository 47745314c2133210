/*
 * --scan-map's file, the pure parts: the header written and read, the
 * classes' characters, the log's lines and their checksum, and an earlier
 * run's results put back into a scan_result.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scan_map_format.h"

/* The header's lines after the first: the text fields, then the numbers. */
enum { F_MODEL, F_SERIAL, F_WWID, F_BACKING, F_BACKING_INODE, F_PARTITION, F_SAMPLE, F_TEXTS };
static const char *const text_keys[F_TEXTS] = { "model", "serial", "wwid", "backing", "backing_inode", "partition",
						 "sample" };

static char *text_field(struct scan_map_id *id, int f)
{
	char *const fields[F_TEXTS] = { id->model, id->serial, id->wwid, id->backing, id->backing_inode, id->partition,
					id->sample };

	return fields[f];
}

static size_t text_size(int f)
{
	static const struct scan_map_id id;
	const size_t sizes[F_TEXTS] = { sizeof(id.model), sizeof(id.serial), sizeof(id.wwid), sizeof(id.backing),
					sizeof(id.backing_inode), sizeof(id.partition), sizeof(id.sample) };

	return sizes[f];
}

/* s on one line: a byte that is not printable ASCII (a newline of a file name) becomes '?'. */
static void one_line(const char *s, char *out, size_t size)
{
	size_t i = 0;

	for (; s[i] && i + 1 < size; i++) {
		out[i] = s[i];
		if (s[i] < 0x20 || s[i] >= 0x7f)
			out[i] = '?';
	}
	out[i] = '\0';
}

size_t scan_map_header(const struct scan_map_id *id, char *buf, size_t size)
{
	struct scan_map_id copy = *id;
	size_t len = 0;
	int n;

	n = snprintf(buf, size, "%s", SCAN_MAP_MAGIC);
	for (int f = 0; f < F_TEXTS && n >= 0 && (len += (size_t)n) < size; f++) {
		char clean[256];

		one_line(text_field(&copy, f), clean, sizeof(clean));
		n = snprintf(buf + len, size - len, "%s %s\n", text_keys[f], clean);
	}
	if (n < 0 || (len += (size_t)n) >= size)
		return 0;
	n = snprintf(buf + len, size - len,
		     "sectors %" PRIu64 "\nsector_bytes %u\nfirst_lba %" PRIu64 "\nlast_lba %" PRIu64
		     "\nblock_sectors %u\nblocks %" PRIu64 "\nclasses\n",
		     id->sectors, id->sector_bytes, id->first_lba, id->last_lba, SCAN_BLOCK_SECTORS,
		     scan_blocks_in(id->first_lba, id->last_lba));
	if (n < 0 || (len += (size_t)n) >= size)
		return 0;
	return len;
}

/* The line at *at of buf (len bytes) into line, without its newline; false where no whole line is there. */
static bool next_line(const char *buf, size_t len, size_t *at, char *line, size_t size)
{
	const char *nl = *at < len ? memchr(buf + *at, '\n', len - *at) : NULL;
	size_t n;

	if (!nl || (n = (size_t)(nl - (buf + *at))) >= size)
		return false;
	memcpy(line, buf + *at, n);
	line[n] = '\0';
	*at += n + 1;
	return true;
}

/* "KEY VALUE": VALUE, where line begins with key and a space. */
static const char *value_of(const char *line, const char *key)
{
	size_t n = strlen(key);

	return strncmp(line, key, n) == 0 && line[n] == ' ' ? line + n + 1 : NULL;
}

static bool number_of(const char *line, const char *key, uint64_t *v)
{
	const char *s = value_of(line, key);
	char *end;

	if (!s || *s < '0' || *s > '9')
		return false;
	*v = strtoull(s, &end, 10);
	return *end == '\0';
}

bool scan_map_parse_header(const char *buf, size_t len, struct scan_map_id *id, size_t *classes_at)
{
	static const char *const num_keys[] = { "sectors", "sector_bytes", "first_lba", "last_lba", "block_sectors", "blocks" };
	uint64_t nums[6];
	char line[SCAN_MAP_LINE_MAX];
	size_t at = strlen(SCAN_MAP_MAGIC);

	memset(id, 0, sizeof(*id));
	if (len < at || memcmp(buf, SCAN_MAP_MAGIC, at) != 0)
		return false;
	for (int f = 0; f < F_TEXTS; f++) {
		const char *v;

		if (!next_line(buf, len, &at, line, sizeof(line)) || !(v = value_of(line, text_keys[f])) ||
		    strlen(v) >= text_size(f))
			return false;
		memcpy(text_field(id, f), v, strlen(v) + 1);
	}
	for (size_t k = 0; k < sizeof(nums) / sizeof(nums[0]); k++)
		if (!next_line(buf, len, &at, line, sizeof(line)) || !number_of(line, num_keys[k], &nums[k]))
			return false;
	if (!next_line(buf, len, &at, line, sizeof(line)) || strcmp(line, "classes") != 0)
		return false;
	id->sectors = nums[0];
	id->sector_bytes = (unsigned int)nums[1];
	id->first_lba = nums[2];
	id->last_lba = nums[3];
	/* The numbers must agree with one another: a map edited by hand is not one of ours. */
	if (nums[1] == 0 || nums[1] > 65536 || nums[2] > nums[3] || nums[4] != SCAN_BLOCK_SECTORS ||
	    nums[5] != scan_blocks_in(nums[2], nums[3]))
		return false;
	*classes_at = at;
	return true;
}

bool scan_map_id_weak(const struct scan_map_id *id)
{
	return !id->model[0] && !id->serial[0] && !id->wwid[0] && !id->backing_inode[0];
}

/* Where the samples (the last text field) of two maps otherwise alike tell their disks apart, or cannot. */
static const char *sample_differs(const struct scan_map_id *map, const struct scan_map_id *now, char *why, size_t size)
{
	if (!strcmp(map->sample, SCAN_MAP_SAMPLE_ALIKE) || !strcmp(now->sample, SCAN_MAP_SAMPLE_ALIKE))
		snprintf(why, size, "nothing tells this disk from another of its size (it has no serial, WWID or backing file,"
				    " and the sectors sampled are alike): remove the map to scan from the start");
	else if (strcmp(map->sample, now->sample) != 0)
		snprintf(why, size, "a map of another disk, or of this one written since (%d sectors sampled read otherwise)",
			 SCAN_MAP_SAMPLE_SECTORS);
	else
		return NULL;
	return why;
}

const char *scan_map_differs(const struct scan_map_id *map, const struct scan_map_id *now, char *why, size_t size)
{
	struct scan_map_id clean = *now;

	/* now's text fields as the header keeps them. */
	for (int f = 0; f < F_TEXTS; f++) {
		char line[256];

		one_line(text_field(&clean, f), line, sizeof(line));
		snprintf(text_field(&clean, f), text_size(f), "%s", line);
	}
	for (int f = 0; f < F_SAMPLE; f++) {
		const char *a = text_field((struct scan_map_id *)map, f), *b = text_field(&clean, f);

		if (strcmp(a, b) != 0 && f == F_BACKING_INODE && !strcmp(map->backing, clean.backing)) {
			snprintf(why, size, "a map of another disk (its backing file \"%s\" is another file now: replaced, or"
					    " seen at another offset)",
				 map->backing);
			return why;
		}
		if (strcmp(a, b) != 0) {
			snprintf(why, size, "a map of another disk (its %s is \"%s\", this disk's \"%s\")", text_keys[f], a, b);
			return why;
		}
	}
	if (map->sectors != now->sectors || map->sector_bytes != now->sector_bytes)
		snprintf(why, size, "a map of a disk of %" PRIu64 " sectors of %u bytes, not %" PRIu64 " of %u", map->sectors,
			 map->sector_bytes, now->sectors, now->sector_bytes);
	else if (map->first_lba != now->first_lba || map->last_lba != now->last_lba)
		snprintf(why, size, "a map of LBA %" PRIu64 " to %" PRIu64 ", not %" PRIu64 " to %" PRIu64, map->first_lba,
			 map->last_lba, now->first_lba, now->last_lba);
	else
		return sample_differs(map, &clean, why, size);
	return why;
}

char scan_map_class_char(enum scan_class c)
{
	return (char)('0' + (int)c);
}

int scan_map_char_class(char ch)
{
	if (ch == SCAN_MAP_NOT_READ)
		return -1;
	return ch >= '0' && ch < '0' + SCAN_CLASSES ? ch - '0' : -2;
}

/* FNV-1a, 32 bits: enough to tell a line written whole from a torn or edited one. */
static uint32_t checksum(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

size_t scan_map_checkpoint_line(const struct scan_map_checkpoint *cp, char *buf, size_t size)
{
	int n = snprintf(buf, size, "checkpoint %" PRIu64 " %" PRIu64 " %.6f %" PRIu64 " %" PRIu64, cp->next_lba,
			 cp->bytes_read, cp->seconds, cp->nbad, cp->nslow);
	int m;

	if (n < 0 || (size_t)n >= size)
		return 0;
	m = snprintf(buf + n, size - (size_t)n, " #%08x\n", checksum(buf, (size_t)n));
	return m < 0 || (size_t)n + (size_t)m >= size ? 0 : (size_t)n + (size_t)m;
}

/* The decimal number at s (NULL: none there) into *v: what follows it, or NULL. */
static const char *u64_at(const char *s, uint64_t *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return NULL;
	*v = strtoull(s, &end, 10);
	return end;
}

static const char *real_at(const char *s, double *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return NULL;
	*v = strtod(s, &end);
	return end;
}

/* Past the blank at s; NULL where there is none. */
static const char *blank(const char *s)
{
	return s && *s == ' ' ? s + 1 : NULL;
}

/* "checkpoint NEXT BYTES SECONDS NBAD NSLOW #SUM", the sum that of the text before " #". */
static bool checkpoint_of(const char *line, struct scan_map_checkpoint *cp)
{
	const char *hash = strstr(line, " #"), *p = value_of(line, "checkpoint");
	char *end;
	unsigned long sum;

	if (!hash || !p)
		return false;
	sum = strtoul(hash + 2, &end, 16);
	if (end != hash + 10 || *end || sum != checksum(line, (size_t)(hash - line)))
		return false;
	p = blank(u64_at(p, &cp->next_lba));
	p = blank(u64_at(p, &cp->bytes_read));
	p = blank(real_at(p, &cp->seconds));
	p = blank(u64_at(p, &cp->nbad));
	return u64_at(p, &cp->nslow) == hash;
}

enum scan_map_line scan_map_parse_line(const char *line, uint64_t *bad, struct scan_region *slow,
				       struct scan_map_checkpoint *cp)
{
	const char *p = u64_at(value_of(line, "bad"), bad);

	if (p && !*p)
		return MAP_LINE_BAD;
	p = blank(u64_at(value_of(line, "slow"), &slow->first_lba));
	p = real_at(blank(u64_at(p, &slow->last_lba)), &slow->worst_ms);
	if (p && !*p && slow->first_lba <= slow->last_lba)
		return MAP_LINE_SLOW;
	return checkpoint_of(line, cp) ? MAP_LINE_CHECKPOINT : MAP_LINE_DAMAGED;
}

void scan_restore_block(struct scan_result *r, uint64_t lba, uint32_t sectors, enum scan_class c)
{
	r->histogram[c]++;
	r->blocks_read++;
	r->next_lba = lba + sectors;
	if (c != SCAN_UNREADABLE)
		r->bytes_read += (uint64_t)sectors * r->sector_bytes;
	if (r->counted)
		r->counted(r->counted_ctx, lba, sectors, c);
}

int scan_restore_bad(struct scan_result *r, uint64_t lba)
{
	uint64_t *bad = scan_grow(r->bad, r->nbad, &r->bad_cap, sizeof(*r->bad));

	if (!bad)
		return ENOMEM;
	r->bad = bad;
	bad[r->nbad++] = lba;
	return 0;
}

int scan_restore_slow(struct scan_result *r, const struct scan_region *slow)
{
	struct scan_region *list;

	if (r->nslow && r->slow[r->nslow - 1].first_lba == slow->first_lba) {
		r->slow[r->nslow - 1] = *slow;
		return 0;
	}
	list = scan_grow(r->slow, r->nslow, &r->slow_cap, sizeof(*r->slow));
	if (!list)
		return ENOMEM;
	r->slow = list;
	list[r->nslow++] = *slow;
	return 0;
}
