/*
 * --scan-picture: the cells (a byte each: the worst class seen in them),
 * the SVG built from them (pure, checked in tests/unit), and the file
 * written whole through file_write.c, which never replaces anything but a
 * regular file.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file_write.h"
#include "report.h"
#include "scan_picture.h"
#include "sysfs.h"

/* The classes' colours, then "not read"'s: fast to slow from green to orange, unreadable red, not read pale. */
static const char *const cell_colours[SCAN_CLASSES + 1] = {
	"#2e7d32", "#7cb342", "#c0ca33", "#fdd835", "#fb8c00", "#6a1b9a", "#e00000", "#eeeeee",
};

/* Cell and grid geometry, in pixels. */
enum { CELL_PX = 10, CELL_FILL = 9, MARGIN = 10, HEADER = 86, LEGEND_LINE = 18 };

int scan_cells_init(struct scan_cells *c, uint64_t first, uint64_t last, size_t max_cells)
{
	uint64_t blocks = scan_blocks_in(first, last), per;

	memset(c, 0, sizeof(*c));
	if (!max_cells)
		max_cells = 1;
	per = blocks / max_cells + (blocks % max_cells != 0);
	c->first_lba = first;
	c->last_lba = last;
	c->cell_sectors = per * SCAN_BLOCK_SECTORS;
	c->n = (size_t)(blocks / per + (blocks % per != 0));
	c->worst = calloc(c->n, 1);
	return c->worst ? 0 : ENOMEM;
}

void scan_cells_free(struct scan_cells *c)
{
	free(c->worst);
	c->worst = NULL;
	c->n = 0;
}

void scan_cells_note(struct scan_cells *c, uint64_t lba, uint32_t sectors, enum scan_class cls)
{
	uint64_t end;

	if (!c->worst || !sectors || (uint64_t)cls >= SCAN_CLASSES)
		return;
	end = lba + sectors - 1;
	if (end < lba)
		end = UINT64_MAX;	/* past 2^64: to the end */
	/* Only what lies in the range: a map's run may begin before it or end past it. */
	if (end < c->first_lba || lba > c->last_lba)
		return;
	if (lba < c->first_lba)
		lba = c->first_lba;
	if (end > c->last_lba)
		end = c->last_lba;
	for (uint64_t i = (lba - c->first_lba) / c->cell_sectors; i <= (end - c->first_lba) / c->cell_sectors; i++)
		if (c->worst[i] < (unsigned char)(cls + 1))
			c->worst[i] = (unsigned char)(cls + 1);
}

const char *scan_cell_key(const struct scan_cells *c, size_t i)
{
	return c->worst[i] ? scan_class_keys[c->worst[i] - 1] : SCAN_NOT_READ_KEY;
}

/* s as XML text: the five special characters as entities; control bytes and bytes past ASCII (maybe not UTF-8) as '?'. */
static void put_escaped(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		switch (ch) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(ch < 0x20 || ch >= 0x7f ? '?' : ch, f); break;
		}
	}
}

static void header(FILE *f, const struct scan_cells *c, const struct scan_picture_facts *f_)
{
	char date[40] = "unknown";
	struct tm tm;

	if (gmtime_r(&f_->when, &tm))
		strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fprintf(f, "<text x=\"%d\" y=\"22\" font-size=\"16\" font-weight=\"bold\">hdparm surface scan of ", MARGIN);
	put_escaped(f, f_->path);
	fputs("</text>\n", f);
	fprintf(f, "<text x=\"%d\" y=\"40\">model: ", MARGIN);
	put_escaped(f, *f_->model ? f_->model : "not shown by the kernel");
	fputs(", serial: ", f);
	put_escaped(f, *f_->serial ? f_->serial : "not shown by the kernel");
	fputs("</text>\n", f);
	fprintf(f, "<text x=\"%d\" y=\"56\">LBA %llu to %llu, %u-byte sectors, a cell %llu sectors (%llu block%s)</text>\n",
		MARGIN, (unsigned long long)c->first_lba, (unsigned long long)c->last_lba, f_->sector_bytes,
		(unsigned long long)c->cell_sectors, (unsigned long long)(c->cell_sectors / SCAN_BLOCK_SECTORS),
		c->cell_sectors == SCAN_BLOCK_SECTORS ? "" : "s");
	fprintf(f, "<text x=\"%d\" y=\"72\">%s, %llu of %llu blocks read%s</text>\n", MARGIN, date,
		(unsigned long long)f_->blocks_read, (unsigned long long)f_->blocks,
		f_->completed ? "" : ": the scan stopped early");
}

static void legend(FILE *f, const struct scan_picture_facts *fa, int top)
{
	for (int k = 0; k <= SCAN_CLASSES; k++) {
		int y = top + k * LEGEND_LINE;
		uint64_t n = k < SCAN_CLASSES ? fa->histogram[k] : fa->blocks - fa->blocks_read;

		fprintf(f, "<g class=\"legend\" data-class=\"%s\" data-count=\"%llu\">", k < SCAN_CLASSES ? scan_class_keys[k]
			: SCAN_NOT_READ_KEY, (unsigned long long)n);
		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\" stroke=\"#999\"/>", MARGIN, y,
			cell_colours[k]);
		fprintf(f, "<text x=\"%d\" y=\"%d\">", MARGIN + 18, y + 11);
		put_escaped(f, k < SCAN_CLASSES ? scan_class_labels[k] : "not read");
		fprintf(f, ": %llu block%s</text></g>\n", (unsigned long long)n, n == 1 ? "" : "s");
	}
}

char *scan_picture_svg(const struct scan_cells *c, const struct scan_picture_facts *fa, size_t *len)
{
	size_t rows = (c->n + SCAN_CELL_COLUMNS - 1) / SCAN_CELL_COLUMNS;
	int width = 2 * MARGIN + (int)SCAN_CELL_COLUMNS * CELL_PX, grid_end = HEADER + (int)rows * CELL_PX;
	int height = grid_end + 2 * MARGIN + (SCAN_CLASSES + 1) * LEGEND_LINE;
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	if (!f)
		return NULL;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
		   " font-family=\"sans-serif\" font-size=\"12\">\n<title>hdparm surface scan of ", width, height, width, height);
	put_escaped(f, fa->path);
	fputs("</title>\n<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n", f);
	header(f, c, fa);
	fprintf(f, "<g id=\"cells\" data-cell-sectors=\"%llu\">\n", (unsigned long long)c->cell_sectors);
	for (size_t i = 0; i < c->n; i++) {
		uint64_t lba = c->first_lba + (uint64_t)i * c->cell_sectors;

		fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" data-lba=\"%llu\" data-class=\"%s\"/>\n",
			MARGIN + (int)(i % SCAN_CELL_COLUMNS) * CELL_PX, HEADER + (int)(i / SCAN_CELL_COLUMNS) * CELL_PX,
			CELL_FILL, CELL_FILL, cell_colours[c->worst[i] ? c->worst[i] - 1 : SCAN_CLASSES], (unsigned long long)lba,
			scan_cell_key(c, i));
	}
	fputs("</g>\n", f);
	legend(f, fa, grid_end + MARGIN);
	fputs("</svg>\n", f);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/*
 * A file made beside the name and removed again: the one sure answer to
 * "can the picture be made there" (a missing or read-only folder, a name
 * too long, /proc), where access() answers for root what the file system
 * does not.  The signals that stop hdparm wait meanwhile: no probe is left.
 */
static int probe_folder(const char *file)
{
	char probe[4096 + 8];
	sigset_t stops, saved;
	int fd, err = 0;

	snprintf(probe, sizeof(probe), "%s.XXXXXX", file);
	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	sigprocmask(SIG_BLOCK, &stops, &saved);
	fd = mkstemp(probe);
	if (fd < 0)
		err = errno;
	else {
		close(fd);
		unlink(probe);
	}
	sigprocmask(SIG_SETMASK, &saved, NULL);
	return err;
}

int scan_picture_path_check(const char *file)
{
	size_t n = strlen(file);
	int err;

	if (!n || file[n - 1] == '/' || n >= 4096) {
		complain("--scan-picture %s: not a file name: refused, nothing was read\n", file);
		return EINVAL;
	}
	if (file_check_writable("--scan-picture", file, false))
		return EINVAL;
	if ((err = probe_folder(file))) {
		complain("--scan-picture %s: no file can be made there: %s: refused, nothing was read\n", file, strerror(err));
		return err;
	}
	return 0;
}

/* The first line of the disk's DIR/ATTR, its padding blanks dropped. */
static void device_attr(const char *dir, const char *attr, char *buf, size_t size)
{
	size_t n;
	char *p;

	if (sysfs_read_line(dir, attr, buf, size)) {
		buf[0] = '\0';
		return;
	}
	for (p = buf; *p == ' '; p++)
		;
	memmove(buf, p, strlen(p) + 1);
	for (n = strlen(buf); n && (buf[n - 1] == ' ' || buf[n - 1] == '\n'); n--)
		buf[n - 1] = '\0';
}

size_t scan_picture_vpd_serial(const unsigned char *page, size_t len, char *serial, size_t size)
{
	size_t n = 0, start = 4;

	if (len >= 4 && page[1] == 0x80) {
		n = (size_t)page[2] << 8 | page[3];
		if (n > len - 4)
			n = len - 4;
	}
	/* SPC-4 7.8.19: PRODUCT SERIAL NUMBER, ASCII, maybe padded with blanks either side. */
	while (n && page[start] == ' ')
		start++, n--;
	while (n && (page[start + n - 1] == ' ' || page[start + n - 1] == '\0'))
		n--;
	if (n >= size)
		n = size - 1;
	memcpy(serial, page + start, n);
	serial[n] = '\0';
	return n;
}

/* The serial in the disk's VPD page 80h, which sysfs shows a SCSI (and SATA) disk as device/vpd_pg80. */
static void vpd_serial(const char *dir, char *serial, size_t size)
{
	unsigned char page[256] = { 0 };
	char path[512];
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/device/vpd_pg80", dir);
	if ((f = fopen(path, "rb"))) {
		len = fread(page, 1, sizeof(page), f);
		fclose(f);
	}
	scan_picture_vpd_serial(page, len, serial, size);
}

void scan_picture_identity(int fd, char *model, size_t model_size, char *serial, size_t serial_size)
{
	char dir[256];

	model[0] = serial[0] = '\0';
	if (!sysfs_disk_dir(fd, dir, sizeof(dir)))
		return;
	/* SCSI, SATA and NVMe: device/model; NVMe: device/serial; virtio: serial; SCSI and SATA: VPD page 80h. */
	device_attr(dir, "device/model", model, model_size);
	device_attr(dir, "device/serial", serial, serial_size);
	if (!*serial)
		device_attr(dir, "serial", serial, serial_size);
	if (!*serial)
		vpd_serial(dir, serial, serial_size);
}

int scan_picture_write(const char *file, const struct scan_cells *c, const struct scan_picture_facts *f)
{
	size_t len = 0;
	char *text = scan_picture_svg(c, f, &len);
	int err = text ? file_write_whole(file, text, len, 0) : ENOMEM;

	free(text);
	if (err)
		complain("--scan-picture %s: not written: %s\n", file, file_strerror(err));
	return err;
}
