/*
 * --scan-map FILE: the scan's state kept in a file as it goes, so that the
 * same command again reads only what is left (scan_map.c; the file's
 * format: scan_map_format.h).
 */
#ifndef HDPARM_SCAN_MAP_H
#define HDPARM_SCAN_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "device.h"
#include "scan_classes.h"

/* The class characters held before they are written: one checkpoint's worth at most. */
#define SCAN_MAP_WINDOW 65536

struct scan_map {
	int fd;				/* -1: no map asked */
	const char *path;
	uint64_t first_lba, classes_at, log_end;
	uint64_t mapped_next;		/* every block before it has its class in the file or the window */
	uint64_t checkpoint_lba;	/* the last checkpoint's: every block before it is in the file */
	uint64_t bytes_mapped;		/* the bytes of those blocks that read */
	uint64_t histogram[SCAN_CLASSES];	/* the scan's, at the last block mapped */
	uint64_t window_lba;		/* the first block of the window */
	size_t nwindow;
	size_t bad_logged, slow_logged;	/* the scan's unreadable LBAs and slow regions the log holds */
	struct scan_region slow_last;	/* the last slow region as the log holds it */
	double seconds_before, t0, checked_at;
	bool failed;			/* a write failed: the file holds its last checkpoint */
	int err;			/* ... its errno */
	char window[SCAN_MAP_WINDOW];
};

/*
 * path opened, made or resumed for dev's scan of r's range (r fresh from
 * scan_result_init): a map of it from an earlier run puts that run's
 * blocks, unreadable LBAs and slow regions back into r.  Refused (a line
 * on stderr, an errno) before anything is read where path is not a map of
 * this disk (of sectors logical sectors) and range, not a regular file, in use, or cannot be written.
 * path NULL: no map, and the other calls do nothing.
 */
int scan_map_open(struct scan_map *m, const char *path, struct device *dev, struct scan_result *r, uint64_t sectors);

/* The block at lba, just counted in r, into the map; a checkpoint every few seconds.  0 or the errno of a failed write (said). */
int scan_map_note(struct scan_map *m, struct scan_result *r, uint64_t lba, uint32_t sectors);

/* The seconds earlier runs spent on the map's range. */
double scan_map_seconds_before(const struct scan_map *m);

/* The last checkpoint written, the map closed, and where the scan stopped said with how to go on.  0 or an errno. */
int scan_map_close(struct scan_map *m, struct scan_result *r);

/* The map's fate in the surface_scan object (JSON): "map": file, saved, and where a write failed, why and what it keeps. */
void scan_map_json(const struct scan_map *m);

#endif
