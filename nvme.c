/*
 * NVMe: Identify, Get/Set Features, Flush, Read and Dataset Management
 * through NVME_IOCTL_ADMIN_CMD and NVME_IOCTL_IO_CMD.  The -I layout
 * follows hdparm's for ATA (sections, the Enabled/Supported table, the
 * device size lines) so that a reader finds things where they expect them;
 * every value comes from the drive.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include <linux/nvme_ioctl.h>

#include "array.h"
#include "json.h"
#include "nvme.h"
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

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
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

static int identify(struct device *dev, uint32_t cns, uint32_t nsid, uint8_t *buf, bool quiet)
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
		dev->nvme_nsid = le32(buf + 516) ? 1 : 0;
		if (!dev->nvme_nsid)
			dev->nvme_nsid = 0xffffffff;	/* no namespace: controller-only queries */
	}
	free(buf);
}

/* ---- -I ---- */

static void print_text(const char *label, const uint8_t *p, size_t len)
{
	size_t n = len;

	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\0'))
		n--;
	out("\t%-20s%.*s\n", label, (int)n, (const char *)p);
}

struct nvme_feature {
	const char *text;
	uint16_t offset;	/* in Identify Controller */
	uint8_t bytes;
	uint32_t mask;
};

static const struct nvme_feature nvme_features[] = {
	{ "Volatile write cache", 525, 1, 0x01 },
	{ "Compare", 520, 2, 0x0001 },
	{ "Write Uncorrectable", 520, 2, 0x0002 },
	{ "Dataset Management (deallocate)", 520, 2, 0x0004 },
	{ "Write Zeroes", 520, 2, 0x0008 },
	{ "Save/Select in Get/Set Features", 520, 2, 0x0010 },
	{ "Reservations", 520, 2, 0x0020 },
	{ "Timestamp", 520, 2, 0x0040 },
	{ "Verify", 520, 2, 0x0080 },
	{ "Security Send/Receive", 256, 2, 0x0001 },
	{ "Format NVM", 256, 2, 0x0002 },
	{ "Firmware Download/Commit", 256, 2, 0x0004 },
	{ "Namespace Management", 256, 2, 0x0008 },
	{ "Device Self-test", 256, 2, 0x0010 },
	{ "Directives", 256, 2, 0x0020 },
	{ "NVMe-MI Send/Receive", 256, 2, 0x0040 },
	{ "Virtualization Management", 256, 2, 0x0080 },
	{ "Doorbell Buffer Config", 256, 2, 0x0100 },
	{ "Sanitize: Crypto Erase", 328, 2, 0x0001 },
	{ "Sanitize: Block Erase", 328, 2, 0x0002 },
	{ "Sanitize: Overwrite", 328, 2, 0x0004 },
	{ "Autonomous Power State Transitions", 265, 1, 0x01 },
	{ "Host Memory Buffer", 272, 4, 0xffffffff },
};

static void print_power_state(const uint8_t *psd, unsigned int index, bool current)
{
	unsigned int mp = le16(psd);
	bool nonop = psd[3] & 2;

	out("\t   %c\tPS%u: max ", current ? '*' : ' ', index);
	if (psd[3] & 1)		/* MXPS: units of 0.0001 W instead of 0.01 W */
		out("%u.%04u W", mp / 10000, mp % 10000);
	else
		out("%u.%02u W", mp / 100, mp % 100);
	out(", entry latency %u us, exit latency %u us, %s\n", le32(psd + 4), le32(psd + 8),
	       nonop ? "non-operational" : "operational");
}

void nvme_print_identify(const uint8_t *ctrl, const uint8_t *ns, uint32_t nsid, const struct nvme_state *state)
{
	uint32_t ver = le32(ctrl + 80), nn = le32(ctrl + 516);
	unsigned int mdts = ctrl[77], npss = ctrl[263], frmw = ctrl[260];
	unsigned int wctemp = le16(ctrl + 266), cctemp = le16(ctrl + 268);

	out("\nNVMe device\n");
	print_text("Model Number:", ctrl + 24, 40);
	print_text("Serial Number:", ctrl + 4, 20);
	print_text("Firmware Revision:", ctrl + 64, 8);
	out("\t%-20sPCIe NVMe, ", "Transport:");
	if (ver && (ver & 0xff))
		out("NVM Express %u.%u.%u", ver >> 16, (ver >> 8) & 0xff, ver & 0xff);
	else if (ver)
		out("NVM Express %u.%u", ver >> 16, (ver >> 8) & 0xff);
	else
		out("NVM Express 1.0 or 1.1 (version not reported)");
	out_char('\n');

	out("Configuration:\n");
	if (ns) {
		unsigned int nlbaf = ns[25], current = ns[26] & 0x0f;
		uint64_t nsze = le64(ns), ncap = le64(ns + 8), nuse = le64(ns + 16);
		unsigned int lbads = ns[128 + 4 * current + 2];
		uint64_t lba_bytes = lbads >= 9 && lbads < 32 ? 1ULL << lbads : 0;
		uint64_t bytes = nsze * lba_bytes;

		out("\tNamespace:          %u (of %u)\n", nsid, nn);
		out("\tNamespace size:        %12llu sectors\n", (unsigned long long)nsze);
		out("\tNamespace capacity:    %12llu sectors\n", (unsigned long long)ncap);
		out("\tNamespace utilization: %12llu sectors\n", (unsigned long long)nuse);
		out("\tLBA formats:\n");
		for (unsigned int i = 0; i <= nlbaf && i < 16; i++) {
			const uint8_t *f = ns + 128 + 4 * i;
			static const char *const perf[4] = { "best", "better", "good", "degraded" };

			out("\t   %c\t%2u: %6llu bytes data, %3u bytes metadata, relative performance %u (%s)\n",
			       i == current ? '*' : ' ', i, f[2] < 32 ? 1ULL << f[2] : 0ULL, le16(f), (unsigned int)(f[3] & 3), perf[f[3] & 3]);
		}
		out("\t%-31s %11llu bytes\n", "Logical  Sector size:", (unsigned long long)lba_bytes);
		out("\tdevice size with M = 1024*1024: %11llu MBytes\n", (unsigned long long)(bytes / (1024ull * 1024ull)));
		out("\tdevice size with M = 1000*1000: %11llu MBytes", (unsigned long long)(bytes / 1000000ull));
		if (bytes / 1000ull > 1000ull)
			out(" (%llu GB)", (unsigned long long)(bytes / 1000000000ull));
		out_char('\n');
	} else {
		out("\tNamespaces:         %u (none active)\n", nn);
	}

	out("Capabilities:\n");
	if (mdts)
		out("\tMax data transfer size: %u memory pages (MDTS %u)\n", 1u << (mdts > 31 ? 31 : mdts), mdts);
	else
		out("\tMax data transfer size: no limit (MDTS 0)\n");
	out("\tNumber of namespaces: %u\n", nn);
	out("\tPower states: %u (current marked *)\n", npss + 1);
	for (unsigned int i = 0; i <= npss && i < 32; i++)
		print_power_state(ctrl + 2048 + 32 * i, i, (int)i == state->power_state);

	out("Commands/features:\n\tEnabled\tSupported:\n");
	for (size_t i = 0; i < ARRAY_SIZE(nvme_features); i++) {
		const struct nvme_feature *f = &nvme_features[i];
		uint32_t v = f->bytes == 1 ? ctrl[f->offset] : f->bytes == 2 ? le16(ctrl + f->offset) : le32(ctrl + f->offset);
		bool enabled = true;

		if (!(v & f->mask))
			continue;
		if (f->offset == 525)
			enabled = state->write_cache > 0;
		else if (f->offset == 265)
			enabled = state->apst > 0;
		out("\t   %c\t%s", enabled ? '*' : ' ', f->text);
		if (f->offset == 256 && f->mask == 0x0004)
			out(" (%u slot%s%s)", (frmw >> 1) & 7, ((frmw >> 1) & 7) == 1 ? "" : "s",
			       (frmw & 1) ? ", slot 1 read-only" : "");
		if (f->offset == 272)
			out(" (preferred %u KiB, minimum %u KiB)", le32(ctrl + 272) * 4, le32(ctrl + 276) * 4);
		out_char('\n');
	}
	if (wctemp || cctemp) {
		out("Temperature thresholds:\n");
		if (wctemp)
			out("\tWarning:  %u K (%d C)\n", wctemp, (int)wctemp - 273);
		if (cctemp)
			out("\tCritical: %u K (%d C)\n", cctemp, (int)cctemp - 273);
	}
}

static void json_text(const char *key, const uint8_t *p, size_t len)
{
	size_t n = len;

	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\0'))
		n--;
	json_stringn(key, (const char *)p, n);
}

/* The "identify" object of --json for an NVMe drive. */
static void nvme_json_identify(const uint8_t *ctrl, const uint8_t *ns, uint32_t nsid, const struct nvme_state *state)
{
	uint32_t ver = le32(ctrl + 80);

	json_object_begin("identify");
	json_string("device_type", "nvme");
	json_text("model_name", ctrl + 24, 40);
	json_text("serial_number", ctrl + 4, 20);
	json_text("firmware_version", ctrl + 64, 8);
	json_object_begin("nvme_version");
	json_uint("major", ver >> 16);
	json_uint("minor", (ver >> 8) & 0xff);
	json_uint("tertiary", ver & 0xff);
	json_object_end();
	json_uint("number_of_namespaces", le32(ctrl + 516));
	if (ns) {
		unsigned int current = ns[26] & 0x0f, lbads = ns[128 + 4 * current + 2];
		uint64_t lba_bytes = lbads < 32 ? 1ULL << lbads : 0;

		json_uint("namespace", nsid);
		json_object_begin("user_capacity");
		json_uint("blocks", le64(ns));
		if (lba_bytes && le64(ns) <= UINT64_MAX / lba_bytes)
			json_uint("bytes", le64(ns) * lba_bytes);
		else
			json_null("bytes");
		json_object_end();
		json_uint("namespace_capacity", le64(ns + 8));
		json_uint("namespace_utilization", le64(ns + 16));
		json_uint("logical_block_size", lba_bytes);
		json_array_begin("lba_formats");
		for (unsigned int i = 0; i <= ns[25] && i < 16; i++) {
			const uint8_t *f = ns + 128 + 4 * i;

			json_object_begin(NULL);
			json_uint("data_bytes", f[2] < 32 ? 1ULL << f[2] : 0);
			json_uint("metadata_bytes", le16(f));
			json_uint("relative_performance", f[3] & 3);
			json_bool("current", i == current);
			json_object_end();
		}
		json_array_end();
	}
	json_array_begin("power_states");
	for (unsigned int i = 0; i <= ctrl[263] && i < 32; i++) {
		const uint8_t *psd = ctrl + 2048 + 32 * i;

		json_object_begin(NULL);
		json_fixed("max_power_watts", le16(psd) / ((psd[3] & 1) ? 10000.0 : 100.0), 4);
		json_uint("entry_latency_us", le32(psd + 4));
		json_uint("exit_latency_us", le32(psd + 8));
		json_bool("operational", !(psd[3] & 2));
		json_bool("current", (int)i == state->power_state);
		json_object_end();
	}
	json_array_end();
	json_object_begin("write_cache");
	json_bool("supported", ctrl[525] & 1);
	json_bool("enabled", state->write_cache > 0);
	json_object_end();
	json_array_begin("features");
	for (size_t i = 0; i < ARRAY_SIZE(nvme_features); i++) {
		const struct nvme_feature *f = &nvme_features[i];
		uint32_t v = f->bytes == 1 ? ctrl[f->offset] : f->bytes == 2 ? le16(ctrl + f->offset) : le32(ctrl + f->offset);

		if (!(v & f->mask))
			continue;
		json_object_begin(NULL);
		json_string("name", f->text);
		json_bool("supported", true);
		json_bool("enabled", f->offset == 525 ? state->write_cache > 0 : f->offset == 265 ? state->apst > 0 : true);
		json_object_end();
	}
	json_array_end();
	json_object_end();
}

/*
 * Room for the controller's and the namespace's Identify pages, with the
 * controller's read; the caller frees both, also on failure.
 */
static int identify_controller(struct device *dev, uint8_t **ctrl, uint8_t **ns)
{
	*ctrl = malloc(NVME_IDENTIFY_BYTES);
	*ns = malloc(NVME_IDENTIFY_BYTES);
	if (!*ctrl || !*ns)
		return ENOMEM;
	return identify(dev, 1, 0, *ctrl, false);
}

static int nvme_show_identify(struct device *dev, const struct settings *s, enum opt_id opt)
{
	uint8_t *ctrl, *ns;
	int err = identify_controller(dev, &ctrl, &ns);

	if (!err && opt == OPT_ISTDOUT) {
		for (int i = 0; i < NVME_IDENTIFY_BYTES; i += 16) {
			for (int j = 0; j < 16; j += 2)
				out("%04x%c", le16(ctrl + i + j), j == 14 ? '\n' : ' ');
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
		long vwc = (ctrl[525] & 1) ? get_feature(dev, NVME_FEAT_VOLATILE_WC, true) : -1;
		long apst = (ctrl[265] & 1) ? get_feature(dev, NVME_FEAT_APST, true) : -1;
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

static int nvme_show_identity(struct device *dev, const struct settings *s, enum opt_id opt)
{
	uint8_t *ctrl, *ns;
	char model[41], fw[9], serial[21];
	int err = identify_controller(dev, &ctrl, &ns);

	(void)s;
	(void)opt;
	if (!err) {
		const struct {
			char *dst;
			int offset, len;
		} f[3] = { { model, 24, 40 }, { fw, 64, 8 }, { serial, 4, 20 } };

		for (int i = 0; i < 3; i++) {
			int n = f[i].len;

			memcpy(f[i].dst, ctrl + f[i].offset, (size_t)n);
			while (n > 0 && (f[i].dst[n - 1] == ' ' || f[i].dst[n - 1] == '\0'))
				n--;
			f[i].dst[n] = '\0';
		}
		out("\n Model=%s, FwRev=%s, SerialNo=%s\n", model, fw, serial);
		if (dev->nvme_nsid != 0xffffffff && identify(dev, 0, dev->nvme_nsid, ns, false) == 0) {
			unsigned int lbads = ns[128 + 4 * (ns[26] & 0x0f) + 2];

			out(" Namespace=%u, Sectors=%llu, SectSize=%llu\n", dev->nvme_nsid, (unsigned long long)le64(ns),
			       lbads < 32 ? 1ULL << lbads : 0ULL);
		}
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
	uint8_t *ctrl;

	(void)s;
	(void)opt;
	if (ps < 0) {
		out(" drive state is:  unknown\n");
		return EIO;
	}
	ps &= 0x1f;
	json_uint("power_state", (uint64_t)ps);
	ctrl = malloc(NVME_IDENTIFY_BYTES);
	if (ctrl && identify(dev, 1, 0, ctrl, false) == 0 && (ctrl[2048 + 32 * ps + 3] & 2)) {
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
	uint8_t *ctrl;
	long wce;
	int err;

	(void)s;
	if (opt != OPT_WCACHE)	/* NVMe has no read look-ahead to switch */
		return refuse_on_this_disk(dev, opt);
	ctrl = malloc(NVME_IDENTIFY_BYTES);
	err = ctrl ? identify(dev, 1, 0, ctrl, false) : ENOMEM;
	if (!err && !(ctrl[525] & 1)) {
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
	uint8_t *ns = malloc(NVME_IDENTIFY_BYTES);
	int err = ns ? identify(dev, 0, dev->nvme_nsid, ns, false) : ENOMEM;

	if (!err) {
		unsigned int lbads = ns[128 + 4 * (ns[26] & 0x0f) + 2];

		*nlba = le64(ns);
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
	buf = malloc(4096);
	if (!buf)
		return ENOMEM;
	struct range_cursor cursor = { 0 };
	struct status_line line;
	uint64_t lba, count;

	status_begin(&line, !dev->run.json);
	while (!err) {
		unsigned int entries = 0;
		uint64_t sectors = 0;

		memset(buf, 0, 4096);
		/* A range entry holds at most 2^32-1 blocks: longer ranges take several. */
		while (entries < 256 && next_range_piece(ranges, n, &cursor, 0xffffffffULL, &lba, &count)) {
			uint8_t *e = buf + 16 * entries++;

			for (int b = 0; b < 4; b++)
				e[4 + b] = (uint8_t)(count >> (8 * b));
			for (int b = 0; b < 8; b++)
				e[8 + b] = (uint8_t)(lba >> (8 * b));
			sectors += count;
		}
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
