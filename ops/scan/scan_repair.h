/*
 * --scan-repair: after --surface-scan, each unreadable LBA read three more
 * times; one that reads is left alone, one that still fails has its whole
 * physical sector written (the logical sectors of it that read keep their
 * bytes, zeros where one cannot be read) and read back.  The decisions are
 * here apart from the I/O (tests/unit gives its own read and write).
 */
#ifndef HDPARM_SCAN_REPAIR_H
#define HDPARM_SCAN_REPAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "scan_classes.h"

struct scan_counts;

/* Reads of an unreadable sector before it is taken for unreadable still. */
#define SCAN_REPAIR_RETRIES 3

enum repair_outcome {
	REPAIR_READS_NOW,	/* read on a retry: never written */
	REPAIR_REWRITTEN,	/* written, and reads now */
	REPAIR_STILL_UNREADABLE,	/* written (or not writable), and fails still */
	REPAIR_NOT_WRITTEN,	/* fails still, and its physical sector may not be written (why) */
};

/* Why a physical sector was not written. */
enum repair_why {
	REPAIR_OUTSIDE = 1,	/* it reaches outside the LBAs the scan read */
	REPAIR_UNNAMED,		/* another of its sectors cannot be read, and the scan did not name it */
};

struct repair_entry {
	uint64_t lba;
	enum repair_outcome outcome;
	int err;		/* the errno of the write or of the last read back, for the text */
	enum repair_why why;	/* REPAIR_NOT_WRITTEN's */
	uint64_t phys_first;	/* ... its physical sector */
	uint32_t phys_count;
	uint64_t unnamed;	/* REPAIR_UNNAMED: that sector */
};

/* A physical sector written: its logical sectors, and the entries (e[from..to)) of the LBAs in it. */
struct repair_write {
	uint64_t first;
	uint32_t count;
	size_t from, to;
	int err;		/* the write failed: its errno */
};

/* I/O of whole logical sectors at lba, buf holding sectors * sector bytes: 0 or an errno. */
typedef int repair_io_fn(void *ctx, uint64_t lba, uint32_t sectors, unsigned char *buf);

struct repair_io {
	repair_io_fn *read, *write;
	void *ctx;
	unsigned int sector_bytes;	/* logical */
	uint32_t per_physical;		/* logical sectors in a physical one: 1 or more */
	uint64_t sectors;		/* the device's logical sectors */
	unsigned char *buf;		/* (per_physical + 1) * sector_bytes, aligned for O_DIRECT */
	/*
	 * The LBAs the scan read (inclusive): a physical sector reaching
	 * outside them is never written, nor one with a sector that cannot be
	 * read and that the scan did not name (outside the range asked, past
	 * --scan-errors-max): only sectors the scan names are zeroed.
	 */
	uint64_t scanned_first, scanned_last;
	bool have_good;			/* good_lba: a sector the scan read, read again before */
	uint64_t good_lba;		/* each write and after a failure: a disk gone gets no write (ENXIO) */
	bool (*stop)(void);		/* true: a signal came, stop before the next physical sector */
};

struct repair_result {
	struct repair_entry *e;		/* one per unreadable LBA of the scan, in its order */
	size_t n;
	size_t done;			/* entries decided (fewer when stopped by a signal) */
	uint64_t writes;		/* physical sectors written */
	struct repair_write *w;		/* ... each (writes of them) */
	int err;			/* what ended it early: EINTR, ENXIO (the disk gone), ENOMEM */
	unsigned int physical_bytes;	/* the physical sector written */
	uint64_t scanned_first, scanned_last;	/* the io's, for the words */
	const struct scan_counts *before, *after;	/* the drive's counts (scan_counts.h), where read */
};

/* The first LBA of the physical sector holding lba, and its logical sectors (cut at the device's end). */
uint64_t repair_physical_first(uint64_t lba, uint32_t per_physical);
uint32_t repair_physical_count(uint64_t first, uint32_t per_physical, uint64_t sectors);

/*
 * Each of bad[0..nbad) (ascending) decided: retried, and where it fails
 * still, its physical sector written once for every listed LBA it holds.
 * 0, or the errno that stopped it (res->err, res->done say where).
 */
int scan_repair_run(const struct repair_io *io, const uint64_t *bad, size_t nbad, struct repair_result *res);
void repair_result_free(struct repair_result *res);

/* The repair's lines (text) and its fields of the surface_scan object (JSON). */
void scan_repair_text(const struct repair_result *res);
void scan_repair_json(const struct repair_result *res);
/* With --scan-map: said on stderr where the map names as unreadable a sector that reads now. */
void scan_repair_map_note(const struct repair_result *res, const char *map);

struct device;
/*
 * The repair of r's unreadable LBAs on the block device dev names (st_rdev
 * rdev), opened again for writing with O_DIRECT and O_EXCL; the scan read
 * r->first_lba to scanned_last, and good_lba (NULL: none known) read.  0
 * when every one reads now; EIO when one is still unreadable; ENXIO when
 * the disk stopped answering; EINTR at a signal (the caller holds them);
 * another errno when it could not run (said on stderr).
 */
int scan_repair_device(const struct device *dev, unsigned long rdev, const struct scan_result *r,
		       uint64_t scanned_last, const uint64_t *good_lba, struct repair_result *res);

#endif
