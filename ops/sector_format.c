/*
 * --set-sector-size BYTES on a disk that formats itself to another block
 * size (an NVMe namespace: Format NVM to the LBA format of BYTES, no
 * metadata, no protection information, no secure erase).  This file
 * lists the formats on offer, picks one, says what is sent, and afterwards
 * reads the disk again and has the kernel agree: old -> new.  ATA drives
 * keep 9.65's SET SECTOR CONFIGURATION (sectors.c).
 */
#include <errno.h>
#include <stdio.h>
#include <sys/ioctl.h>

#include <linux/fs.h>

#include "checks.h"
#include "json.h"
#include "report.h"
#include "sector_format.h"
#include "sysfs.h"

static const char *const performance[4] = { "best", "better", "good", "degraded" };

static void list_formats(const struct disk_block_formats *b, int chosen)
{
	out(" formats on offer (* in use, > chosen):\n");
	for (unsigned int i = 0; i < b->n; i++)
		out("  %c%c %2u: %5u bytes data, %3u bytes metadata, relative performance %u (%s)\n",
		    i == b->current ? '*' : ' ', (int)i == chosen ? '>' : ' ', i, b->f[i].data_bytes, b->f[i].metadata_bytes,
		    b->f[i].performance, performance[b->f[i].performance & 3]);
}

/* The format of bytes without metadata, the best performing; -1: none. */
static int choose(const struct disk_block_formats *b, uint64_t bytes)
{
	int best = -1;

	for (unsigned int i = 0; i < b->n; i++)
		if (b->f[i].data_bytes == bytes && !b->f[i].metadata_bytes &&
		    (best < 0 || b->f[i].performance < b->f[best].performance))
			best = (int)i;
	return best;
}

static void json_format(const char *key, const struct disk_block_formats *b)
{
	json_object_begin(key);
	json_uint("block_bytes", b->f[b->current].data_bytes);
	json_uint("metadata_bytes", b->f[b->current].metadata_bytes);
	json_uint("blocks", b->blocks);
	json_uint("protection_type", b->pi_type);
	json_object_end();
}

/* The kernel's block size agrees with the disk's, rescanning where it does not yet; 0, or EIO said. */
static int kernel_agrees(struct device *dev, uint32_t bytes)
{
	char dir[160];
	int kernel = 0;

	/* The partition table was written in the old block size: the kernel reads it again. */
	(void)ioctl(dev->fd, BLKRRPART, NULL);
	if (ioctl(dev->fd, BLKSSZGET, &kernel) == 0 && (uint32_t)kernel == bytes)
		return 0;
	if (sysfs_disk_dir(dev->fd, dir, sizeof(dir)))
		(void)sysfs_write_line(dir, "device/rescan_controller", "1");
	if (ioctl(dev->fd, BLKSSZGET, &kernel) == 0 && (uint32_t)kernel == bytes)
		return 0;
	complain(" --set-sector-size: the kernel still has %s's block size as %d bytes, the disk %u: reconnect it, or"
		 " reboot, before using it\n", dev->path, kernel, bytes);
	return EIO;
}

void sector_format_preview(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct disk_block_formats b = { 0 };

	/* Nothing where the disk cannot say: its refusal comes with the step. */
	if (dev->disk->block_formats && !dev->disk->block_formats(dev, &b))
		list_formats(&b, choose(&b, s->v[opt].num));
}

int sector_format_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct opt_value *v = &s->v[opt];
	struct disk_block_formats before = { 0 }, after = { 0 };
	struct disk_cause cause = { 0 };
	int chosen, err;

	/* A SCSI disk's FORMAT UNIT is not built yet: it is refused as an ATA command. */
	if (!dev->disk->block_formats)
		return refuse_on_this_disk(dev, v->name);
	if ((err = dev->disk->block_formats(dev, &before)))
		return say_cause_for(&before.cause, err, v->name);
	chosen = choose(&before, v->num);
	list_formats(&before, chosen);
	if (chosen < 0) {
		complain(" %s: this disk has no format of %llu-byte blocks without metadata\n", v->name,
			 (unsigned long long)v->num);
		return EINVAL;
	}
	if ((unsigned int)chosen == before.current && !before.pi_type) {
		out(" already formatted with %u-byte blocks: nothing sent\n", before.f[chosen].data_bytes);
		return 0;
	}
	out(" formatting to %u-byte blocks (format %d), no metadata, no protection information\n",
	    before.f[chosen].data_bytes, chosen);
	fflush(stdout);
	if ((err = dev->disk->block_format_set(dev, (unsigned int)chosen, 0, &cause)))
		return say_cause_for(&cause, err, v->name);
	if ((err = dev->disk->block_formats(dev, &after)))
		return say_cause_for(&after.cause, err, v->name);
	out(" block size: %u -> %u bytes; blocks: %llu -> %llu; protection information: ", before.f[before.current].data_bytes,
	    after.f[after.current].data_bytes, (unsigned long long)before.blocks, (unsigned long long)after.blocks);
	if (before.pi_type)
		out("type %u -> ", before.pi_type);
	else
		out("none -> ");
	if (after.pi_type)
		out("type %u\n", after.pi_type);
	else
		out("none\n");
	json_object_begin("sector_format");
	json_format("before", &before);
	json_format("after", &after);
	json_object_end();
	if (after.current != (unsigned int)chosen) {
		complain(" %s: the disk still reports format %u after the format\n", v->name, after.current);
		return EIO;
	}
	return kernel_agrees(dev, after.f[after.current].data_bytes);
}
