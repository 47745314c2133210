/*
 * The commands of every disk, done on a SCSI disk that refuses ATA
 * pass-through (SAS drives behind an HBA, USB enclosures without SAT):
 * identity from INQUIRY and its VPD pages, capacity from READ CAPACITY,
 * the caches through the caching mode page, power through START STOP UNIT
 * and REQUEST SENSE, the standby timer through the power condition mode
 * page, sectors through READ (16) and UNMAP.  What -I and --json print is
 * gathered once into struct scsi_facts, then printed by each back end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <scsi/sg.h>

#include "checks.h"
#include "identify.h"
#include "json.h"
#include "progress.h"
#include "ranges.h"
#include "report.h"
#include "scsi.h"
#include "scsi_disk.h"
#include "settings.h"
#include "sysfs.h"

/* ---- which disks these are ---- */

/* The first line of a sysfs attribute of the disk (the partition's disk, too); "" when there is none. */
static void disk_attribute(dev_t devnum, const char *attr, char *buf, size_t size)
{
	char path[512], rel[64];

	buf[0] = '\0';
	for (int up = 0; up < 2 && !buf[0]; up++) {
		FILE *f;

		snprintf(rel, sizeof(rel), "%sdevice/%s", up ? "../" : "", attr);
		sysfs_path(devnum, rel, path, sizeof(path));
		f = fopen(path, "r");
		if (!f)
			continue;
		if (!fgets(buf, (int)size, f))
			buf[0] = '\0';
		fclose(f);
		buf[strcspn(buf, "\n")] = '\0';
		if (!buf[0])
			snprintf(buf, size, " ");	/* present, but empty */
	}
}

bool scsi_may_lack_ata(struct device *dev)
{
	dev_t devnum = block_device_of(dev->fd);
	char vendor[32], type[8], vpd89[8];
	int version;

	/* SCSI commands reach it at all: sd and sg answer this, loop and virtio-blk do not. */
	if (ioctl(dev->fd, SG_GET_VERSION_NUM, &version) == -1)
		return false;
	if (!devnum)
		return true;
	disk_attribute(devnum, "vendor", vendor, sizeof(vendor));
	disk_attribute(devnum, "type", type, sizeof(type));
	disk_attribute(devnum, "vpd_pg89", vpd89, sizeof(vpd89));
	/* libata names its disks' vendor "ATA"; a SAT layer has the ATA Information VPD page. */
	if (strncmp(vendor, "ATA", 3) == 0 || vpd89[0])
		return false;
	/* A disk (0) or a simplified direct-access device (0x0e); not a CD drive behind ATAPI. */
	return !type[0] || strcmp(type, "0") == 0 || strcmp(type, "14") == 0;
}

/* ---- the facts -I and --json print ---- */

#define MAX_DESIGNATORS 6

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
	bool unmap;		/* VPD B2h LBPU: UNMAP is supported */
	bool has_naa;
	uint8_t naa[16];	/* the logical unit's NAA designator (8 or 16 bytes) */
	unsigned int naa_len;
	int protocol;		/* SPC protocol identifier of the port, -1 unknown */
	unsigned int ndesignators;
	char designators[MAX_DESIGNATORS][96];
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

static bool vpd_listed(const uint8_t *list, uint8_t page)
{
	unsigned int n = (unsigned int)(list[2] << 8 | list[3]);

	for (unsigned int i = 0; i < n && 4 + i < 256; i++)
		if (list[4 + i] == page)
			return true;
	return false;
}

static void hex_string(const uint8_t *p, unsigned int n, char *dst, size_t size)
{
	size_t k = 0;

	dst[0] = '\0';
	for (unsigned int i = 0; i < n && k + 3 <= size; i++)
		k += (size_t)snprintf(dst + k, size - k, "%02x", p[i]);
}

/* Device Identification (SPC-4 7.8.6): the designators, and the logical unit's NAA as its WWN. */
static void decode_designators(const uint8_t *page, size_t len, struct scsi_facts *f)
{
	size_t end = 4u + (size_t)(page[2] << 8 | page[3]);

	if (end > len)
		end = len;
	for (size_t pos = 4; pos + 4 <= end;) {
		const uint8_t *d = page + pos;
		unsigned int dlen = d[3], type = d[1] & 0x0f, assoc = (d[1] >> 4) & 3;
		char *text = f->designators[f->ndesignators];
		char hex[80];

		if (pos + 4 + dlen > end)
			break;
		if ((d[1] & 0x80) && assoc != 0 && f->protocol < 0)
			f->protocol = d[0] >> 4;
		if (assoc == 0 && f->ndesignators < MAX_DESIGNATORS) {
			hex_string(d + 4, dlen > 32 ? 32 : dlen, hex, sizeof(hex));
			switch (type) {
			case 1:
				snprintf(text, 96, "T10 vendor ID: %.*s", (int)(dlen > 80 ? 80 : dlen), (const char *)d + 4);
				f->ndesignators++;
				break;
			case 2:
				snprintf(text, 96, "EUI-64: 0x%s", hex);
				f->ndesignators++;
				break;
			case 3:
				snprintf(text, 96, "NAA: 0x%s", hex);
				f->ndesignators++;
				if (!f->has_naa && (dlen == 8 || dlen == 16)) {
					f->has_naa = true;
					f->naa_len = dlen;
					memcpy(f->naa, d + 4, dlen);
				}
				break;
			case 8:
				snprintf(text, 96, "SCSI name: %.*s", (int)(dlen > 80 ? 80 : dlen), (const char *)d + 4);
				f->ndesignators++;
				break;
			default:
				break;
			}
		}
		pos += 4u + dlen;
	}
}

/* The caching mode page into mode: *page at it, long enough for WCE, RCD and DRA; 0 or an errno. */
static int caching_page(struct device *dev, enum scsi_page_control pc, uint8_t mode[128], uint8_t **page, size_t *len,
			struct scsi_result *res)
{
	int err = scsi_mode_sense(dev, MODE_PAGE_CACHING, pc, mode, 128, page, len, res);

	return !err && *len < 13 ? EOPNOTSUPP : err;
}

/* The caching page bit behind -W and -A: WCE set turns the write cache on, DRA set turns read-ahead off. */
static const struct caching_bit {
	unsigned int byte;
	uint8_t mask;
	bool set_is_on;
	const char *name;
} caching_bits[] = {
	[OPT_WCACHE] = { 2, CACHING_WCE, true, "WCE" },
	[OPT_LOOKAHEAD] = { 12, CACHING_DRA, false, "DRA" },
};

static bool caching_bit_on(const uint8_t *page, enum opt_id opt)
{
	const struct caching_bit *b = &caching_bits[opt];

	return ((page[b->byte] & b->mask) != 0) == b->set_is_on;
}

static void gather_facts(struct device *dev, struct scsi_facts *f)
{
	uint8_t list[256], page[256], mode[128];
	struct scsi_result res;
	uint8_t *caching;
	size_t caching_len;

	memset(f, 0, sizeof(*f));
	f->protocol = -1;
	if (scsi_inquiry(dev, &f->inq, &res) == 0)
		snprintf(f->model, sizeof(f->model), "%s%s%s", f->inq.vendor, f->inq.vendor[0] ? " " : "", f->inq.product);
	if (scsi_vpd(dev, VPD_SUPPORTED_PAGES, list, sizeof(list), &res))
		memset(list, 0, sizeof(list));
	if (vpd_listed(list, VPD_UNIT_SERIAL_NUMBER) && scsi_vpd(dev, VPD_UNIT_SERIAL_NUMBER, page, sizeof(page), &res) == 0) {
		unsigned int n = page[3], start = 4;

		while (n && page[start] == ' ') {
			start++;
			n--;
		}
		while (n && (page[start + n - 1] == ' ' || page[start + n - 1] == '\0'))
			n--;
		snprintf(f->serial, sizeof(f->serial), "%.*s", (int)n, (const char *)page + start);
	}
	if (vpd_listed(list, VPD_DEVICE_IDENTIFICATION) &&
	    scsi_vpd(dev, VPD_DEVICE_IDENTIFICATION, page, sizeof(page), &res) == 0)
		decode_designators(page, sizeof(page), f);
	if (vpd_listed(list, VPD_BLOCK_DEVICE_CHARACTERISTICS) &&
	    scsi_vpd(dev, VPD_BLOCK_DEVICE_CHARACTERISTICS, page, sizeof(page), &res) == 0) {
		f->rotation = (unsigned int)(page[4] << 8 | page[5]);
		f->form_factor = page[7] & 0x0f;
	}
	if (vpd_listed(list, VPD_LOGICAL_BLOCK_PROVISIONING) &&
	    scsi_vpd(dev, VPD_LOGICAL_BLOCK_PROVISIONING, page, sizeof(page), &res) == 0)
		f->unmap = page[5] & 0x80;
	f->has_capacity = scsi_read_capacity(dev, &f->cap, &res) == 0 && f->cap.block_bytes;
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
	print_device_size(bytes);
}

static void print_facts(const struct scsi_facts *f)
{
	const char *version = f->inq.version < 8 ? spc_versions[f->inq.version] : NULL;

	out("\nSCSI disk without ATA pass-through, with %sremovable media\n", f->inq.removable ? "" : "non-");
	out("\t%-20s%s\n", "Model Number:", f->model);
	if (f->serial[0])
		out("\t%-20s%s\n", "Serial Number:", f->serial);
	out("\t%-20s%s\n", "Firmware Revision:", f->inq.revision);
	if (f->protocol >= 0 && protocols[f->protocol])
		out("\t%-20s%s\n", "Transport:", protocols[f->protocol]);
	out("Standards:\n");
	if (version)
		out("\tUsed: %s\n", version);
	else
		out("\tUsed: no standard claimed (INQUIRY version 0x%02x)\n", f->inq.version);
	out("Configuration:\n");
	if (f->has_capacity)
		print_sizes(&f->cap);
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
		out("\tThin provisioning:     yes (UNMAP%s)%s\n", f->unmap ? "" : " not listed",
		    f->cap.lbprz ? ", unmapped blocks read as zeros" : "");
	else
		out("\tThin provisioning:     no\n");
	if (f->has_naa) {
		char wwn[40];

		hex_string(f->naa, f->naa_len, wwn, sizeof(wwn));
		out("Logical Unit WWN Device Identifier: %s\n", wwn);
		out("\tNAA\t\t: %x\n", f->naa[0] >> 4);
		/* NAA 5 and 6: the IEEE company ID follows the NAA nibble. */
		if ((f->naa[0] >> 4) == 5 || (f->naa[0] >> 4) == 6)
			out("\tIEEE OUI\t: %06x\n", (unsigned int)((f->naa[0] & 0x0f) << 20 | f->naa[1] << 12 |
							      f->naa[2] << 4 | f->naa[3] >> 4));
	}
	if (f->ndesignators) {
		out("Device identification (VPD page 0x83):\n");
		for (unsigned int i = 0; i < f->ndesignators; i++)
			out("\t%s\n", f->designators[i]);
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
	if (f->has_naa) {
		char wwn[40];

		hex_string(f->naa, f->naa_len, wwn, sizeof(wwn));
		char id[48];

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

static int scsi_identify(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct scsi_facts f;

	(void)s;
	if (opt != OPT_IDENTIFY) {
		complain(" %s: %s is a SCSI disk without ATA pass-through: it has no IDENTIFY page (-I shows what it reports)\n",
			 option_name(opt), dev->path);
		return EOPNOTSUPP;
	}
	gather_facts(dev, &f);
	if (!f.model[0] && !f.has_capacity) {
		complain(" INQUIRY failed: %s gave no identity\n", dev->path);
		return EIO;
	}
	if (dev->run.json)
		json_facts(&f);
	else
		print_facts(&f);
	return 0;
}

static int scsi_identity(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct scsi_facts f;

	(void)opt;
	gather_facts(dev, &f);
	if (!f.model[0]) {
		complain(" INQUIRY failed: %s gave no identity\n", dev->path);
		return EIO;
	}
	if (!s->v[OPT_IDENTIFY].given) {
		/* The keys of -i on an ATA drive. */
		json_object_begin("identify");
		json_string("device_type", "scsi");
		json_string("model_name", f.model);
		json_string("firmware_version", f.inq.revision);
		json_string("serial_number", f.serial);
		if (f.has_capacity)
			json_uint("user_capacity_blocks", f.cap.blocks);
		json_object_end();
	}
	out("\n Model=%s, FwRev=%s, SerialNo=%s\n", f.model, f.inq.revision, f.serial);
	if (f.has_capacity)
		out(" Sectors=%llu, SectSize=%u\n", (unsigned long long)f.cap.blocks, f.cap.block_bytes);
	out("\n");
	return 0;
}

/* ---- caches ---- */

static int report_failure(const char *what, const struct scsi_result *res, int err)
{
	complain(" %s failed: %s\n", what, res->cause[0] ? res->cause : strerror(err));
	return err;
}

static int scsi_get_cache(struct device *dev, const struct settings *s, enum opt_id opt)
{
	uint8_t mode[128], *page;
	size_t len;
	struct scsi_result res;
	int err;
	bool on;

	(void)s;
	err = caching_page(dev, MODE_CURRENT, mode, &page, &len, &res);
	if (err) {
		if (opt == OPT_WCACHE)
			out(" write-caching = not supported\n");
		else
			out(" look-ahead    = not supported\n");
		return report_failure("MODE SENSE (caching page)", &res, err);
	}
	on = caching_bit_on(page, opt);
	json_object_begin(opt == OPT_WCACHE ? "write_cache" : "read_lookahead");
	json_bool("supported", true);
	json_bool("enabled", on);
	json_object_end();
	out("%s%2d", opt == OPT_WCACHE ? " write-caching = " : " look-ahead    = ", on);
	print_on_off(on);
	return 0;
}

static int scsi_set_cache(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct caching_bit *b = &caching_bits[opt];
	bool on = s->v[opt].num != 0;
	uint8_t mode[128], changeable[128], *page, *mask;
	size_t len, mask_len;
	struct scsi_result res;
	int err;

	if (s->v[opt].noisy) {
		out(opt == OPT_WCACHE ? " setting drive write-caching to %d" : " setting drive read-lookahead to %d", on);
		print_on_off(on);
	}
	err = caching_page(dev, MODE_CURRENT, mode, &page, &len, &res);
	if (err)
		return report_failure("MODE SENSE (caching page)", &res, err);
	/*
	 * A disk that does not let the bit change would refuse the page with
	 * no more than "invalid field in parameter list": say which bit.  A
	 * disk that does not answer for its changeable values gets the page.
	 */
	if (caching_page(dev, MODE_CHANGEABLE, changeable, &mask, &mask_len, &res) == 0 && !(mask[b->byte] & b->mask)) {
		if (caching_bit_on(page, opt) == on)
			return 0;
		complain(" %s%d: not supported by this disk (its caching mode page does not let %s change)\n",
			 option_name(opt), on, b->name);
		return EOPNOTSUPP;
	}
	/* Turning the write cache off: what it holds goes to the media first. */
	if (opt == OPT_WCACHE && !on && (err = scsi_synchronize_cache(dev, &res)))
		return report_failure("SYNCHRONIZE CACHE", &res, err);
	page[b->byte] = (uint8_t)(on == b->set_is_on ? page[b->byte] | b->mask : page[b->byte] & ~b->mask);
	err = scsi_mode_select(dev, mode, sizeof(mode), page, len, &res);
	return err ? report_failure("MODE SELECT (caching page)", &res, err) : 0;
}

static int scsi_flush(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct scsi_result res;
	int err = scsi_synchronize_cache(dev, &res);

	(void)s;
	(void)opt;
	return err ? report_failure("SYNCHRONIZE CACHE", &res, err) : 0;
}

/* ---- power ---- */

/* REQUEST SENSE's answer about power (SPC-4 table 34: ASC 5Eh, "low power condition on"). */
static const char *power_state(const struct sense *now)
{
	if (now->key == SENSE_NOT_READY && now->asc == ASC_NOT_READY && now->ascq == 0x02)
		return "standby";	/* stopped: it waits for START STOP UNIT */
	if (now->key != SENSE_NO_SENSE || now->asc != ASC_LOW_POWER_CONDITION_ON)
		return "active/idle";
	switch (now->ascq) {
	case 0x02: case 0x04: case 0x09: case 0x0a:
		return "standby";
	default:
		return "idle";
	}
}

static int scsi_power_mode(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct sense now;
	struct scsi_result res;
	int err = scsi_request_sense(dev, &now, &res);

	(void)s;
	(void)opt;
	if (err) {
		out(" drive state is:  unknown\n");
		return report_failure("REQUEST SENSE", &res, err);
	}
	json_string("power_mode", power_state(&now));
	out(" drive state is:  %s\n", power_state(&now));
	return 0;
}

static int scsi_power_command(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct scsi_result res;
	bool standby = opt == OPT_STANDBY_NOW;
	int err;

	if (opt != OPT_STANDBY_NOW && opt != OPT_SLEEP_NOW)
		return refuse_on_this_disk(dev, opt);
	if (s->v[opt].noisy)
		out(standby ? " issuing standby command\n" : " issuing sleep command\n");
	/* -y: the standby power condition; -Y: stop the disk, as sdparm --command=stop does. */
	err = scsi_start_stop(dev, standby ? POWER_CONDITION_STANDBY : POWER_CONDITION_START_VALID, false, &res);
	return err ? report_failure("START STOP UNIT", &res, err) : 0;
}

static int scsi_standby_timer(struct device *dev, const struct settings *s, enum opt_id opt)
{
	unsigned int v = (unsigned int)s->v[opt].num;
	long seconds = standby_interval_seconds(v);
	uint8_t mode[128], *page;
	size_t len;
	struct scsi_result res;
	int err;

	if (s->v[opt].noisy) {
		out(" setting standby to %u", v);
		print_standby_interval(v);
	}
	if (seconds < 0) {
		complain(" -S %u: the value has no time in seconds that a SCSI disk could be given\n", v);
		return EINVAL;
	}
	err = scsi_mode_sense(dev, MODE_PAGE_POWER_CONDITION, MODE_CURRENT, mode, sizeof(mode), &page, &len, &res);
	if (err == EOPNOTSUPP || scsi_refused(err, &res) || (!err && len < 12)) {
		complain(" -S: not supported by this disk (it has no power condition mode page)\n");
		return EOPNOTSUPP;
	}
	if (err)
		return report_failure("MODE SENSE (power condition page)", &res, err);
	page[3] = (uint8_t)(seconds ? page[3] | POWER_CONDITION_STANDBY_Z : page[3] & ~POWER_CONDITION_STANDBY_Z);
	/* The STANDBY_Z condition timer counts 100 ms. */
	for (int b = 0; b < 4; b++)
		page[8 + b] = (uint8_t)((uint32_t)(seconds * 10) >> (24 - 8 * b));
	err = scsi_mode_select(dev, mode, sizeof(mode), page, len, &res);
	return err ? report_failure("MODE SELECT (power condition page)", &res, err) : 0;
}

/* ---- sectors ---- */

static int capacity_or_report(struct device *dev, struct scsi_capacity *cap)
{
	struct scsi_result res;
	int err = scsi_read_capacity(dev, cap, &res);

	if (!err && !cap->block_bytes)
		err = EIO;
	return err ? report_failure("READ CAPACITY", &res, err) : 0;
}

static int scsi_read_sector(struct device *dev, uint64_t lba)
{
	struct scsi_capacity cap;
	struct scsi_result res;
	uint8_t *buf;
	int err;

	if ((err = capacity_or_report(dev, &cap)) || (err = check_lba("--read-sector", cap.blocks, lba, 1)))
		return err;
	buf = calloc(1, cap.block_bytes);
	if (!buf)
		return ENOMEM;
	out("reading sector %llu: ", (unsigned long long)lba);
	fflush(stdout);
	err = say_outcome(scsi_read16(dev, lba, 1, buf, cap.block_bytes, &res));
	if (err)
		complain("--read-sector %llu: %s\n", (unsigned long long)lba, res.cause[0] ? res.cause : strerror(err));
	else
		dump_sector(buf, cap.block_bytes);
	free(buf);
	return err;
}

/* VPD B0h's limits on one UNMAP; 0 in either means none given. */
static void unmap_limits(struct device *dev, uint32_t *max_blocks, uint32_t *max_descriptors)
{
	uint8_t page[64];
	struct scsi_result res;

	*max_blocks = *max_descriptors = 0;
	if (scsi_vpd(dev, VPD_BLOCK_LIMITS, page, sizeof(page), &res) == 0 && page[3] >= 0x1c) {
		*max_blocks = (uint32_t)page[20] << 24 | (uint32_t)page[21] << 16 | (uint32_t)page[22] << 8 | page[23];
		*max_descriptors = (uint32_t)page[24] << 24 | (uint32_t)page[25] << 16 | (uint32_t)page[26] << 8 | page[27];
	}
}

#define UNMAP_MAX_DESCRIPTORS 4095u	/* the parameter list length is 16 bits */

static int scsi_trim(struct device *dev, const struct sector_range *ranges, unsigned int n)
{
	struct scsi_capacity cap;
	struct range_cursor cursor = { 0 };
	struct status_line line;
	uint32_t max_blocks, max_desc;
	uint8_t *param;
	int err;

	if ((err = capacity_or_report(dev, &cap)))
		return err;
	if (!cap.lbpme) {
		complain(" --trim-sector-ranges: the disk does not support UNMAP (no logical block provisioning)\n");
		return EOPNOTSUPP;
	}
	for (unsigned int i = 0; i < n; i++)
		if ((err = check_lba("--trim-sector-ranges", cap.blocks, ranges[i].lba, ranges[i].count)))
			return err;
	unmap_limits(dev, &max_blocks, &max_desc);
	if (!max_desc || max_desc > UNMAP_MAX_DESCRIPTORS)
		max_desc = max_desc ? UNMAP_MAX_DESCRIPTORS : 64;
	if (!max_blocks || max_blocks == UINT32_MAX)
		max_blocks = UINT32_MAX;
	param = malloc(8 + 16 * (size_t)max_desc);
	if (!param)
		return ENOMEM;
	status_begin(&line, !dev->run.json);
	drop_cached_sectors(dev);
	for (;;) {
		struct scsi_result res;
		uint64_t lba, count, total = 0;
		size_t k = 0;

		memset(param, 0, 8 + 16 * (size_t)max_desc);
		while (k < max_desc && total < max_blocks &&
		       next_range_piece(ranges, n, &cursor, max_blocks - total, &lba, &count)) {
			uint8_t *d = param + 8 + 16 * k++;

			for (int b = 0; b < 8; b++)
				d[b] = (uint8_t)(lba >> (56 - 8 * b));
			for (int b = 0; b < 4; b++)
				d[8 + b] = (uint8_t)(count >> (24 - 8 * b));
			total += count;
		}
		if (!k)
			break;
		/* UNMAP DATA LENGTH counts the bytes after itself; the descriptors' length after the header. */
		param[0] = (uint8_t)((6 + 16 * k) >> 8);
		param[1] = (uint8_t)(6 + 16 * k);
		param[2] = (uint8_t)((16 * k) >> 8);
		param[3] = (uint8_t)(16 * k);
		status_clear(&line);
		out("trimming %llu sectors from %zu ranges\n", (unsigned long long)total, k);
		fflush(stdout);
		err = say_outcome(scsi_unmap(dev, param, 8 + 16 * k, &res));
		if (err) {
			status_end(&line);
			report_failure("UNMAP", &res, err);
			break;
		}
		draw_trim_status(&line, range_cursor_done(&cursor, ranges, n), n);
	}
	status_end(&line);
	free(param);
	drop_cached_sectors(dev);
	return err;
}

const struct disk_ops scsi_disk = {
	.kind = "SCSI",
	.scsi = true,
	.op = {
		[DISK_IDENTIFY] = scsi_identify,
		[DISK_IDENTITY] = scsi_identity,
		[DISK_GET_CACHE] = scsi_get_cache,
		[DISK_SET_CACHE] = scsi_set_cache,
		[DISK_FLUSH] = scsi_flush,
		[DISK_POWER_MODE] = scsi_power_mode,
		[DISK_POWER_COMMAND] = scsi_power_command,
		[DISK_STANDBY_TIMER] = scsi_standby_timer,
	},
	.read_sector = scsi_read_sector,
	.trim = scsi_trim,
};
