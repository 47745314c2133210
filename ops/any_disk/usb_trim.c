/*
 * TRIM over USB.  A discard of a disk behind a USB bridge passes three
 * places: the kernel (sd sends one only where its provisioning_mode says
 * how, and under usb-storage it never asks the bridge, so it stays "full"),
 * the bridge (it must take UNMAP: READ CAPACITY (16)'s LBPME, VPD B2h's
 * LBPU, VPD B0h's MAXIMUM UNMAP LBA COUNT) and the disk behind it (an ATA
 * drive's DATA SET MANAGEMENT TRIM, IDENTIFY word 169 bit 0; an NVMe
 * drive's Deallocate, Identify Controller ONCS bit 2, through the bridge's
 * tunnel: its kind's discard_support).  -I says
 * each and where a discard stops; --usb-trim on switches the kernel to
 * UNMAP where the bridge and the disk both take it.  Nothing here ever
 * discards.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ata.h"
#include "checks.h"
#include "json.h"
#include "report.h"
#include "scsi_provisioning.h"
#include "sysfs.h"
#include "usb_trim.h"

struct trim_path {
	char dir[160];			/* the disk's sysfs folder (sysfs_scsi_dir()) */
	char mode_attr[96];		/* sd's provisioning_mode, under dir ("": no sd class folder) */
	char queue_attr[96];		/* the queue's discard_max_bytes, under dir */
	char mode[32];			/* provisioning_mode ("": unread) */
	const char *mode_unread;	/* ... why unread */
	bool has_max;			/* discard_max_bytes read */
	unsigned long long max_bytes;
	struct scsi_provisioning bridge;
	int disk;			/* the disk behind takes TRIM: 1, 0, -1 not known */
	const char *disk_command;	/* 0 or 1: what the disk calls a discard ("TRIM", "Deallocate") */
	const char *disk_source;	/* ... and the field that says it */
	char disk_value[32];		/* ... its word as read ("": said by the source alone) */
	const char *disk_unknown;	/* -1: why */
	bool disk_timed_out;		/* ... the question timed out (a refusal's exit status says so) */
	char nothing[560];		/* ... where the bridge answered ATA PASS-THROUGH with nothing (dev->bridge_nothing), or the kind's failure */
};

/* The kernel's modes that send a discard (sd's provisioning_mode; "writesame_zero" zeroes, "full" and "disabled" do nothing). */
static bool discarding_mode(const char *mode)
{
	return strcmp(mode, "unmap") == 0 || strcmp(mode, "writesame_16") == 0 || strcmp(mode, "writesame_10") == 0;
}

/* One of the words the sd driver shows in provisioning_mode (its lbp_mode[]): nothing else is printed or written over. */
static bool kernel_mode(const char *mode)
{
	static const char *const words[] = { "full", "unmap", "writesame_16", "writesame_10", "writesame_zero", "disabled" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(mode, words[i]) == 0)
			return true;
	return false;
}

/* The disk's block folder as a relative path: dir itself for a block node, device/block/NAME for an sg node. */
static void queue_attr_of(const char *dir, bool block, char *attr, size_t size)
{
	char path[200];
	struct dirent *e;
	DIR *d;

	snprintf(attr, size, "queue/discard_max_bytes");
	if (block)
		return;
	snprintf(path, sizeof(path), "%s/device/block", dir);
	if (!(d = opendir(path)))
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			snprintf(attr, size, "device/block/%.40s/queue/discard_max_bytes", e->d_name);
			break;
		}
	closedir(d);
}

static void kernel_read(struct device *dev, struct trim_path *t)
{
	char hctl[48], line[64];

	t->mode_attr[0] = t->mode[0] = '\0';
	t->mode_unread = "no sd class folder";
	t->has_max = false;
	if (!sysfs_scsi_dir(dev->fd, t->dir, sizeof(t->dir)))
		return;
	/* device links to the SCSI device H:C:T:L; sd's class folder bears the same name. */
	if (sysfs_link_name(t->dir, "device", hctl, sizeof(hctl)) == 0) {
		snprintf(t->mode_attr, sizeof(t->mode_attr), "device/scsi_disk/%.40s/provisioning_mode", hctl);
		if (sysfs_read_line(t->dir, t->mode_attr, line, sizeof(line)) == 0) {
			if (kernel_mode(line))
				snprintf(t->mode, sizeof(t->mode), "%.31s", line);
			else
				t->mode_unread = "not one of the kernel's words";
		}
	}
	queue_attr_of(t->dir, block_device_of(dev->fd) != 0, t->queue_attr, sizeof(t->queue_attr));
	if (sysfs_read_line(t->dir, t->queue_attr, line, sizeof(line)) == 0)
		t->has_max = sysfs_parse_u64(line, &t->max_bytes) == 0;
}

/* The disk's own word, where its kind keeps one (an NVMe drive's ONCS through the tunnel). */
static void disk_word_read(struct device *dev, struct trim_path *t)
{
	struct disk_discard d = { 0 };
	int err = dev->disk->discard_support(dev, &d);

	if (err) {
		t->disk_timed_out = err == ETIMEDOUT;
		snprintf(t->nothing, sizeof(t->nothing), "%s failed%s%s", d.cause.what ? d.cause.what : "the question",
			 d.cause.why[0] ? ": " : "", d.cause.why);
		t->disk_unknown = t->nothing;
		return;
	}
	t->disk = d.has;
	t->disk_command = d.command;
	t->disk_source = d.source;
	snprintf(t->disk_value, sizeof(t->disk_value), "%s", d.value);
}

/* The disk behind the bridge: its kind's word, or an ATA drive's word 169 through SAT; a SCSI disk's is not seen from here. */
static void disk_read(struct device *dev, struct trim_path *t)
{
	const uint16_t *id;
	int err;

	t->disk = -1;
	if (t->bridge.timed_out) {
		t->disk_unknown = "not asked, since the bridge stopped answering";
		return;
	}
	if (dev->disk->discard_support) {
		disk_word_read(dev, t);
		return;
	}
	if (!dev->bridge_nothing[0] && !dev->disk->identify_page) {
		t->disk_unknown = "the bridge passes no ATA command to ask it";
		return;
	}
	id = dev->bridge_nothing[0] ? NULL : dev->disk->identify_page(dev, &err);
	if (id) {
		t->disk = ata_id_has_trim(id);
		t->disk_command = "TRIM";
		t->disk_source = "IDENTIFY word 169 bit 0";
		return;
	}
	/*
	 * A bridge that answered ATA PASS-THROUGH with nothing (a page of zeros:
	 * ata_commands.c refuses it as the bridge's): a drive not known, not one without TRIM.
	 */
	if (dev->bridge_nothing[0]) {
		snprintf(t->nothing, sizeof(t->nothing), "the bridge answered %s", dev->bridge_nothing);
		t->disk_unknown = t->nothing;
	} else {
		t->disk_unknown = "IDENTIFY DEVICE failed";
	}
}

static void path_read(struct device *dev, struct trim_path *t)
{
	memset(t, 0, sizeof(*t));
	kernel_read(dev, t);
	scsi_provisioning_read(dev, &t->bridge);
	disk_read(dev, t);
}

/* 1: the kernel sends discards; 0: it does not; -1: its provisioning_mode cannot be read. */
static int kernel_passes(const struct trim_path *t)
{
	if (!t->mode[0])
		return -1;
	return discarding_mode(t->mode) && t->has_max && t->max_bytes > 0;
}

/*
 * The bridge takes the command the kernel sends in mode (UNMAP, but for
 * the two WRITE SAME modes); false with why, the first thing missing.
 */
static bool bridge_takes(const struct scsi_provisioning *b, const char *mode, char *why, size_t size)
{
	bool ws16 = strcmp(mode, "writesame_16") == 0, ws10 = strcmp(mode, "writesame_10") == 0;

	if (!b->capacity16)
		snprintf(why, size, "READ CAPACITY (16) failed: %.100s", b->capacity16_failed);
	else if (b->timed_out)
		snprintf(why, size, "%s timed out, and nothing more was asked", b->hung);
	else if (!b->lbpme)
		snprintf(why, size, "READ CAPACITY (16) says LBPME 0: no logical block provisioning");
	else if (!b->lbp_page)
		snprintf(why, size, "it lists no Logical Block Provisioning page (VPD B2h)");
	else if (ws16 || ws10) {
		if (ws16 ? b->lbp.lbpws : b->lbp.lbpws10)
			return true;
		snprintf(why, size, "VPD B2h says %s 0: no WRITE SAME (%s) with UNMAP", ws16 ? "LBPWS" : "LBPWS10",
			 ws16 ? "16" : "10");
	} else if (!b->lbp.lbpu)
		snprintf(why, size, "VPD B2h says LBPU 0: no UNMAP");
	else if (!b->limits_page)
		snprintf(why, size, "it lists no Block Limits page (VPD B0h)");
	else if (!b->limits.max_unmap_blocks)
		snprintf(why, size, "VPD B0h says MAXIMUM UNMAP LBA COUNT 0: no UNMAP");
	else
		return true;
	return false;
}

static void json_tristate(const char *key, int v)
{
	if (v < 0)
		json_null(key);
	else
		json_bool(key, v);
}

static void show_json(const struct trim_path *t, int kernel, bool bridge, const char *stop)
{
	const struct scsi_provisioning *b = &t->bridge;

	json_object_begin("usb_trim");
	json_tristate("reaches_disk", stop ? 0 : kernel == 1 && t->disk == 1 ? 1 : -1);
	json_string("stops_at", stop);
	json_object_begin("kernel");
	json_string("provisioning_mode", t->mode[0] ? t->mode : NULL);
	if (t->has_max)
		json_uint("discard_max_bytes", t->max_bytes);
	else
		json_null("discard_max_bytes");
	json_tristate("passes", kernel);
	json_object_end();
	json_object_begin("bridge");
	json_tristate("lbpme", b->capacity16 ? b->lbpme : -1);
	json_bool("lbp_page", b->lbp_page);
	json_bool("lbpu", b->lbp.lbpu);
	json_bool("lbpws", b->lbp.lbpws);
	json_bool("lbpws10", b->lbp.lbpws10);
	json_bool("block_limits_page", b->limits_page);
	json_uint("max_unmap_lba_count", b->limits.max_unmap_blocks);
	json_uint("max_unmap_block_descriptor_count", b->limits.max_unmap_descriptors);
	json_bool("passes", bridge);
	json_object_end();
	json_object_begin("disk");
	json_tristate("trim", t->disk);
	json_string("source", t->disk >= 0 ? t->disk_source : NULL);
	json_tristate("passes", t->disk);
	json_object_end();
	json_object_end();
}

void usb_trim_show(struct device *dev)
{
	struct trim_path t;
	char why[160];
	int kernel;
	bool bridge;
	const char *stop;

	if (!dev->usb_driver)
		return;
	path_read(dev, &t);
	kernel = kernel_passes(&t);
	bridge = bridge_takes(&t.bridge, t.mode, why, sizeof(why));
	/* In the order a discard travels: the first place known to stop it. */
	stop = kernel == 0 ? "kernel" : !bridge ? "bridge" : t.disk == 0 ? "disk" : NULL;
	out("\nTRIM over USB (%s, bridge %s):\n", dev->usb_driver, dev->usb_id[0] ? dev->usb_id : "of unread id");
	if (kernel < 0)
		out("\tKernel:\tprovisioning_mode unreadable (%s)\n", t.mode_unread);
	else
		out("\tKernel:\tprovisioning_mode %s, discard_max_bytes %llu: %s\n", t.mode, t.max_bytes,
		    kernel ? "sends discards" : "sends no discard");
	if (bridge)
		out("\tBridge:\tLBPME 1, LBPU %d, MAXIMUM UNMAP LBA COUNT %u: takes %s\n", t.bridge.lbp.lbpu,
		    t.bridge.limits.max_unmap_blocks, strncmp(t.mode, "writesame", 9) ? "UNMAP" : "WRITE SAME with UNMAP");
	else
		out("\tBridge:\tpasses no discard: %s\n", why);
	if (t.disk < 0)
		out("\tDisk:\tnot known: %s\n", t.disk_unknown);
	else
		out("\tDisk:\t%s%s%s (%s)\n", t.disk ? "" : "no ", t.disk_command, t.disk ? " supported" : "", t.disk_source);
	if (stop && strcmp(stop, "kernel") == 0 && strcmp(t.mode, "unmap") != 0 && t.disk != 0 &&
	    bridge_takes(&t.bridge, "unmap", why, sizeof(why)))
		out("\tA discard stops at the kernel: --usb-trim on switches it to UNMAP\n");
	else if (stop)
		out("\tA discard stops at the %s\n", stop);
	else if (kernel == 1 && t.disk == 1)
		out("\tA discard reaches the disk\n");
	else
		out("\tWhether a discard reaches the disk is not known\n");
	show_json(&t, kernel, bridge, stop);
}

/* One line on stderr, after the option and the path; err returned. */
__attribute__((format(printf, 4, 5))) static int refuse(struct device *dev, const char *option, int err,
							 const char *fmt, ...)
{
	char text[480];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	complain(" %s: %s: %s\n", option, dev->path, text);
	return err;
}

/* Why UNMAP cannot be switched on: the bridge's lack, the disk's, or both ("": neither). */
static void unmap_lacks(struct device *dev, const struct trim_path *t, char *text, size_t size)
{
	char why[160], bridge_text[220] = "";

	if (!bridge_takes(&t->bridge, "unmap", why, sizeof(why)))
		snprintf(bridge_text, sizeof(bridge_text), "the bridge%s%s does not take UNMAP (%s)",
			 dev->usb_id[0] ? " " : "", dev->usb_id, why);
	if (t->disk == 0)
		snprintf(text, size, "%s%sthe disk behind the bridge has no %s (%s clear%s%s)", bridge_text,
			 bridge_text[0] ? ", and " : "", t->disk_command, t->disk_source, t->disk_value[0] ? ": " : "",
			 t->disk_value);
	else
		snprintf(text, size, "%s", bridge_text);
}

/* The kernel's queue after a write: discard_max_bytes read again. */
static unsigned long long max_bytes_now(struct trim_path *t)
{
	char line[64];
	unsigned long long v = 0;

	if (sysfs_read_line(t->dir, t->queue_attr, line, sizeof(line)) || sysfs_parse_u64(line, &v))
		return 0;
	return v;
}

/* provisioning_mode written; 0, or the failure said. */
static int write_mode(struct device *dev, const char *option, struct trim_path *t, const char *mode)
{
	char path[300];
	int err = sysfs_write_line(t->dir, t->mode_attr, mode);

	if (err) {
		snprintf(path, sizeof(path), "%s/%s", t->dir, t->mode_attr);
		complain(" %s: %s: writing \"%s\" to %s failed: %s\n", option, dev->path, mode, path, strerror(err));
	}
	return err;
}

static void json_switch(const char *wanted, const char *before, const char *after, bool written,
			unsigned long long max_bytes)
{
	json_object_begin("usb_trim_set");
	json_string("wanted", wanted);
	json_string("provisioning_mode_before", before);
	json_string("provisioning_mode", after);
	json_bool("written", written);
	json_uint("discard_max_bytes", max_bytes);
	json_object_end();
}

static int switch_on(struct device *dev, const struct opt_value *v, struct trim_path *t)
{
	char lacks[400];
	unsigned long long max;
	int err;

	if (strcmp(t->mode, "unmap") == 0) {
		json_switch("on", t->mode, t->mode, false, t->has_max ? t->max_bytes : 0);
		if (!t->has_max || !t->max_bytes)
			return refuse(dev, v->name, EIO, "%s", "provisioning_mode is unmap already, but the queue shows"
				      " discard_max_bytes 0: the kernel sends no discard");
		if (v->noisy)
			out(" usb-trim: provisioning_mode is unmap already (discard_max_bytes %llu): nothing written\n",
			    t->max_bytes);
		return 0;
	}
	scsi_provisioning_read(dev, &t->bridge);
	if (t->bridge.timed_out)
		return refuse(dev, v->name, ETIMEDOUT, "the bridge did not answer %s (command timed out): nothing written",
			      t->bridge.hung);
	disk_read(dev, t);
	unmap_lacks(dev, t, lacks, sizeof(lacks));
	if (lacks[0])
		return refuse(dev, v->name, EOPNOTSUPP, "%s: nothing written", lacks);
	/* A disk that answers ATA commands but not this one: not taken on the bridge's word. */
	if (t->disk < 0 && (dev->disk->identify_page || dev->disk->discard_support || dev->bridge_nothing[0]))
		return refuse(dev, v->name, t->disk_timed_out ? ETIMEDOUT : EIO,
			      "the disk behind the bridge could not be asked whether it has TRIM (%s):"
			      " nothing written", t->disk_unknown);
	if ((err = write_mode(dev, v->name, t, "unmap")))
		return err;
	max = max_bytes_now(t);
	json_switch("on", t->mode, "unmap", true, max);
	if (!max)
		return refuse(dev, v->name, EIO, "%s", "provisioning_mode is now unmap, but the queue still shows"
			      " discard_max_bytes 0: the kernel sends no discard");
	if (v->noisy)
		out(" usb-trim: provisioning_mode %s -> unmap: the kernel sends UNMAP (discard_max_bytes %llu)%s\n",
		    t->mode, max, t->disk < 0 ? "; what the disk behind the bridge does with it, the bridge alone knows" : "");
	return 0;
}

static int switch_off(struct device *dev, const struct opt_value *v, struct trim_path *t)
{
	unsigned long long max;
	int err;

	/* Off undoes on: a mode the kernel chose itself (a WRITE SAME mode) is its own. */
	if (strcmp(t->mode, "unmap") != 0) {
		json_switch("off", t->mode, t->mode, false, t->has_max ? t->max_bytes : 0);
		if (v->noisy)
			out(" usb-trim: provisioning_mode is %s, not unmap: nothing written\n", t->mode);
		return 0;
	}
	if ((err = write_mode(dev, v->name, t, "full")))
		return err;
	max = max_bytes_now(t);
	json_switch("off", "unmap", "full", true, max);
	if (max)
		return refuse(dev, v->name, EIO, "%s", "provisioning_mode is now full, but the queue still shows a"
			      " discard_max_bytes above 0");
	if (v->noisy)
		out(" usb-trim: provisioning_mode unmap -> full: the kernel sends no discard\n");
	return 0;
}

int usb_trim_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct opt_value *v = &s->v[opt];
	struct trim_path t;

	if (!dev->usb_driver)
		return refuse(dev, v->name, EOPNOTSUPP, "%s", "not behind a USB bridge: the kernel asks the disk itself"
			      " how it discards; nothing written");
	memset(&t, 0, sizeof(t));
	t.disk = -1;
	kernel_read(dev, &t);
	if (!t.mode[0])
		return refuse(dev, v->name, EOPNOTSUPP, "the kernel shows no provisioning_mode for it (%s): nothing written",
			      t.mode_unread);
	return v->num ? switch_on(dev, v, &t) : switch_off(dev, v, &t);
}

int usb_trim_now(struct device *dev, bool want_on, uint64_t *on, char *why, size_t size)
{
	struct trim_path t;

	if (!dev->usb_driver) {
		snprintf(why, size, "not behind a USB bridge");
		return EOPNOTSUPP;
	}
	memset(&t, 0, sizeof(t));
	kernel_read(dev, &t);
	if (!t.mode[0]) {
		snprintf(why, size, "the kernel shows no provisioning_mode for it (%s)", t.mode_unread);
		return EOPNOTSUPP;
	}
	*on = strcmp(t.mode, "unmap") == 0;
	if (want_on && !*on) {
		scsi_provisioning_read(dev, &t.bridge);
		if (t.bridge.timed_out) {
			snprintf(why, size, "the bridge did not answer %s", t.bridge.hung);
			return ETIMEDOUT;
		}
		disk_read(dev, &t);
		unmap_lacks(dev, &t, why, size);
		if (*why)
			return EOPNOTSUPP;
	}
	return 0;
}
