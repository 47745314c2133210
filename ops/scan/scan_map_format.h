/*
 * --scan-map's file, its pure parts (tests/unit/scan_map_unit.c checks
 * them): the header that names the disk and the range, one character a
 * block ('.' not read yet, '0' to '6' the time classes, '6' unreadable),
 * and the log after them: "bad LBA" and "slow FIRST LAST WORST" lines,
 * each series closed by a checkpoint line that carries its own checksum,
 * so that a line torn by a crash is never taken for one written whole.
 * Also the blocks, unreadable LBAs and slow regions of an earlier run put
 * back into a scan_result.
 */
#ifndef HDPARM_SCAN_MAP_FORMAT_H
#define HDPARM_SCAN_MAP_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scan_classes.h"

/* The first line: what tells a map of ours from anyone's file. */
#define SCAN_MAP_MAGIC "hdparm scan map 2\n"
/* What every format's first line begins with: a map of another format is told from a file not ours. */
#define SCAN_MAP_MAGIC_ANY "hdparm scan map "
/* The sample of a disk whose sampled sectors are all alike (a zeroed disk): it tells nothing. */
#define SCAN_MAP_SAMPLE_ALIKE "alike"
/* The sectors a sample reads, spread over the range. */
#define SCAN_MAP_SAMPLE_SECTORS 8
/* A block not read yet. */
#define SCAN_MAP_NOT_READ '.'
/* The longest line of the header or the log, newline included. */
#define SCAN_MAP_LINE_MAX 400

/*
 * What a map is of: the disk as the kernel names it, its size and the
 * range.  A loop device (or a partition of one) is named by its backing
 * file's inode and offset too, since a path can be given another image.
 * A disk with none of these names (a dm volume, a virtio disk without a
 * serial) is named by a sample: a hash of some of its sectors.
 */
struct scan_map_id {
	char model[64], serial[96], wwid[48], backing[256];	/* "": none */
	char backing_inode[80];	/* "INODE+OFFSET/GENERATION" of a loop device's file (loop_identity.h); "": none */
	char partition[48];	/* a partition's number and first sector on its disk ("2 at 2048"); "": a whole disk */
	char sample[24];	/* 16 hex digits, SCAN_MAP_SAMPLE_ALIKE, or "": the disk is named otherwise */
	uint64_t sectors;
	unsigned int sector_bytes;
	uint64_t first_lba, last_lba;
};

/* A checkpoint: every block before next_lba is in the map, with what the log lists before it. */
struct scan_map_checkpoint {
	uint64_t next_lba, bytes_read;
	double seconds;
	uint64_t nbad, nslow;	/* the bad and slow lines before it */
};

/* The header (up to "classes\n") into buf: its length, or 0 where it does not fit. */
size_t scan_map_header(const struct scan_map_id *id, char *buf, size_t size);

/* buf (len bytes of the file's start) parsed: true where it is a header of ours, *classes_at its length. */
bool scan_map_parse_header(const char *buf, size_t len, struct scan_map_id *id, size_t *classes_at);

/* True where id names nothing that tells its disk from another of its size (a sample must). */
bool scan_map_id_weak(const struct scan_map_id *id);

/* How map's disk or range differs from now's, in words (into why); NULL where they are the same. */
const char *scan_map_differs(const struct scan_map_id *map, const struct scan_map_id *now, char *why, size_t size);

/* A class's character, and a character's class: -1 for "not read yet", -2 for none of ours. */
char scan_map_class_char(enum scan_class c);
int scan_map_char_class(char ch);

/* The checkpoint line, checksum and newline included, into buf: its length. */
size_t scan_map_checkpoint_line(const struct scan_map_checkpoint *cp, char *buf, size_t size);

/* One log line (without its newline) read: its kind, and what it holds. */
enum scan_map_line { MAP_LINE_BAD, MAP_LINE_SLOW, MAP_LINE_CHECKPOINT, MAP_LINE_DAMAGED };
enum scan_map_line scan_map_parse_line(const char *line, uint64_t *bad, struct scan_region *slow,
				       struct scan_map_checkpoint *cp);

/*
 * A block an earlier run read, put back as it was counted: its class, the
 * blocks read, the bytes read, the next LBA.  Every block a resumed scan
 * does not read again goes through here.
 */
void scan_restore_block(struct scan_result *r, uint64_t lba, uint32_t sectors, enum scan_class c);

/* An unreadable LBA of an earlier run, listed again; ENOMEM. */
int scan_restore_bad(struct scan_result *r, uint64_t lba);

/* A slow region of an earlier run: a region that begins where the last one began replaces it (it grew); ENOMEM. */
int scan_restore_slow(struct scan_result *r, const struct scan_region *slow);

#endif
