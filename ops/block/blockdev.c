/*
 * Settings the kernel keeps for any block device, by ioctl: the block
 * layer's (read-ahead, read-only, flushing the buffer cache, re-reading
 * the partition table, the queue depth in sysfs) and the legacy IDE
 * driver's (32-bit I/O, DMA, unmask IRQ, PIO mode, bus state, reset), and
 * a CD drive's speed.  No command reaches the drive from here but the
 * driver's own.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/cdrom.h>
#include <linux/fs.h>
#include <linux/hdreg.h>

#include "blockdev.h"
#include "json.h"
#include "report.h"
#include "sysfs.h"

/* ---- kernel settings (ioctls) ---- */

static void print_io32(long v)
{
	static const char *const names[] = { "default) ", "32-bit)", "16-bit)", "32-bit w/sync)" };

	out(" IO_support    =%3ld (", v);
	if (v >= 0 && v <= 3)
		out("%s\n", names[v]);
	else if (v == 8)
		out("Request-Queue-Bypass)\n");
	else
		out("\?\?\?)\n");
}

static void print_dma(long v)
{
	out(" using_dma     = %2ld", v);
	if (v == 8)
		out(" (DMA-Assisted-PIO)\n");
	else
		print_on_off((unsigned long)v);
}

static const char *busstate_name(unsigned long v)
{
	static const char *const states[4] = { "off", "on", "tristate", "unknown" };

	return states[v > 3 ? 3 : v];
}

static void print_busstate(long v)
{
	out(" busstate      = %2ld (%s)\n", v, busstate_name((unsigned long)v));
}

struct kernel_setting {
	unsigned long get_req, set_req;
	const char *get_name, *set_name;
	const char *label;		/* printed before the value: " readahead     = " */
	const char *json_key;
	bool json_bool;			/* a flag (true/false) rather than a number */
	const char *set_text;		/* %d is the new value (and %s its name for -b) */
	bool set_on_off;		/* the setting line ends in (on)/(off) */
	bool by_pointer;		/* the set ioctl takes an int pointer, the get an int */
	bool silent_in_defaults;	/* as part of the default set, a failing query says nothing */
	void (*print)(long value);	/* NULL: label, "%2ld" and (on)/(off) */
};

/* The ioctl's name travels with its code, for the message when it fails. */
#define IOCTLS(get, set) .get_req = (get), .get_name = #get, .set_req = (set), .set_name = #set

static const struct kernel_setting kernel_settings[OPT_COUNT] = {
	[OPT_READAHEAD] = {
		IOCTLS(BLKRAGET, BLKRASET),
		.label = " readahead     = ",
		.json_key = "readahead",
		.set_text = " setting fs readahead to %d\n",
	},
	[OPT_IO32BIT] = {
		IOCTLS(HDIO_GET_32BIT, HDIO_SET_32BIT),
		.json_key = "io32bit",
		.set_text = " setting 32-bit IO_support flag to %d\n",
		.silent_in_defaults = true,
		.print = print_io32,
	},
	[OPT_READONLY] = {
		IOCTLS(BLKROGET, BLKROSET),
		.label = " readonly      = ",
		.json_key = "readonly",
		.json_bool = true,
		.set_text = " setting readonly to %d",
		.set_on_off = true,
		.by_pointer = true,
	},
	[OPT_UNMASK] = {
		IOCTLS(HDIO_GET_UNMASKINTR, HDIO_SET_UNMASKINTR),
		.label = " unmaskirq     = ",
		.json_key = "unmaskirq",
		.json_bool = true,
		.set_text = " setting unmaskirq to %d",
		.set_on_off = true,
		.silent_in_defaults = true,
	},
	[OPT_DMA] = {
		IOCTLS(HDIO_GET_DMA, HDIO_SET_DMA),
		.json_key = "using_dma",
		.set_text = " setting using_dma to %d",
		.set_on_off = true,
		.silent_in_defaults = true,
		.print = print_dma,
	},
	[OPT_NOWERR] = {
		IOCTLS(HDIO_GET_NOWERR, HDIO_SET_NOWERR),
		.label = " nowerr        = ",
		.json_key = "nowerr",
		.json_bool = true,
		.set_text = " setting nowerr to %d",
		.set_on_off = true,
	},
	[OPT_KEEP] = {
		IOCTLS(HDIO_GET_KEEPSETTINGS, HDIO_SET_KEEPSETTINGS),
		.label = " keepsettings  = ",
		.json_key = "keepsettings",
		.json_bool = true,
		.set_text = " setting keep_settings to %d",
		.set_on_off = true,
		.silent_in_defaults = true,
	},
	[OPT_BUSSTATE] = {
		IOCTLS(HDIO_GET_BUSSTATE, HDIO_SET_BUSSTATE),
		.json_key = "busstate",
		.set_text = " setting bus state to %d (%s)\n",
		.print = print_busstate,
	},
};

int set_kernel_setting(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct kernel_setting *k = &kernel_settings[opt];
	const struct opt_value *v = &s->v[opt];
	int value = (int)v->num;
	int rc;

	if (v->noisy && !(opt == OPT_BUSSTATE && s->quiet)) {
		out(k->set_text, value, busstate_name((unsigned long)value));
		if (k->set_on_off)
			print_on_off((unsigned long)value);
	}
	if (k->by_pointer)
		rc = ioctl(dev->fd, k->set_req, &value);
	else
		rc = ioctl(dev->fd, k->set_req, (unsigned long)value);
	return rc ? complain_failed(k->set_name) : 0;
}

int kernel_setting_read(struct device *dev, enum opt_id opt, long *value)
{
	const struct kernel_setting *k = &kernel_settings[opt];
	int ivalue = 0, rc;

	if (!k->get_req)
		return EOPNOTSUPP;
	*value = 0;
	if (k->by_pointer) {
		rc = ioctl(dev->fd, k->get_req, &ivalue);
		*value = ivalue;
	} else {
		rc = ioctl(dev->fd, k->get_req, value);
	}
	return rc ? errno : 0;
}

int get_kernel_setting(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct kernel_setting *k = &kernel_settings[opt];
	bool explicit = s->v[opt].given && s->v[opt].noisy;
	long value = 0;
	int rc = kernel_setting_read(dev, opt, &value);

	if (rc) {
		errno = rc;
		if (!explicit && k->silent_in_defaults)
			return 0;
		return complain_failed(k->get_name);
	}
	if (k->json_bool)
		json_bool(k->json_key, value != 0);
	else
		json_int(k->json_key, value);
	if (k->print) {
		k->print(value);
	} else {
		out("%s%2ld", k->label, value);
		print_on_off((unsigned long)value);
	}
	return 0;
}

int set_queue_depth(struct device *dev, const struct settings *s, enum opt_id opt)
{
	char path[128];
	dev_t devnum = block_device_of(dev->fd);
	FILE *f;
	int err = 0;

	if (s->v[opt].noisy)
		out(" setting queue_depth to %d\n", (int)s->v[opt].num);
	if (!devnum) {
		complain(" queue_depth: not a block device\n");
		return ENOTBLK;
	}
	sysfs_path(devnum, "device/queue_depth", path, sizeof(path));
	f = fopen(path, "w");
	if (!f || fprintf(f, "%u", (unsigned int)s->v[opt].num) < 0) {
		err = errno;
		complain_errno(path);
	}
	if (f && fclose(f) && !err) {
		err = errno;
		complain_errno(path);
	}
	return err;
}

int get_queue_depth(struct device *dev, const struct settings *s, enum opt_id opt)
{
	unsigned long long depth = 0;
	dev_t devnum = block_device_of(dev->fd);
	char path[128];
	int err;

	(void)s;
	(void)opt;
	if (!devnum) {
		complain(" queue_depth: not a block device\n");
		return ENOTBLK;
	}
	err = sysfs_read_u64(devnum, "device/queue_depth", &depth);
	if (err) {
		sysfs_path(devnum, "device/queue_depth", path, sizeof(path));
		complain("%s: %s\n", path, strerror(err));
		return err;
	}
	json_uint("queue_depth", depth);
	out(" queue_depth   = %2llu\n", depth);
	return 0;
}

int get_geometry(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct hd_geometry g;
	unsigned long long bytes = 0, start = 0;

	(void)s;
	(void)opt;
	if (ioctl(dev->fd, BLKGETSIZE64, &bytes))
		return complain_failed("BLKGETSIZE");
	memset(&g, 0, sizeof(g));
	if (ioctl(dev->fd, HDIO_GETGEO, &g))
		return complain_failed("HDIO_GETGEO");
	if (sysfs_read_u64(block_device_of(dev->fd), "start", &start))
		start = g.start;
	out(" geometry      = %u/%u/%u, sectors = %llu, start = %llu\n", g.cylinders, g.heads, g.sectors,
	       bytes / 512, start);
	json_object_begin("geometry");
	json_uint("cylinders", g.cylinders);
	json_uint("heads", g.heads);
	json_uint("sectors_per_track", g.sectors);
	json_uint("sectors", bytes / 512);
	json_uint("start", start);
	json_object_end();
	return 0;
}

int reread_partitions(struct device *dev, const struct settings *s, enum opt_id opt)
{
	if (s->v[opt].noisy)
		out(" re-reading partition table\n");
	return ioctl(dev->fd, BLKRRPART, NULL) ? complain_failed("BLKRRPART") : 0;
}

int flush_buffers(struct device *dev, const struct settings *s, enum opt_id opt)
{
	(void)s;
	(void)opt;
	sync();
	fsync(dev->fd);
	if (ioctl(dev->fd, BLKFLSBUF, NULL))
		return complain_failed("BLKFLSBUF");
	return 0;
}

int device_reset(struct device *dev, const struct settings *s, enum opt_id opt)
{
	if (s->v[opt].noisy)
		out(" resetting drive\n");
	return ioctl(dev->fd, HDIO_DRIVE_RESET, NULL) ? complain_failed("HDIO_DRIVE_RESET") : 0;
}

int set_pio_mode(struct device *dev, const struct settings *s, enum opt_id opt)
{
	unsigned int mode = (unsigned int)s->v[opt].num;

	if (s->v[opt].noisy) {
		if (mode == 255)
			out(" attempting to auto-tune PIO mode\n");
		else if (mode < 100)
			out(" attempting to set PIO mode to %u\n", mode);
		else if (mode < 200)
			out(" attempting to set MDMA mode to %u\n", mode - 100);
		else
			out(" attempting to set UDMA mode to %u\n", mode - 200);
	}
	return ioctl(dev->fd, HDIO_SET_PIO_MODE, (unsigned long)mode) ? complain_failed("HDIO_SET_PIO_MODE") : 0;
}

int set_cdrom_speed(struct device *dev, const struct settings *s, enum opt_id opt)
{
	unsigned long speed = s->v[opt].num;

	if (s->v[opt].noisy)
		out("setting cd/dvd speed to %lu\n", speed);
	return ioctl(dev->fd, CDROM_SELECT_SPEED, speed) ? complain_failed("CDROM_SELECT_SPEED") : 0;
}
