/*
 * The commands of every disk, done on a SCSI disk that refuses ATA
 * pass-through (SAS drives behind an HBA, USB enclosures without SAT):
 * identity from INQUIRY and its VPD pages, capacity from READ CAPACITY,
 * the caches through the caching mode page, power through START STOP UNIT
 * and REQUEST SENSE, the standby timer through the power condition mode
 * page, sectors through READ (16) and UNMAP.  What -I and --json print is
 * gathered once into struct scsi_facts, then printed by each back end.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/fs.h>

#include <scsi/sg.h>

#include "scsi_self_test.h"
#include "array.h"
#include "json.h"
#include "report.h"
#include "scsi.h"
#include "scsi_background.h"
#include "scsi_format.h"
#include "scsi_disk.h"
#include "scsi_verify.h"
#include "scsi_firmware.h"
#include "scsi_epc.h"
#include "scsi_power.h"
#include "scsi_condition.h"
#include "scsi_error_counts.h"
#include "scsi_power_on.h"
#include "scsi_temperature.h"
#include "scsi_erase.h"
#include "sysfs.h"
#include "unaligned.h"

/* ---- which disks these are ---- */

bool scsi_may_lack_ata(struct device *dev)
{
	char dir[160], vendor[32], type[8], vpd89[8];
	int version, err;

	/* SCSI commands reach it at all: sd and sg answer this, loop and virtio-blk do not. */
	if (ioctl(dev->fd, SG_GET_VERSION_NUM, &version) == -1)
		return false;
	if (!sysfs_disk_dir(dev->fd, dir, sizeof(dir)))
		return true;
	sysfs_read_line(dir, "device/vendor", vendor, sizeof(vendor));
	sysfs_read_line(dir, "device/type", type, sizeof(type));
	/* libata names its disks' vendor "ATA"; a SAT layer has the ATA Information VPD page (it opens, if empty). */
	err = sysfs_read_line(dir, "device/vpd_pg89", vpd89, sizeof(vpd89));
	if (strncmp(vendor, "ATA", 3) == 0 || err == 0 || err == EIO)
		return false;
	/* A disk (0) or a simplified direct-access device (0x0e); not a CD drive behind ATAPI. */
	return !type[0] || strcmp(type, "0") == 0 || strcmp(type, "14") == 0;
}

/* ---- the facts -I and --json print ---- */

struct scsi_facts {
	struct scsi_inquiry inq;
	char model[32];		/* vendor and product, as smartctl's scsi_model_name */
	char serial[96];
	bool has_capacity;
	struct scsi_capacity cap;
	unsigned int rotation;	/* VPD B1h: 0 not reported, 1 solid state, else rpm */
	unsigned int form_factor;
	bool has_caching;
	bool wce, rcd, dra;
	bool unmap;		/* VPD B2h LBPU and B0h's UNMAP limits: UNMAP is supported */
	struct scsi_identification id;
	bool has_control;	/* the Control mode page, asked where protection information is in use */
	bool ato, dpicz;
};

static const char *const spc_versions[8] = {
	NULL, "SCSI-1", "SCSI-2", "SPC", "SPC-2", "SPC-3", "SPC-4", "SPC-5",
};

static const char *const protocols[16] = {
	[0x0] = "Fibre Channel", [0x1] = "parallel SCSI", [0x2] = "SSA", [0x3] = "IEEE 1394", [0x4] = "SRP",
	[0x5] = "iSCSI", [0x6] = "SAS", [0x7] = "ADT", [0x8] = "ATA", [0x9] = "UAS", [0xa] = "SOP",
};

/* As -I prints it for ATA drives, and as smartctl's JSON names it. */
static const struct {
	const char *text, *json;
} form_factors[6] = {
	{ NULL, NULL }, { "5.25 inch", "5.25 inches" }, { "3.5 inch", "3.5 inches" },
	{ "2.5 inch", "2.5 inches" }, { "1.8 inch", "1.8 inches" }, { "less than 1.8 inch", "< 1.8 inches" },
};

static void hex_string(const uint8_t *p, unsigned int n, char *dst, size_t size)
{
	size_t k = 0;

	dst[0] = '\0';
	for (unsigned int i = 0; i < n && k + 3 <= size; i++)
		k += (size_t)snprintf(dst + k, size - k, "%02x", p[i]);
}

/* The caching mode page into mode: *page at it, long enough for WCE, RCD and DRA; 0 or an errno. */
static int caching_page(struct device *dev, enum scsi_page_control pc, uint8_t mode[MODE_SENSE_BUF], uint8_t **page, size_t *len,
			struct scsi_result *res)
{
	int err = scsi_mode_sense(dev, MODE_PAGE_CACHING, 0, pc, mode, MODE_SENSE_BUF, page, len, res);

	return !err && *len < 13 ? EOPNOTSUPP : err;
}

/* The caching page bit behind -W and -A: WCE set turns the write cache on, DRA set turns read-ahead off. */
static const struct caching_bit {
	unsigned int byte;
	uint8_t mask;
	bool set_is_on;
	const char *name;
} caching_bits[] = {
	[DISK_WRITE_CACHE] = { 2, CACHING_WCE, true, "WCE" },
	[DISK_LOOKAHEAD] = { 12, CACHING_DRA, false, "DRA" },
};

static bool caching_bit_on(const uint8_t *page, enum disk_cache which)
{
	const struct caching_bit *b = &caching_bits[which];

	return ((page[b->byte] & b->mask) != 0) == b->set_is_on;
}

static void set_caching_bit(uint8_t *page, enum disk_cache which, bool on)
{
	const struct caching_bit *b = &caching_bits[which];

	page[b->byte] = (uint8_t)(on == b->set_is_on ? page[b->byte] | b->mask : page[b->byte] & ~b->mask);
}

/*
 * READ CAPACITY, held against the size the kernel has for the block
 * device: a bridge that counts its blocks wrong would have the range
 * checks pass an LBA beyond the end, or refuse one inside it.
 */
static int capacity_of(struct device *dev, struct scsi_capacity *cap, struct scsi_result *res)
{
	uint64_t bytes;
	int err = scsi_read_capacity(dev, cap, res);

	if (!err && !cap->block_bytes) {
		snprintf(res->cause, sizeof(res->cause), "the disk reports 0-byte blocks");
		err = EIO;
	}
	if (!err && block_device_of(dev->fd) && ioctl(dev->fd, BLKGETSIZE64, &bytes) == 0 &&
	    bytes / cap->block_bytes != cap->blocks) {
		snprintf(res->cause, sizeof(res->cause),
			 "the disk reports %llu blocks of %u bytes, but the kernel sees %llu bytes",
			 (unsigned long long)cap->blocks, cap->block_bytes, (unsigned long long)bytes);
		err = EIO;
	}
	return err;
}

/* UNMAP works: LBPU in B2h, and B0h gives it limits (0 there: not implemented).  *why says what is missing. */
static bool unmap_supported(struct device *dev, const uint8_t *list, size_t list_len, struct scsi_block_limits *bl,
			    const char **why)
{
	uint8_t page[256];
	size_t len = scsi_listed_vpd(dev, list, list_len, VPD_LOGICAL_BLOCK_PROVISIONING, page, sizeof(page));

	memset(bl, 0, sizeof(*bl));
	*why = "its Logical Block Provisioning page does not list UNMAP";
	if (!scsi_decode_provisioning_unmap(page, len))
		return false;
	len = scsi_listed_vpd(dev, list, list_len, VPD_BLOCK_LIMITS, page, sizeof(page));
	scsi_decode_block_limits(page, len, bl);
	*why = "its Block Limits page gives UNMAP a limit of 0: not implemented";
	return bl->max_unmap_blocks && bl->max_unmap_descriptors;
}

static void gather_facts(struct device *dev, struct scsi_facts *f)
{
	uint8_t list[256], page[256], mode[MODE_SENSE_BUF];
	struct scsi_block_limits bl;
	struct scsi_result res;
	const char *why;
	uint8_t *caching, *control;
	size_t caching_len, control_len, list_len, len;

	memset(f, 0, sizeof(*f));
	f->id.protocol = -1;
	if (scsi_inquiry(dev, &f->inq, &res) == 0)
		snprintf(f->model, sizeof(f->model), "%s%s%s", f->inq.vendor, f->inq.vendor[0] ? " " : "", f->inq.product);
	list_len = scsi_vpd_list(dev, list);
	if ((len = scsi_listed_vpd(dev, list, list_len, VPD_UNIT_SERIAL_NUMBER, page, sizeof(page))))
		scsi_decode_serial(page, len, f->serial, sizeof(f->serial));
	if ((len = scsi_listed_vpd(dev, list, list_len, VPD_DEVICE_IDENTIFICATION, page, sizeof(page))))
		scsi_decode_identification(page, len, &f->id);
	if ((len = scsi_listed_vpd(dev, list, list_len, VPD_BLOCK_DEVICE_CHARACTERISTICS, page, sizeof(page))))
		scsi_decode_characteristics(page, len, &f->rotation, &f->form_factor);
	f->unmap = unmap_supported(dev, list, list_len, &bl, &why);
	f->has_capacity = capacity_of(dev, &f->cap, &res) == 0;
	if (f->has_capacity && f->cap.prot_type && scsi_mode_sense(dev, MODE_PAGE_CONTROL, 0, MODE_CURRENT, mode,
								     MODE_SENSE_BUF, &control, &control_len, &res) == 0 &&
	    control_len >= CONTROL_PAGE_MIN_LEN) {
		f->has_control = true;
		f->ato = control[CONTROL_ATO_BYTE] & CONTROL_ATO;
		f->dpicz = control[CONTROL_DPICZ_BYTE] & CONTROL_DPICZ;
	}
	if (caching_page(dev, MODE_CURRENT, mode, &caching, &caching_len, &res) == 0) {
		f->has_caching = true;
		f->wce = caching[2] & CACHING_WCE;
		f->rcd = caching[2] & CACHING_RCD;
		f->dra = caching[12] & CACHING_DRA;
	}
}

/* ---- -I as text ---- */

static void print_sizes(const struct scsi_capacity *cap)
{
	uint64_t bytes = cap->blocks * cap->block_bytes;

	out("\t%-31s %11u bytes\n", "Logical  Sector size:", cap->block_bytes);
	out("\t%-31s %11u bytes\n", "Physical Sector size:", cap->block_bytes << cap->physical_exponent);
	out("\tLBA    user addressable sectors:%12llu\n", (unsigned long long)cap->blocks);
	out_device_size(bytes);
	if (cap->prot_known && !cap->prot_type)
		out("\tProtection information: none\n");
	else if (cap->prot_known && !cap->pi_exponent)
		out("\tProtection information: type %u, %u bytes per logical block\n", cap->prot_type, SCSI_PI_BYTES);
	else if (cap->prot_known)
		out("\tProtection information: type %u, %u bytes per logical block (%u intervals of %u)\n", cap->prot_type,
		    SCSI_PI_BYTES << cap->pi_exponent, 1u << cap->pi_exponent, SCSI_PI_BYTES);
}

/* How the disk checks protection information (Control mode page): who owns the application tag, and checks skipped. */
static void print_pi_control(const struct scsi_facts *f)
{
	out("\tApplication tag: %s (ATO %u)\n", f->ato ? "the host's, never changed by the disk" : "may be changed by the disk",
	    f->ato);
	out("\tProtection information checks: %s (DPICZ %u)\n",
	    f->dpicz ? "skipped for blocks whose protection field is zero" : "on every read", f->dpicz);
}

static void print_facts(const struct scsi_facts *f)
{
	const char *version = f->inq.version < 8 ? spc_versions[f->inq.version] : NULL;

	out("\nSCSI disk without ATA pass-through, with %sremovable media\n", f->inq.removable ? "" : "non-");
	out("\t%-20s%s\n", "Model Number:", f->model);
	if (f->serial[0])
		out("\t%-20s%s\n", "Serial Number:", f->serial);
	out("\t%-20s%s\n", "Firmware Revision:", f->inq.revision);
	if (f->id.protocol >= 0 && protocols[f->id.protocol])
		out("\t%-20s%s\n", "Transport:", protocols[f->id.protocol]);
	out("Standards:\n");
	if (version)
		out("\tUsed: %s\n", version);
	else
		out("\tUsed: no standard claimed (INQUIRY version 0x%02x)\n", f->inq.version);
	out("Configuration:\n");
	if (f->has_capacity)
		print_sizes(&f->cap);
	if (f->has_control)
		print_pi_control(f);
	if (f->form_factor >= 1 && f->form_factor <= 5)
		out("\tForm Factor: %s\n", form_factors[f->form_factor].text);
	if (f->rotation == 1)
		out("\tNominal Media Rotation Rate: Solid State Device\n");
	else if (f->rotation > 0x400 && f->rotation < 0xffff)
		out("\tNominal Media Rotation Rate: %u\n", f->rotation);
	out("Features (caching mode page, logical block provisioning):\n");
	if (f->has_caching) {
		out("\tWrite cache:           %s\n", f->wce ? "enabled" : "disabled");
		out("\tRead look-ahead:       %s\n", f->dra ? "disabled" : "enabled");
		out("\tRead cache:            %s\n", f->rcd ? "disabled" : "enabled");
	} else {
		out("\tCaching mode page:     not reported\n");
	}
	if (f->has_capacity && f->cap.lbpme)
		out("\tThin provisioning:     yes (UNMAP%s)%s\n", f->unmap ? "" : " not supported",
		    f->cap.lbprz ? ", unmapped blocks read as zeros" : "");
	else
		out("\tThin provisioning:     no\n");
	if (f->id.has_naa) {
		const uint8_t *naa = f->id.naa;
		char wwn[40];

		hex_string(naa, f->id.naa_len, wwn, sizeof(wwn));
		out("Logical Unit WWN Device Identifier: %s\n", wwn);
		out("\tNAA\t\t: %x\n", naa[0] >> 4);
		/* NAA 5 and 6: the IEEE company ID follows the NAA nibble. */
		if ((naa[0] >> 4) == 5 || (naa[0] >> 4) == 6)
			out("\tIEEE OUI\t: %06x\n",
			    (unsigned int)((naa[0] & 0x0f) << 20 | naa[1] << 12 | naa[2] << 4 | naa[3] >> 4));
	}
	if (f->id.count) {
		out("Device identification (VPD page 0x83):\n");
		for (unsigned int i = 0; i < f->id.count; i++)
			out("\t%s\n", f->id.designators[i]);
	}
}

/* ---- -I as JSON: smartctl's keys for SCSI disks where it has one ---- */

static void json_facts(const struct scsi_facts *f)
{
	const char *version = f->inq.version < 8 ? spc_versions[f->inq.version] : NULL;

	json_object_begin("identify");
	json_string("device_type", "scsi");
	json_string("scsi_vendor", f->inq.vendor);
	json_string("scsi_product", f->inq.product);
	json_string("scsi_model_name", f->model);
	json_string("scsi_revision", f->inq.revision);
	if (version)
		json_string("scsi_version", version);
	if (f->serial[0])
		json_string("serial_number", f->serial);
	if (f->has_capacity) {
		json_object_begin("user_capacity");
		json_uint("blocks", f->cap.blocks);
		json_uint("bytes", f->cap.blocks * f->cap.block_bytes);
		json_object_end();
		json_uint("logical_block_size", f->cap.block_bytes);
		json_uint("physical_block_size", (uint64_t)f->cap.block_bytes << f->cap.physical_exponent);
		json_bool("thin_provisioned", f->cap.lbpme);
		/* smartctl's keys, there only where the disk is formatted with protection information. */
		if (f->cap.prot_type) {
			json_uint("scsi_protection_type", f->cap.prot_type);
			json_uint("scsi_protection_intervals_per_lb", 1u << f->cap.pi_exponent);
			json_uint("scsi_protection_interval_bytes_per_lb", SCSI_PI_BYTES << f->cap.pi_exponent);
		}
		if (f->has_control) {
			json_object_begin("scsi_protection_control");
			json_bool("application_tag_owner", f->ato);
			json_bool("no_check_when_protection_zero", f->dpicz);
			json_object_end();
		}
	}
	if (f->rotation == 1)
		json_uint("rotation_rate", 0);	/* smartctl's convention for a solid-state drive */
	else if (f->rotation > 0x400 && f->rotation < 0xffff)
		json_uint("rotation_rate", f->rotation);
	if (f->form_factor >= 1 && f->form_factor <= 5) {
		json_object_begin("form_factor");
		json_uint("scsi_value", f->form_factor);
		json_string("name", form_factors[f->form_factor].json);
		json_object_end();
	}
	if (f->id.has_naa) {
		char wwn[40], id[48];

		hex_string(f->id.naa, f->id.naa_len, wwn, sizeof(wwn));
		snprintf(id, sizeof(id), "0x%s", wwn);
		json_string("logical_unit_id", id);
	}
	if (f->has_caching) {
		json_object_begin("write_cache");
		json_bool("supported", true);
		json_bool("enabled", f->wce);
		json_object_end();
		json_object_begin("read_lookahead");
		json_bool("supported", true);
		json_bool("enabled", !f->dra);
		json_object_end();
	}
	json_object_begin("trim");
	json_bool("supported", f->has_capacity && f->cap.lbpme && f->unmap);
	json_object_end();
	json_object_end();
}

/* What -I and -i show of a SCSI disk: the facts gathered from INQUIRY, VPD, READ CAPACITY and the caching page. */
struct disk_pages {
	struct scsi_facts f;
};

static int scsi_pages_read(struct device *dev, enum pages_form form, struct disk_pages **pp, struct disk_cause *c)
{
	struct disk_pages *p;

	/* A SCSI disk has no page as it was sent to show (describe.c refuses --Istdout and --Iraw). */
	if (form == PAGES_RAW) {
		*pp = NULL;
		return 0;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return ENOMEM;
	gather_facts(dev, &p->f);
	if (!p->f.model[0] && (form == PAGES_BRIEF || form == PAGES_BRIEF_JSON || !p->f.has_capacity)) {
		snprintf(c->why, sizeof(c->why), "INQUIRY failed: %s gave no identity", dev->path);
		free(p);
		return EIO;
	}
	*pp = p;
	return 0;
}

static int scsi_pages_show(const struct disk_pages *p, enum pages_form form)
{
	const struct scsi_facts *f = &p->f;

	if (form == PAGES_JSON) {
		json_facts(f);
		return 0;
	}
	if (form == PAGES_TEXT) {
		print_facts(f);
		return 0;
	}
	if (form == PAGES_BRIEF_JSON) {
		/* The keys of -i on an ATA drive. */
		json_object_begin("identify");
		json_string("device_type", "scsi");
		json_string("model_name", f->model);
		json_string("firmware_version", f->inq.revision);
		json_string("serial_number", f->serial);
		if (f->has_capacity)
			json_uint("user_capacity_blocks", f->cap.blocks);
		json_object_end();
	}
	out("\n Model=%s, FwRev=%s, SerialNo=%s\n", f->model, f->inq.revision, f->serial);
	if (f->has_capacity)
		out(" Sectors=%llu, SectSize=%u\n", (unsigned long long)f->cap.blocks, f->cap.block_bytes);
	out("\n");
	return 0;
}

static void scsi_pages_free(struct disk_pages *p)
{
	free(p);
}

/* ---- caches ---- */

/* -W and -A queried: WCE and DRA of the caching mode page; a disk without the page has neither. */
static int scsi_cache_get(struct device *dev, enum disk_cache which, enum disk_cache_state *st, struct disk_cause *c)
{
	uint8_t mode[MODE_SENSE_BUF], *page;
	size_t len;
	struct scsi_result res;
	int err = caching_page(dev, MODE_CURRENT, mode, &page, &len, &res);

	if (err) {
		*st = CACHE_UNSUPPORTED;
		return scsi_cause(c, "MODE SENSE (caching page)", &res, err);
	}
	*st = caching_bit_on(page, which) ? CACHE_ON : CACHE_OFF;
	return 0;
}

/*
 * The write cache as the kernel has it for the disk: "write back" or
 * "write through" in queue/write_cache, which decides whether the block
 * layer sends flushes and FUA.  0 when the kernel agrees with the disk
 * (or keeps no view: no such attribute), else EIO with *c saying so.
 */
static int kernel_agrees(const char *dir, bool on, struct disk_cause *c)
{
	char now[32], attr[96] = "queue/write_cache";
	struct dirent *e;
	DIR *d;

	/* An sg node's folder has no queue: its disk's block device is under device/block/. */
	if (sysfs_read_line(dir, attr, now, sizeof(now))) {
		snprintf(attr, sizeof(attr), "%s/device/block", dir);
		d = opendir(attr);
		attr[0] = '\0';
		while (d && (e = readdir(d)) && !attr[0])
			if (e->d_name[0] != '.')
				snprintf(attr, sizeof(attr), "device/block/%.60s/queue/write_cache", e->d_name);
		if (d)
			closedir(d);
		if (!attr[0] || sysfs_read_line(dir, attr, now, sizeof(now)))
			return 0;
	}
	if (strcmp(now, on ? "write back" : "write through") == 0)
		return 0;
	c->about_option = true;
	snprintf(c->why, sizeof(c->why), "the disk's write cache is now %s, but the kernel still has it as \"%s\" (%s/%s)%s",
		 on ? "on" : "off", now, dir, attr, on ? "" : ": fsync is not durable until that is \"write through\"");
	return EIO;
}

/*
 * WCE through the sd driver, so that its view and the block layer's
 * flushes follow: its cache_type attribute sends the MODE SELECT itself
 * and revalidates the disk (RCD, the read cache, is written unchanged).
 * Where there is no such attribute, or it fails, the page goes out from
 * here and the SCSI device is rescanned.  Either way the kernel's view
 * is checked afterwards.
 */
static int write_cache_through_kernel(struct device *dev, bool on, const uint8_t *mode, uint8_t *page, size_t len,
				      struct disk_cause *c)
{
	/* sd's names, indexed by RCD + 2 * WCE. */
	static const char *const cache_types[4] = { "write through", "none", "write back", "write back, no read (daft)" };
	const char *type = cache_types[((page[2] & CACHING_RCD) ? 1 : 0) + (on ? 2 : 0)];
	char dir[160], hctl[64], attr[128];
	bool sysfs = sysfs_scsi_dir(dev->fd, dir, sizeof(dir));
	struct scsi_result res;
	int err;

	/* device links to the SCSI device, H:C:T:L; sd's class folder bears the same name. */
	if (sysfs && sysfs_link_name(dir, "device", hctl, sizeof(hctl)) == 0) {
		snprintf(attr, sizeof(attr), "device/scsi_disk/%s/cache_type", hctl);
		if (sysfs_write_line(dir, attr, type) == 0)
			return kernel_agrees(dir, on, c);
	}
	set_caching_bit(page, DISK_WRITE_CACHE, on);
	err = scsi_mode_select(dev, mode, page, len, false, &res);
	if (err)
		return scsi_cause(c, "MODE SELECT (caching page)", &res, err);
	if (!sysfs)
		return 0;
	if ((err = sysfs_write_line(dir, "device/rescan", "1"))) {
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "the kernel was not told of the change (%s/device/rescan: %s)", dir,
			 strerror(err));
		return err;
	}
	return kernel_agrees(dir, on, c);
}

/* -W N and -A N: the caching mode page, where the disk lets the bit change. */
static int scsi_cache_set(struct device *dev, enum disk_cache which, bool on, struct disk_cause *c)
{
	const struct caching_bit *b = &caching_bits[which];
	uint8_t mode[MODE_SENSE_BUF], changeable[MODE_SENSE_BUF], *page, *mask;
	size_t len, mask_len;
	struct scsi_result res;
	int err = caching_page(dev, MODE_CURRENT, mode, &page, &len, &res);

	if (err)
		return scsi_cause(c, "MODE SENSE (caching page)", &res, err);
	/*
	 * A disk that does not let the bit change would refuse the page with
	 * no more than "invalid field in parameter list": say which bit.  A
	 * disk that does not answer for its changeable values gets the page.
	 */
	if (caching_page(dev, MODE_CHANGEABLE, changeable, &mask, &mask_len, &res) == 0 && !(mask[b->byte] & b->mask)) {
		if (caching_bit_on(page, which) == on)
			return 0;
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "not supported by this disk (its caching mode page does not let %s change)",
			 b->name);
		return EOPNOTSUPP;
	}
	if (which == DISK_WRITE_CACHE) {
		/* Turning the write cache off: what it holds goes to the media first. */
		if (!on && (err = scsi_synchronize_cache(dev, &res)))
			return scsi_cause(c, "SYNCHRONIZE CACHE", &res, err);
		return write_cache_through_kernel(dev, on, mode, page, len, c);
	}
	/* Read-ahead (DRA) is the disk's alone: the kernel keeps no view of it. */
	set_caching_bit(page, which, on);
	err = scsi_mode_select(dev, mode, page, len, false, &res);
	return scsi_cause(c, "MODE SELECT (caching page)", &res, err);
}

/* --erc: the Read-Write Error Recovery page's RECOVERY TIME LIMIT, one for reads and writes, in ms. */
static int rw_recovery_page(struct device *dev, enum scsi_page_control pc, uint8_t mode[MODE_SENSE_BUF], uint8_t **page,
			    size_t *len, struct disk_erc *e)
{
	struct scsi_result res;
	int err = scsi_mode_sense(dev, MODE_PAGE_RW_ERROR_RECOVERY, 0, pc, mode, MODE_SENSE_BUF, page, len, &res);

	e->source = "Read-Write Error Recovery mode page (01h)";
	e->one_limit = true;
	if (!err && *len < RW_RECOVERY_TIME_LIMIT + 2) {
		e->cause.about_option = true;
		snprintf(e->cause.why, sizeof(e->cause.why), "the disk's Read-Write Error Recovery page has no time limit");
		return EOPNOTSUPP;
	}
	return scsi_cause(&e->cause, "MODE SENSE (Read-Write Error Recovery page)", &res, err);
}

static int scsi_erc_get(struct device *dev, struct disk_erc *e)
{
	uint8_t mode[MODE_SENSE_BUF], *page;
	size_t len;
	int err = rw_recovery_page(dev, MODE_CURRENT, mode, &page, &len, e);

	if (!err)
		e->read_ds = e->write_ds = (get_be16(page + RW_RECOVERY_TIME_LIMIT) + 50u) / 100u;
	return err;
}

/* Where the disk lets the limit change (its changeable values say), and in 16 bits of ms. */
static int scsi_erc_set(struct device *dev, struct disk_erc *e)
{
	uint8_t mode[MODE_SENSE_BUF], changeable[MODE_SENSE_BUF], *page, *mask;
	size_t len, mask_len;
	struct scsi_result res;
	int err = rw_recovery_page(dev, MODE_CURRENT, mode, &page, &len, e);

	if (err)
		return err;
	if (e->read_ds != e->write_ds)
		snprintf(e->cause.why, sizeof(e->cause.why),
			 "a SCSI disk has one time limit for reads and writes (RECOVERY TIME LIMIT): give one value");
	else if (e->read_ds > 655)
		snprintf(e->cause.why, sizeof(e->cause.why), "a SCSI disk's limit is 655 (65.5 s) at most: 16 bits of ms");
	if (e->cause.why[0]) {
		e->cause.about_option = true;
		return EINVAL;
	}
	if ((err = rw_recovery_page(dev, MODE_CHANGEABLE, changeable, &mask, &mask_len, e)))
		return err;
	if (get_be16(mask + RW_RECOVERY_TIME_LIMIT) == 0) {
		e->cause.about_option = true;
		snprintf(e->cause.why, sizeof(e->cause.why), "the disk does not let its RECOVERY TIME LIMIT change");
		return EOPNOTSUPP;
	}
	put_be16(page + RW_RECOVERY_TIME_LIMIT, (uint16_t)(e->read_ds * 100));
	err = scsi_mode_select(dev, mode, page, len, false, &res);
	return scsi_cause(&e->cause, "MODE SELECT (Read-Write Error Recovery page)", &res, err);
}

static int scsi_flush(struct device *dev, struct disk_cause *c)
{
	struct scsi_result res;
	int err = scsi_synchronize_cache(dev, &res);

	return scsi_cause(c, "SYNCHRONIZE CACHE", &res, err);
}

/* ---- sectors ---- */

/* --read-sector: READ CAPACITY. */
static int scsi_geometry(struct device *dev, struct disk_geometry *g, struct disk_cause *c)
{
	struct scsi_capacity cap;
	struct scsi_result res;
	int err = capacity_of(dev, &cap, &res);

	if (err)
		return scsi_cause(c, "READ CAPACITY", &res, err);
	g->sectors = cap.blocks;
	g->sector_bytes = cap.block_bytes;
	g->space = "drive";
	return 0;
}

/* READ (16) of one block; a short read is a failure. */
static int scsi_sector_read(struct device *dev, uint64_t lba, void *buf, unsigned int bytes, struct disk_cause *c)
{
	struct scsi_result res;
	int err = scsi_read16(dev, lba, 1, buf, bytes, &res);

	if (err)
		snprintf(c->why, sizeof(c->why), "%s", res.cause);
	return err;
}


/* TRIM by UNMAP, where logical block provisioning and the VPD pages say it is there, within the Block Limits. */
static int scsi_trim_limits(struct device *dev, struct trim_limits *l, struct disk_cause *c)
{
	struct scsi_capacity cap;
	struct scsi_block_limits bl;
	struct scsi_result res;
	uint8_t list[256];
	const char *why;
	int err = capacity_of(dev, &cap, &res);

	if (err)
		return scsi_cause(c, "READ CAPACITY", &res, err);
	if (!cap.lbpme) {
		snprintf(l->none, sizeof(l->none), "the disk does not support UNMAP (no logical block provisioning)");
		return EOPNOTSUPP;
	}
	l->capacity = cap.blocks;
	l->space = "drive";
	if (!unmap_supported(dev, list, scsi_vpd_list(dev, list), &bl, &why)) {
		snprintf(l->none, sizeof(l->none), "the disk does not support UNMAP (%s)", why);
		return EOPNOTSUPP;
	}
	/* FFFFFFFFh is "no limit"; the parameter list length is 16 bits. */
	l->max_ranges = bl.max_unmap_descriptors > SCSI_UNMAP_MAX_DESCRIPTORS ? SCSI_UNMAP_MAX_DESCRIPTORS
									 : bl.max_unmap_descriptors;
	l->max_range_sectors = UINT32_MAX;
	l->max_command_sectors = bl.max_unmap_blocks;
	return 0;
}

static int scsi_trim_send(struct device *dev, const struct sector_range *pieces, unsigned int n, struct disk_cause *c)
{
	struct scsi_result res;
	int err = scsi_unmap(dev, pieces, n, &res);

	return scsi_cause(c, "UNMAP", &res, err);
}

/* Before a timing: the write cache out to the media.  Nothing said on failure. */
static void scsi_flush_quietly(struct device *dev)
{
	struct scsi_result res;

	(void)scsi_synchronize_cache(dev, &res);
}

/* An erase record's device: INQUIRY, the serial number, the NAA designator, READ CAPACITY, rotation. */
static int scsi_disk_security_recv(struct device *dev, uint8_t protocol, uint16_t sp_specific, uint8_t *buf, size_t len,
				   size_t *got, struct disk_cause *c)
{
	struct scsi_result res;
	int err = scsi_security_protocol_in(dev, protocol, sp_specific, buf, len, &res);

	*got = err ? 0 : res.got;
	if (err && scsi_refused(err, &res)) {
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "this SCSI disk refused SECURITY PROTOCOL IN (%s): it has no security protocols",
			 res.cause);
		return EOPNOTSUPP;
	}
	return scsi_cause(c, "SECURITY PROTOCOL IN", &res, err);
}

static int scsi_disk_security_send(struct device *dev, uint8_t protocol, uint16_t sp_specific, const uint8_t *buf,
				   size_t len, struct disk_cause *c)
{
	struct scsi_result res;
	int err = scsi_security_protocol_out(dev, protocol, sp_specific, buf, len, &res);

	return scsi_cause(c, "SECURITY PROTOCOL OUT", &res, err);
}

static int scsi_disk_identity(struct device *dev, struct disk_identity *d)
{
	struct scsi_facts f;
	size_t k;

	gather_facts(dev, &f);
	snprintf(d->model, sizeof(d->model), "%s", f.model);
	snprintf(d->serial, sizeof(d->serial), "%s", f.serial);
	snprintf(d->firmware, sizeof(d->firmware), "%s", f.inq.revision);
	if (f.id.has_naa) {
		k = (size_t)snprintf(d->wwn, sizeof(d->wwn), "naa.");
		hex_string(f.id.naa, f.id.naa_len, d->wwn + k, sizeof(d->wwn) - k);
	}
	if (f.has_capacity)
		d->capacity_bytes = f.cap.blocks * f.cap.block_bytes;
	d->media = f.rotation == 1 ? "ssd" : f.rotation > 1 ? "hdd" : NULL;
	return 0;
}

const struct disk_ops scsi_disk = {
	.kind = "SCSI",
	.scsi = true,
	.no_ata = "is a SCSI disk without ATA pass-through",
	.erc_get = scsi_erc_get,
	.erc_set = scsi_erc_set,
	.epc_read = scsi_disk_epc_read,
	.epc_counts = scsi_epc_counts,
	.epc_change = scsi_disk_epc_change,
	.background_scan_get = scsi_background_scan_get,
	.background_scan_set = scsi_background_scan_set,
	.block_formats = scsi_block_formats,
	.security_recv = scsi_disk_security_recv,
	.security_send = scsi_disk_security_send,
	.block_format_set = scsi_block_format_set,
	.block_format_poll = scsi_block_format_poll,
	.geometry = scsi_geometry,
	.media_verify = scsi_media_verify,
	.sector_read = scsi_sector_read,
	.trim_limits = scsi_trim_limits,
	.trim_send = scsi_trim_send,
	.pages_read = scsi_pages_read,
	.pages_show = scsi_pages_show,
	.pages_free = scsi_pages_free,
	.cache_get = scsi_cache_get,
	.cache_set = scsi_cache_set,
	.lookahead = true,
	.flush = scsi_flush,
	.power_mode = scsi_power_mode,
	.sanitize_check = scsi_sanitize_check,
	.sanitize_start = scsi_sanitize_start,
	.sanitize_status = scsi_sanitize_status,
	.sanitize_poll = scsi_sanitize_poll,
	.flush_quietly = scsi_flush_quietly,
	.power_state = scsi_disk_power_state,
	.standby_now = scsi_disk_standby_now,
	.sleep_now = scsi_disk_sleep_now,
	.standby_timer = scsi_disk_standby_timer,
	.temperature = scsi_disk_temperature,
	.power_on = scsi_disk_power_on,
	.error_counts = scsi_disk_error_counts,
	.self_test_start = scsi_disk_self_test_start,
	.self_test_progress = scsi_disk_self_test_progress,
	.condition_read = scsi_disk_condition,
	.erase_choices = scsi_erase_choices,
	.identity = scsi_disk_identity,
	.firmware = scsi_firmware,
	.firmware_piece = scsi_firmware_piece,
	.firmware_commit = scsi_firmware_commit,
};
