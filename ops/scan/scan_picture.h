/*
 * --scan-picture FILE: the surface scan drawn as an SVG picture, a grid of
 * cells in LBA order, each the colour of the worst class of the blocks it
 * covers.  The cells are a byte each and at most SCAN_CELLS_MAX of them,
 * so a 20 TB disk gives the same small picture as a 1 GB one.
 */
#ifndef HDPARM_SCAN_PICTURE_H
#define HDPARM_SCAN_PICTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "scan_classes.h"

/* At most this many cells: 64 columns of 64 rows. */
#define SCAN_CELLS_MAX 4096u
#define SCAN_CELL_COLUMNS 64u

/* The key of a cell none of whose blocks was read (an interrupted scan). */
#define SCAN_NOT_READ_KEY "not_read"

struct scan_cells {
	uint64_t first_lba, last_lba;	/* the range, inclusive */
	uint64_t cell_sectors;		/* sectors a cell covers: whole blocks, ceil(blocks / max cells) of them */
	size_t n;
	unsigned char *worst;		/* per cell: 0 not read, else its worst class + 1 */
};

/* c set up for first..last with at most max_cells cells: 0, or ENOMEM. */
int scan_cells_init(struct scan_cells *c, uint64_t first, uint64_t last, size_t max_cells);
void scan_cells_free(struct scan_cells *c);

/*
 * sectors at lba counted in class cls: every cell they touch keeps the
 * worse of its class and cls.  Called for every block the scan counts,
 * and for the blocks a map restores: independent of how they were read.
 */
void scan_cells_note(struct scan_cells *c, uint64_t lba, uint32_t sectors, enum scan_class cls);

/* The cell's histogram key: scan_class_keys[], or SCAN_NOT_READ_KEY. */
const char *scan_cell_key(const struct scan_cells *c, size_t i);

/* What the picture says besides the cells. */
struct scan_picture_facts {
	const char *path, *model, *serial;	/* model and serial may be empty: the kernel does not show them */
	unsigned int sector_bytes;
	const uint64_t *histogram;		/* SCAN_CLASSES counts of blocks */
	uint64_t blocks, blocks_read;
	bool completed;
	time_t when;
};

/* The SVG document (malloc'd, *len bytes), or NULL where memory ran out. Pure: no I/O. */
char *scan_picture_svg(const struct scan_cells *c, const struct scan_picture_facts *f, size_t *len);

/*
 * Before anything is read: the name may take a picture (nothing there or
 * a regular file, in a folder that can be written).  0, or one line on
 * stderr and an errno.
 */
int scan_picture_path_check(const char *file);

/* The serial of a VPD page 80h of len bytes, its blanks dropped, in serial (size bytes): its length; "" for another page. Pure. */
size_t scan_picture_vpd_serial(const unsigned char *page, size_t len, char *serial, size_t size);

/* The model and serial the kernel shows for the disk behind fd, in sysfs ("" where it shows none). */
void scan_picture_identity(int fd, char *model, size_t model_size, char *serial, size_t serial_size);

/* The picture written at file, whole (a temporary file renamed): 0, or one line on stderr and an errno. */
int scan_picture_write(const char *file, const struct scan_cells *c, const struct scan_picture_facts *f);

#endif
