/*
 * What the kernel keeps of a disk, read without a command to it: its
 * identity as sysfs has it (the SCSI layer's INQUIRY strings and the VPD
 * pages it read when the disk appeared, where libata put IDENTIFY's model,
 * serial and WWN; an NVMe controller's strings) and its size.  --metrics
 * gives these for a sleeping disk, so that its series stay.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/fs.h>

#include "kernel_identity.h"
#include "sysfs.h"
#include "unaligned.h"

/* DIR/ATTR's bytes (a binary attribute: a VPD page); how many, 0 where there is none. */
static size_t attr_bytes(const char *dir, const char *attr, uint8_t *buf, size_t size)
{
	char path[512];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, attr);
	if (!(f = fopen(path, "rbe")))
		return 0;
	n = fread(buf, 1, size, f);
	fclose(f);
	return n;
}

/* s[0..len) without the blanks (and NULs) around it, into out. */
static void trimmed(const char *s, size_t len, char *out, size_t size)
{
	while (len && s[0] == ' ') {
		s++;
		len--;
	}
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\0'))
		len--;
	snprintf(out, size, "%.*s", (int)len, s);
}

static void line(const char *dir, const char *attr, char *out, size_t size)
{
	char buf[128] = "";

	sysfs_read_line(dir, attr, buf, sizeof(buf));
	trimmed(buf, strlen(buf), out, size);
}

/*
 * The Device Identification page (SPC-4 7.8.6): the logical unit's NAA
 * designator as the WWN, and SAT's T10 vendor ID designator ("ATA     ",
 * then IDENTIFY's 40-byte model and 20-byte serial), which libata writes.
 */
static void device_identification(const uint8_t *page, size_t got, struct disk_identity *id)
{
	size_t end = got < 4 ? 0 : 4 + (size_t)get_be16(page + 2), at = 4;

	if (end > got)
		end = got;
	for (; at + 4 <= end && at + 4 + page[at + 3] <= end; at += 4 + (size_t)page[at + 3]) {
		const uint8_t *d = page + at + 4;
		unsigned int type = page[at + 1] & 0x0f, len = page[at + 3];

		if ((page[at + 1] & 0x30) != 0)
			continue;	/* not the logical unit's */
		if (type == 3 && !id->wwn[0] && len <= 16) {
			size_t k = (size_t)snprintf(id->wwn, sizeof(id->wwn), "naa.");

			for (unsigned int i = 0; i < len && k + 3 <= sizeof(id->wwn); i++)
				k += (size_t)snprintf(id->wwn + k, sizeof(id->wwn) - k, "%02x", d[i]);
		} else if (type == 1 && len >= 68 && memcmp(d, "ATA     ", 8) == 0) {
			trimmed((const char *)d + 8, 40, id->model, sizeof(id->model));
			trimmed((const char *)d + 48, 20, id->serial, sizeof(id->serial));
		}
	}
}

bool kernel_identity(struct device *dev, struct disk_identity *id)
{
	char disk[200], dir[240], vendor[16];
	uint8_t page[512];
	size_t got;

	memset(id, 0, sizeof(*id));
	if (!sysfs_disk_dir(dev->fd, disk, sizeof(disk)))
		return false;
	snprintf(dir, sizeof(dir), "%s/device", disk);
	line(dir, "model", id->model, sizeof(id->model));
	if (!id->model[0])
		return false;	/* not a disk the kernel names (a loop device) */
	line(dir, "vendor", vendor, sizeof(vendor));
	if (vendor[0] && strcmp(vendor, "ATA") != 0) {
		char product[sizeof(id->model)];

		snprintf(product, sizeof(product), "%s", id->model);
		snprintf(id->model, sizeof(id->model), "%.15s %.46s", vendor, product);
	}
	line(dir, "serial", id->serial, sizeof(id->serial));	/* NVMe's */
	line(dir, "rev", id->firmware, sizeof(id->firmware));
	if (!id->firmware[0])
		line(dir, "firmware_rev", id->firmware, sizeof(id->firmware));
	got = attr_bytes(dir, "vpd_pg80", page, sizeof(page));
	if (got > 4 && !id->serial[0])
		trimmed((const char *)page + 4, got - 4 < page[3] ? got - 4 : page[3], id->serial, sizeof(id->serial));
	got = attr_bytes(dir, "vpd_pg83", page, sizeof(page));
	device_identification(page, got, id);
	if (!id->wwn[0]) {
		line(disk, "wwid", id->wwn, sizeof(id->wwn));	/* NVMe's namespace */
		if (strncmp(id->wwn, "eui.", 4) != 0)
			id->wwn[0] = '\0';
	}
	if (ioctl(dev->fd, BLKGETSIZE64, &id->capacity_bytes) != 0)
		id->capacity_bytes = 0;
	return true;
}
