/*
 * NVMe: Identify, Get/Set Features, Flush, Read and Dataset Management
 * through NVME_IOCTL_ADMIN_CMD and NVME_IOCTL_IO_CMD.  The -I layout
 * follows hdparm's for ATA (sections, the Enabled/Supported table, the
 * device size lines) so that a reader finds things where they expect them;
 * every value comes from the drive.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <linux/nvme_ioctl.h>

#include "array.h"
#include "checks.h"
#include "json.h"
#include "nvme.h"
#include "nvme_identify.h"
#include "progress.h"
#include "ranges.h"
#include "report.h"

enum {
	NVME_ADMIN_IDENTIFY = 0x06,
	NVME_ADMIN_GET_FEATURES = 0x0a,
	NVME_ADMIN_SET_FEATURES = 0x09,
	NVME_IO_FLUSH = 0x00,
	NVME_IO_READ = 0x02,
	NVME_IO_DSM = 0x09,
	NVME_FEAT_POWER_MGMT = 0x02,
	NVME_FEAT_VOLATILE_WC = 0x06,
	NVME_FEAT_APST = 0x0c,
};

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* The NVMe status of a failed command, in words. */
static const char *nvme_status_text(int status)
{
	static char buf[64];
	unsigned int sc = (unsigned int)status & 0xff, sct = ((unsigned int)status >> 8) & 7;
	static const struct {
		unsigned int sct, sc;
		const char *text;
	} texts[] = {
		{ 0, 0x01, "invalid command opcode" }, { 0, 0x02, "invalid field in command" },
		{ 0, 0x04, "data transfer error" }, { 0, 0x06, "internal error" },
		{ 0, 0x0b, "invalid namespace or format" }, { 0, 0x80, "LBA out of range" },
		{ 0, 0x81, "capacity exceeded" }, { 0, 0x82, "namespace not ready" },
		{ 1, 0x0d, "feature identifier not saveable" }, { 1, 0x0e, "feature not changeable" },
		{ 1, 0x0f, "feature not namespace specific" },
		{ 2, 0x80, "write fault" }, { 2, 0x81, "unrecovered read error" },
		{ 2, 0x82, "end-to-end guard check error" }, { 2, 0x86, "access denied" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++)
		if (texts[i].sct == sct && texts[i].sc == sc) {
			snprintf(buf, sizeof(buf), "%s (NVMe status 0x%03x)", texts[i].text, (unsigned int)status & 0x7ff);
			return buf;
		}
	snprintf(buf, sizeof(buf), "NVMe status 0x%03x", (unsigned int)status & 0x7ff);
	return buf;
}

/* Run one command; on failure print " WHAT failed: why" and return an errno. */
static int nvme_cmd(struct device *dev, unsigned long req, struct nvme_passthru_cmd *cmd, const char *what)
{
	int rc = ioctl(dev->fd, req, cmd);

	if (rc == 0)
		return 0;
	if (rc < 0) {
		int err = errno;

		complain(" %s failed: %s\n", what, strerror(err));
		return err;
	}
	complain(" %s failed: %s\n", what, nvme_status_text(rc));
	return EIO;
}

static int identify(struct device *dev, uint32_t cns, uint32_t nsid, void *buf, bool quiet)
{
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_ADMIN_IDENTIFY,
		.nsid = nsid,
		.addr = (uint64_t)(uintptr_t)buf,
		.data_len = NVME_IDENTIFY_BYTES,
		.cdw10 = cns,
	};

	memset(buf, 0, NVME_IDENTIFY_BYTES);
	if (quiet)
		return ioctl(dev->fd, NVME_IOCTL_ADMIN_CMD, &cmd) ? EIO : 0;
	return nvme_cmd(dev, NVME_IOCTL_ADMIN_CMD, &cmd, cns == 1 ? "NVMe Identify Controller" : "NVMe Identify Namespace");
}

/* Get Features: the result dword, or -1 (reported unless quiet). */
static long get_feature(struct device *dev, uint32_t fid, bool quiet)
{
	/* The features read here belong to the controller: namespace 0. */
	struct nvme_passthru_cmd cmd = { .opcode = NVME_ADMIN_GET_FEATURES, .nsid = 0, .cdw10 = fid };

	if (quiet ? ioctl(dev->fd, NVME_IOCTL_ADMIN_CMD, &cmd) != 0
		  : nvme_cmd(dev, NVME_IOCTL_ADMIN_CMD, &cmd, "NVMe Get Features") != 0)
		return -1;
	return (long)cmd.result;
}

void nvme_detect(struct device *dev)
{
	struct stat st;
	uint8_t *buf;
	int id;

	dev->nvme_nsid = 0;
	if (fstat(dev->fd, &st))
		return;
	if (S_ISBLK(st.st_mode)) {
		id = ioctl(dev->fd, NVME_IOCTL_ID);
		if (id > 0)
			dev->nvme_nsid = (uint32_t)id;
		return;
	}
	if (!S_ISCHR(st.st_mode))
		return;
	/* A controller (/dev/nvmeX): it answers Identify Controller. */
	buf = malloc(NVME_IDENTIFY_BYTES);
	if (buf && identify(dev, 1, 0, buf, true) == 0) {
		dev->nvme_ctrl = true;
		dev->nvme_nsid = le32toh(((const struct nvme_id_ctrl *)buf)->nn) ? 1 : 0;
		if (!dev->nvme_nsid)
			dev->nvme_nsid = 0xffffffff;	/* no namespace: controller-only queries */
	}
	free(buf);
}

/* ---- -I ---- */

/*
 * Room for the controller's and the namespace's Identify pages, with the
 * controller's read; the caller frees both, also on failure.
 */
static int identify_controller(struct device *dev, struct nvme_id_ctrl **ctrl, struct nvme_id_ns **ns)
{
	*ctrl = malloc(sizeof(**ctrl));
	*ns = malloc(sizeof(**ns));
	if (!*ctrl || !*ns)
		return ENOMEM;
	return identify(dev, 1, 0, *ctrl, false);
}

static int nvme_show_identify(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct nvme_id_ctrl *ctrl;
	struct nvme_id_ns *ns;
	int err = identify_controller(dev, &ctrl, &ns);

	if (!err && opt == OPT_ISTDOUT) {
		for (int i = 0; i < NVME_IDENTIFY_BYTES; i += 16) {
			for (int j = 0; j < 16; j += 2)
				out("%04x%c", le16((const uint8_t *)ctrl + i + j), j == 14 ? '\n' : ' ');
		}
	} else if (!err && opt == OPT_IRAW) {
		FILE *f = fopen(s->v[OPT_IRAW].str, "wb");

		if (!f || fwrite(ctrl, 1, NVME_IDENTIFY_BYTES, f) != NVME_IDENTIFY_BYTES) {
			err = errno ? errno : EIO;
			complain_errno(s->v[OPT_IRAW].str);
		}
		if (f && fclose(f) && !err) {
			err = errno;
			complain_errno(s->v[OPT_IRAW].str);
		}
		if (!err)
			complain("Wrote NVMe Identify Controller data to \"%s\"\n", s->v[OPT_IRAW].str);
	} else if (!err) {
		bool have_ns = dev->nvme_nsid != 0xffffffff && identify(dev, 0, dev->nvme_nsid, ns, false) == 0;
		long vwc = (ctrl->vwc & 1) ? get_feature(dev, NVME_FEAT_VOLATILE_WC, true) : -1;
		long apst = (ctrl->apsta & 1) ? get_feature(dev, NVME_FEAT_APST, true) : -1;
		long ps = get_feature(dev, NVME_FEAT_POWER_MGMT, true);
		struct nvme_state state = {
			.write_cache = vwc < 0 ? -1 : (int)(vwc & 1),
			.apst = apst < 0 ? -1 : (int)(apst & 1),
			.power_state = ps < 0 ? -1 : (int)(ps & 0x1f),
		};

		nvme_print_identify(ctrl, have_ns ? ns : NULL, dev->nvme_nsid, &state);
		if (json_active())
			nvme_json_identify(ctrl, have_ns ? ns : NULL, dev->nvme_nsid, &state);
	}
	free(ctrl);
	free(ns);
	return err;
}

/* An Identify string: blanks and NULs at the end removed, control characters escaped. */
static void id_string(char *dst, size_t size, const char *src, size_t len)
{
	device_text((const uint8_t *)src, len, dst, size);
}

static int nvme_show_identity(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct nvme_id_ctrl *ctrl;
	struct nvme_id_ns *ns;
	char model[4 * sizeof(ctrl->mn) + 1], fw[4 * sizeof(ctrl->fr) + 1], serial[4 * sizeof(ctrl->sn) + 1];
	int err = identify_controller(dev, &ctrl, &ns);

	(void)s;
	(void)opt;
	if (!err) {
		id_string(model, sizeof(model), ctrl->mn, sizeof(ctrl->mn));
		id_string(fw, sizeof(fw), ctrl->fr, sizeof(ctrl->fr));
		id_string(serial, sizeof(serial), ctrl->sn, sizeof(ctrl->sn));
		out("\n Model=%s, FwRev=%s, SerialNo=%s\n", model, fw, serial);
		if (dev->nvme_nsid != 0xffffffff && identify(dev, 0, dev->nvme_nsid, ns, false) == 0)
			out(" Namespace=%u, Sectors=%llu, SectSize=%llu\n", dev->nvme_nsid,
			    (unsigned long long)le64toh(ns->nsze), (unsigned long long)nvme_lba_bytes(nvme_ns_format(ns)));
		out("\n");
	}
	free(ctrl);
	free(ns);
	return err;
}

/* ---- power, cache, flush ---- */

static int nvme_power_mode(struct device *dev, const struct settings *s, enum opt_id opt)
{
	long ps = get_feature(dev, NVME_FEAT_POWER_MGMT, false);
	struct nvme_id_ctrl *ctrl;

	(void)s;
	(void)opt;
	if (ps < 0) {
		out(" drive state is:  unknown\n");
		return EIO;
	}
	ps &= 0x1f;
	json_uint("power_state", (uint64_t)ps);
	ctrl = malloc(sizeof(*ctrl));
	if (ctrl && identify(dev, 1, 0, ctrl, false) == 0 && (ctrl->psd[ps].flags & NVME_PS_NOPS)) {
		json_string("power_mode", "non-operational");
		out(" drive state is:  non-operational (power state %ld)\n", ps);
	} else {
		json_string("power_mode", "active/idle");
		out(" drive state is:  active/idle\n");
	}
	free(ctrl);
	return 0;
}

static int nvme_get_write_cache(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct nvme_id_ctrl *ctrl;
	long wce;
	int err;

	(void)s;
	if (opt != OPT_WCACHE)	/* NVMe has no read look-ahead to switch */
		return refuse_on_this_disk(dev, opt);
	ctrl = malloc(sizeof(*ctrl));
	err = ctrl ? identify(dev, 1, 0, ctrl, false) : ENOMEM;
	if (!err && !(ctrl->vwc & 1)) {
		json_object_begin("write_cache");
		json_bool("supported", false);
		json_bool("enabled", false);
		json_object_end();
		out(" write-caching = not supported\n");
	} else if (!err) {
		wce = get_feature(dev, NVME_FEAT_VOLATILE_WC, false);
		if (wce < 0) {
			err = EIO;
		} else {
			json_object_begin("write_cache");
			json_bool("supported", true);
			json_bool("enabled", wce & 1);
			json_object_end();
			out(" write-caching = %2ld", wce & 1);
			print_on_off((unsigned long)(wce & 1));
		}
	}
	free(ctrl);
	return err;
}

static int flush_namespace(struct device *dev)
{
	struct nvme_passthru_cmd cmd = { .opcode = NVME_IO_FLUSH, .nsid = dev->nvme_nsid, .timeout_ms = 60000 };

	return nvme_cmd(dev, NVME_IOCTL_IO_CMD, &cmd, "NVMe Flush");
}

static int nvme_set_write_cache(struct device *dev, const struct settings *s, enum opt_id opt)
{
	unsigned int on = (unsigned int)s->v[opt].num;
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_ADMIN_SET_FEATURES,
		.nsid = 0,	/* the volatile write cache is the controller's */
		.cdw10 = NVME_FEAT_VOLATILE_WC,
		.cdw11 = on,
	};

	if (opt != OPT_WCACHE)
		return refuse_on_this_disk(dev, opt);
	if (s->v[opt].noisy) {
		out(" setting drive write-caching to %u", on);
		print_on_off(on);
	}
	if (!on) {
		int err = flush_namespace(dev);

		if (err)
			return err;
	}
	return nvme_cmd(dev, NVME_IOCTL_ADMIN_CMD, &cmd, "NVMe Set Features (volatile write cache)");
}

static int nvme_flush(struct device *dev, const struct settings *s, enum opt_id opt)
{
	(void)s;
	(void)opt;
	return flush_namespace(dev);
}

/* ---- sectors ---- */

/* The namespace's size in LBAs and the LBA size, or an errno. */
static int namespace_geometry(struct device *dev, uint64_t *nlba, unsigned int *lba_bytes)
{
	struct nvme_id_ns *ns = malloc(sizeof(*ns));
	int err = ns ? identify(dev, 0, dev->nvme_nsid, ns, false) : ENOMEM;

	if (!err) {
		unsigned int lbads = nvme_ns_format(ns)->lbads;

		*nlba = le64toh(ns->nsze);
		*lba_bytes = lbads >= 9 && lbads <= 16 ? 1u << lbads : 0;
		if (!*lba_bytes) {
			complain(" NVMe namespace reports an LBA size of 2^%u bytes: not supported\n", lbads);
			err = EOPNOTSUPP;
		}
	}
	free(ns);
	return err;
}

static int nvme_read_sector(struct device *dev, uint64_t lba)
{
	uint64_t nlba;
	unsigned int bytes;
	uint8_t *buf;
	int err = namespace_geometry(dev, &nlba, &bytes);

	if (err)
		return err;
	if (lba >= nlba) {
		complain(" --read-sector %llu: beyond the end of the namespace (%llu sectors)\n",
			(unsigned long long)lba, (unsigned long long)nlba);
		return EINVAL;
	}
	buf = calloc(1, bytes);
	if (!buf)
		return ENOMEM;
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_IO_READ,
		.nsid = dev->nvme_nsid,
		.addr = (uint64_t)(uintptr_t)buf,
		.data_len = bytes,
		.cdw10 = (uint32_t)lba,
		.cdw11 = (uint32_t)(lba >> 32),
		.cdw12 = 0,	/* one block (0-based count) */
		.timeout_ms = 60000,
	};
	out("reading sector %llu: ", (unsigned long long)lba);
	fflush(stdout);
	err = nvme_cmd(dev, NVME_IOCTL_IO_CMD, &cmd, "--read-sector");
	out(err ? "FAILED\n" : "succeeded\n");
	if (!err)
		dump_sector(buf, bytes);
	free(buf);
	return err;
}

/* Dataset Management, deallocate: 16-byte ranges, at most 256 per command. */
static int nvme_trim(struct device *dev, const struct sector_range *ranges, unsigned int n)
{
	uint64_t nlba;
	unsigned int bytes;
	uint8_t *buf;
	int err = namespace_geometry(dev, &nlba, &bytes);

	if (err)
		return err;
	for (unsigned int i = 0; i < n; i++) {
		if (ranges[i].lba >= nlba || ranges[i].count > nlba - ranges[i].lba) {
			complain(" --trim-sector-ranges %llu: beyond the end of the namespace (%llu sectors)\n",
				(unsigned long long)ranges[i].lba, (unsigned long long)nlba);
			return EINVAL;
		}
	}
	buf = malloc(NVME_DSM_BYTES);
	if (!buf)
		return ENOMEM;
	struct range_cursor cursor = { 0 };
	struct status_line line;

	status_begin(&line, !dev->run.json);
	/* What the page cache holds of the trimmed sectors must not be read back as if still there. */
	drop_cached_sectors(dev);
	while (!err) {
		uint64_t sectors;
		unsigned int entries = nvme_dsm_ranges(ranges, n, &cursor, buf, &sectors);

		if (!entries)
			break;
		struct nvme_passthru_cmd cmd = {
			.opcode = NVME_IO_DSM,
			.nsid = dev->nvme_nsid,
			.addr = (uint64_t)(uintptr_t)buf,
			.data_len = 16 * entries,
			.cdw10 = entries - 1,
			.cdw11 = 1u << 2,	/* AD: deallocate */
			.timeout_ms = 300000,
		};
		status_clear(&line);
		out("trimming %llu sectors from %u ranges\n", (unsigned long long)sectors, entries);
		fflush(stdout);
		err = nvme_cmd(dev, NVME_IOCTL_IO_CMD, &cmd, "NVMe Dataset Management (deallocate)");
		out(err ? "FAILED\n" : "succeeded\n");
		if (!err)
			draw_trim_status(&line, range_cursor_done(&cursor, ranges, n), n);
	}
	status_end(&line);
	free(buf);
	drop_cached_sectors(dev);
	return err;
}

const struct disk_ops nvme_disk = {
	.kind = "NVMe",
	.op = {
		[DISK_IDENTIFY] = nvme_show_identify,
		[DISK_IDENTITY] = nvme_show_identity,
		[DISK_GET_CACHE] = nvme_get_write_cache,
		[DISK_SET_CACHE] = nvme_set_write_cache,
		[DISK_FLUSH] = nvme_flush,
		[DISK_POWER_MODE] = nvme_power_mode,
	},
	.read_sector = nvme_read_sector,
	.trim = nvme_trim,
};
