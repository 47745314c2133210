/*
 * Identify Controller and Identify Namespace, decoded: -I's text, and the
 * "identify" object of --json (smartctl's keys where smartctl has one).
 * Pure functions of the pages and the feature state they are given.
 */
#include <endian.h>
#include <stdio.h>
#include <string.h>

#include "array.h"
#include "json.h"
#include "nvme_health.h"
#include "nvme_identify.h"
#include "report.h"
#include "unaligned.h"

/* An Identify string, its control characters escaped (a device must not drive the terminal). */
static void print_text(const char *label, const char *p, size_t len)
{
	char text[4 * 64 + 1];

	device_text((const uint8_t *)p, len, text, sizeof(text));
	out("\t%-20s%s\n", label, text);
}

/* Where a feature row takes its "enabled" mark, and what it adds to its line. */
enum feature_extra { EXTRA_NONE, EXTRA_WRITE_CACHE, EXTRA_APST, EXTRA_FIRMWARE_SLOTS, EXTRA_HMB_SIZES };

struct nvme_feature {
	const char *text;
	uint16_t offset;	/* of the field in Identify Controller */
	uint8_t bytes;
	uint32_t mask;
	enum feature_extra extra;
};

#define FIELD(name) offsetof(struct nvme_id_ctrl, name), sizeof(((struct nvme_id_ctrl *)0)->name)

static const struct nvme_feature nvme_features[] = {
	{ "Volatile write cache", FIELD(vwc), 0x01, EXTRA_WRITE_CACHE },
	{ "Compare", FIELD(oncs), 0x0001, EXTRA_NONE },
	{ "Write Uncorrectable", FIELD(oncs), 0x0002, EXTRA_NONE },
	{ "Dataset Management (deallocate)", FIELD(oncs), 0x0004, EXTRA_NONE },
	{ "Write Zeroes", FIELD(oncs), 0x0008, EXTRA_NONE },
	{ "Save/Select in Get/Set Features", FIELD(oncs), 0x0010, EXTRA_NONE },
	{ "Reservations", FIELD(oncs), 0x0020, EXTRA_NONE },
	{ "Timestamp", FIELD(oncs), 0x0040, EXTRA_NONE },
	{ "Verify", FIELD(oncs), 0x0080, EXTRA_NONE },
	{ "Security Send/Receive", FIELD(oacs), 0x0001, EXTRA_NONE },
	{ "Format NVM", FIELD(oacs), 0x0002, EXTRA_NONE },
	{ "Firmware Download/Commit", FIELD(oacs), 0x0004, EXTRA_FIRMWARE_SLOTS },
	{ "Namespace Management", FIELD(oacs), 0x0008, EXTRA_NONE },
	{ "Device Self-test", FIELD(oacs), 0x0010, EXTRA_NONE },
	{ "Directives", FIELD(oacs), 0x0020, EXTRA_NONE },
	{ "NVMe-MI Send/Receive", FIELD(oacs), 0x0040, EXTRA_NONE },
	{ "Virtualization Management", FIELD(oacs), 0x0080, EXTRA_NONE },
	{ "Doorbell Buffer Config", FIELD(oacs), 0x0100, EXTRA_NONE },
	/* SANICAP is 32 bits; its low 16 hold the methods. */
	{ "Sanitize: Crypto Erase", offsetof(struct nvme_id_ctrl, sanicap), 2, 0x0001, EXTRA_NONE },
	{ "Sanitize: Block Erase", offsetof(struct nvme_id_ctrl, sanicap), 2, 0x0002, EXTRA_NONE },
	{ "Sanitize: Overwrite", offsetof(struct nvme_id_ctrl, sanicap), 2, 0x0004, EXTRA_NONE },
	{ "Autonomous Power State Transitions", FIELD(apsta), 0x01, EXTRA_APST },
	{ "Host Memory Buffer", FIELD(hmpre), 0xffffffff, EXTRA_HMB_SIZES },
};

static bool feature_supported(const struct nvme_id_ctrl *c, const struct nvme_feature *f)
{
	const uint8_t *p = (const uint8_t *)c + f->offset;
	uint32_t v = 0;

	for (unsigned int i = 0; i < f->bytes; i++)
		v |= (uint32_t)p[i] << (8 * i);
	return v & f->mask;
}

static bool feature_enabled(const struct nvme_feature *f, const struct nvme_state *state)
{
	if (f->extra == EXTRA_WRITE_CACHE)
		return state->write_cache > 0;
	if (f->extra == EXTRA_APST)
		return state->apst > 0;
	return true;
}

const char *nvme_power_text(const struct nvme_power_state *psd, char *buf, size_t size)
{
	unsigned int mp = le16toh(psd->mp);

	if (psd->flags & NVME_PS_MXPS)	/* units of 0.0001 W instead of 0.01 W */
		snprintf(buf, size, "%u.%04u W", mp / 10000, mp % 10000);
	else
		snprintf(buf, size, "%u.%02u W", mp / 100, mp % 100);
	return buf;
}

double nvme_power_watts(const struct nvme_power_state *psd)
{
	return le16toh(psd->mp) / ((psd->flags & NVME_PS_MXPS) ? 10000.0 : 100.0);
}

static void print_power_state(const struct nvme_power_state *psd, unsigned int index, bool current)
{
	char watts[24];

	out("\t   %c\tPS%u: max %s, entry latency %u us, exit latency %u us, %s\n", current ? '*' : ' ', index,
	    nvme_power_text(psd, watts, sizeof(watts)), le32toh(psd->enlat), le32toh(psd->exlat),
	    (psd->flags & NVME_PS_NOPS) ? "non-operational" : "operational");
}

/* The APST entries that move the controller on: from which state, after how long idle, to which. */
/* "1, 2, 3": the protection information types DPC says the namespace can take ("" none). */
static const char *pi_types(uint8_t dpc, char *buf, size_t size)
{
	buf[0] = '\0';
	for (unsigned int t = 0; t < 3; t++)
		if (dpc & (1u << t))
			snprintf(buf + strlen(buf), size - strlen(buf), "%s%u", buf[0] ? ", " : "", t + 1);
	return buf;
}

/* DPS: the type in use, where in the metadata it is, and where the metadata is (FLBAS). */
static void print_protection(const struct nvme_id_ns *ns)
{
	unsigned int type = ns->dps & NVME_DPS_TYPE_MASK, ms = le16toh(ns->lbaf[ns->flbas & 0x0f].ms);
	char types[16];

	pi_types(ns->dpc, types, sizeof(types));
	if (!type)
		out("\tProtection information: none");
	else
		out("\tProtection information: type %u, the %s 8 of %u metadata bytes, %s", type,
		    ns->dps & NVME_DPS_FIRST ? "first" : "last", ms,
		    ns->flbas & NVME_FLBAS_EXTENDED ? "at the end of each block" : "in a separate buffer");
	if (types[0])
		out(" (the namespace can take type %s)", types);
	out_char('\n');
}

static void print_apst_table(const uint8_t *table, unsigned int npss)
{
	bool any = false;

	for (unsigned int i = 0; table && i <= npss && i < NVME_APST_ENTRIES; i++) {
		uint64_t e = get_le64(table + 8 * i);

		if (!NVME_APST_ITPT(e))
			continue;
		if (!any)
			out("\tAPST transitions (idle time, then the state entered):\n");
		any = true;
		out("\t\tPS%u: after %u ms idle, to PS%u\n", i, (unsigned int)NVME_APST_ITPT(e), NVME_APST_ITPS(e));
	}
	if (table && !any)
		out("\tAPST transitions: none programmed\n");
}

/* Slot n's revision (1-based) from the log, in buf ("": empty). */
static const char *slot_revision(const struct nvme_fw_slot_log *log, unsigned int n, char *buf, size_t size)
{
	size_t len = 0;
	const char *frs = log->frs[n - 1];

	while (len < sizeof(log->frs[0]) && frs[len] >= 0x20 && frs[len] < 0x7f)
		len++;
	while (len && frs[len - 1] == ' ')
		len--;
	snprintf(buf, size, "%.*s", (int)len, frs);
	return buf;
}

/* Each slot's firmware, the one running and the one that runs after the next reset (FRMW, log 03h). */
static void print_firmware_slots(unsigned int frmw, const struct nvme_fw_slot_log *log)
{
	unsigned int active = log ? log->afi & 7 : 0, next = log ? (log->afi >> 4) & 7 : 0;
	char rev[9];

	if (!log || !NVME_FRMW_SLOTS(frmw))
		return;
	out("Firmware slots:\n");
	for (unsigned int n = 1; n <= NVME_FRMW_SLOTS(frmw); n++) {
		const char *r = slot_revision(log, n, rev, sizeof(rev));

		const char *notes[3] = { n == active ? "running" : NULL, n == next ? "runs after the next reset" : NULL,
					 n == 1 && (frmw & NVME_FRMW_SLOT1_RO) ? "read-only" : NULL };
		const char *sep = " (";

		out("\t%c  slot %u: %s", n == active ? '*' : ' ', n, *r ? r : "empty");
		for (size_t i = 0; i < ARRAY_SIZE(notes); i++)
			if (notes[i]) {
				out("%s%s", sep, notes[i]);
				sep = ", ";
			}
		out("%s\n", *sep == ',' ? ")" : "");
	}
}

static void json_firmware_slots(unsigned int frmw, const struct nvme_fw_slot_log *log)
{
	char rev[9];

	if (!log || !NVME_FRMW_SLOTS(frmw))
		return;
	json_array_begin("firmware_slots");
	for (unsigned int n = 1; n <= NVME_FRMW_SLOTS(frmw); n++) {
		json_object_begin(NULL);
		json_uint("slot", n);
		if (*slot_revision(log, n, rev, sizeof(rev)))
			json_string("revision", rev);
		else
			json_null("revision");
		json_bool("active", n == (log->afi & 7u));
		json_bool("active_after_reset", n == ((log->afi >> 4) & 7u));
		json_bool("read_only", n == 1 && (frmw & NVME_FRMW_SLOT1_RO));
		json_object_end();
	}
	json_array_end();
}

void nvme_print_identify(const struct nvme_id_ctrl *c, const struct nvme_id_ns *ns, uint32_t nsid,
			 const struct nvme_state *state)
{
	uint32_t ver = le32toh(c->ver), nn = le32toh(c->nn);
	unsigned int mdts = c->mdts, npss = c->npss, frmw = c->frmw;
	unsigned int wctemp = le16toh(c->wctemp), cctemp = le16toh(c->cctemp);

	out("\nNVMe device\n");
	print_text("Model Number:", c->mn, sizeof(c->mn));
	print_text("Serial Number:", c->sn, sizeof(c->sn));
	print_text("Firmware Revision:", c->fr, sizeof(c->fr));
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
		unsigned int nlbaf = ns->nlbaf, current = ns->flbas & 0x0f;
		uint64_t nsze = le64toh(ns->nsze), ncap = le64toh(ns->ncap), nuse = le64toh(ns->nuse);
		unsigned int lbads = ns->lbaf[current].lbads;
		uint64_t lba_bytes = lbads >= 9 && lbads < 32 ? 1ULL << lbads : 0;
		uint64_t bytes = nsze * lba_bytes;

		out("\tNamespace:          %u (of %u)\n", nsid, nn);
		out("\tNamespace size:        %12llu sectors\n", (unsigned long long)nsze);
		out("\tNamespace capacity:    %12llu sectors\n", (unsigned long long)ncap);
		out("\tNamespace utilization: %12llu sectors\n", (unsigned long long)nuse);
		out("\tLBA formats:\n");
		for (unsigned int i = 0; i <= nlbaf && i < 16; i++) {
			const struct nvme_lba_format *f = &ns->lbaf[i];
			static const char *const perf[4] = { "best", "better", "good", "degraded" };

			out("\t   %c\t%2u: %6llu bytes data, %3u bytes metadata, relative performance %u (%s)\n",
			    i == current ? '*' : ' ', i, (unsigned long long)nvme_lba_bytes(f), le16toh(f->ms),
			    (unsigned int)(f->rp & 3), perf[f->rp & 3]);
		}
		print_protection(ns);
		out("\t%-31s %11llu bytes\n", "Logical  Sector size:", (unsigned long long)lba_bytes);
		out("\tdevice size with M = 1024*1024: %11llu MBytes\n", (unsigned long long)(bytes / (1024ull * 1024ull)));
		out("\tdevice size with M = 1000*1000: %11llu MBytes", (unsigned long long)(bytes / 1000000ull));
		if (bytes / 1000ull > 1000ull)
			out(" (%llu GB)", (unsigned long long)(bytes / 1000000000ull));
		out_char('\n');
	} else {
		/* A controller's node names no namespace: each namespace's node shows its own. */
		out("\tNamespaces:         %u (%s)\n", nn, nsid == NVME_NSID_ALL ? "this is the controller's node: a namespace's node shows one" : "none active");
	}

	out("Capabilities:\n");
	if (mdts)
		out("\tMax data transfer size: %u memory pages (MDTS %u)\n", 1u << (mdts > 31 ? 31 : mdts), mdts);
	else
		out("\tMax data transfer size: no limit (MDTS 0)\n");
	out("\tNumber of namespaces: %u\n", nn);
	out("\tPower states: %u (current marked *)\n", npss + 1);
	for (unsigned int i = 0; i <= npss && i < 32; i++)
		print_power_state(&c->psd[i], i, (int)i == state->power_state);
	print_apst_table(state->apst_table, npss);

	out("Commands/features:\n\tEnabled\tSupported:\n");
	for (size_t i = 0; i < ARRAY_SIZE(nvme_features); i++) {
		const struct nvme_feature *f = &nvme_features[i];

		if (!feature_supported(c, f))
			continue;
		out("\t   %c\t%s", feature_enabled(f, state) ? '*' : ' ', f->text);
		if (f->extra == EXTRA_FIRMWARE_SLOTS)
			out(" (%u slot%s%s)", (frmw >> 1) & 7, ((frmw >> 1) & 7) == 1 ? "" : "s",
			    (frmw & 1) ? ", slot 1 read-only" : "");
		if (f->extra == EXTRA_HMB_SIZES)
			out(" (preferred %u KiB, minimum %u KiB)", le32toh(c->hmpre) * 4, le32toh(c->hmmin) * 4);
		out_char('\n');
	}
	print_firmware_slots(frmw, state->fw_slots);
	if (wctemp || cctemp) {
		out("Temperature thresholds:\n");
		if (wctemp)
			out("\tWarning:  %u K (%d C)\n", wctemp, (int)wctemp - 273);
		if (cctemp)
			out("\tCritical: %u K (%d C)\n", cctemp, (int)cctemp - 273);
	}
}

static void json_text(const char *key, const char *p, size_t len)
{
	size_t n = len;

	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\0'))
		n--;
	json_stringn(key, p, n);
}

/* {blocks, bytes}, bytes null where they do not fit 64 bits. */
static void json_blocks(const char *key, uint64_t blocks, uint64_t block_bytes)
{
	json_object_begin(key);
	json_uint("blocks", blocks);
	if (block_bytes && blocks <= UINT64_MAX / block_bytes)
		json_uint("bytes", blocks * block_bytes);
	else
		json_null("bytes");
	json_object_end();
}

/* A 128-bit byte count (TNVMCAP, UNVMCAP): smartctl gives it where it is not zero and fits 64 bits. */
static void json_capacity128(const char *key, const uint8_t v[16])
{
	uint64_t low = 0;

	for (int i = 7; i >= 0; i--)
		low = low << 8 | v[i];
	for (int i = 8; i < 16; i++)
		if (v[i])
			return;
	if (low)
		json_uint(key, low);
}

/* smartctl's NVMe keys: the controller's, then the namespace's. */
static void json_smartctl_keys(const struct nvme_id_ctrl *c, const struct nvme_id_ns *ns, uint32_t nsid)
{
	uint32_t ver = le32toh(c->ver);
	char text[24];

	json_object_begin("nvme_pci_vendor");
	json_uint("id", le16toh(c->vid));
	json_uint("subsystem_id", le16toh(c->ssvid));
	json_object_end();
	json_uint("nvme_ieee_oui_identifier", (uint32_t)c->ieee[2] << 16 | (uint32_t)c->ieee[1] << 8 | c->ieee[0]);
	json_capacity128("nvme_total_capacity", c->tnvmcap);
	json_capacity128("nvme_unallocated_capacity", c->unvmcap);
	json_uint("nvme_controller_id", le16toh(c->cntlid));
	if (ver & 0xff)
		snprintf(text, sizeof(text), "%u.%u.%u", ver >> 16, (ver >> 8) & 0xff, ver & 0xff);
	else
		snprintf(text, sizeof(text), "%u.%u", ver >> 16, (ver >> 8) & 0xff);
	json_object_begin("nvme_version");
	json_string("string", text);
	json_uint("value", ver);
	json_uint("major", ver >> 16);
	json_uint("minor", (ver >> 8) & 0xff);
	json_uint("tertiary", ver & 0xff);
	json_object_end();
	json_uint("nvme_number_of_namespaces", le32toh(c->nn));
	if (ns) {
		uint64_t lba_bytes = nvme_lba_bytes(nvme_ns_format(ns));
		static const uint8_t no_eui64[8];

		json_array_begin("nvme_namespaces");
		json_object_begin(NULL);
		json_uint("id", nsid);
		json_blocks("size", le64toh(ns->nsze), lba_bytes);
		json_blocks("capacity", le64toh(ns->ncap), lba_bytes);
		json_blocks("utilization", le64toh(ns->nuse), lba_bytes);
		json_uint("formatted_lba_size", lba_bytes);
		if (memcmp(ns->eui64, no_eui64, sizeof(no_eui64)) != 0) {
			json_object_begin("eui64");
			json_uint("oui", (uint32_t)ns->eui64[0] << 16 | (uint32_t)ns->eui64[1] << 8 | ns->eui64[2]);
			json_uint("ext_id", (uint64_t)ns->eui64[3] << 32 | (uint64_t)ns->eui64[4] << 24 |
						    (uint64_t)ns->eui64[5] << 16 | (uint64_t)ns->eui64[6] << 8 | ns->eui64[7]);
			json_object_end();
		}
		json_object_end();
		json_array_end();
	}
	/* The SMART / Health Information log is mandatory on NVMe: smartctl says so for every controller. */
	json_object_begin("smart_support");
	json_bool("available", true);
	json_bool("enabled", true);
	json_object_end();
}

void nvme_json_identify(const struct nvme_id_ctrl *c, const struct nvme_id_ns *ns, uint32_t nsid,
			const struct nvme_state *state)
{
	json_object_begin("identify");
	json_string("device_type", "nvme");
	json_text("model_name", c->mn, sizeof(c->mn));
	json_text("serial_number", c->sn, sizeof(c->sn));
	json_text("firmware_version", c->fr, sizeof(c->fr));
	json_smartctl_keys(c, ns, nsid);
	json_uint("number_of_namespaces", le32toh(c->nn));
	if (ns) {
		unsigned int current = ns->flbas & 0x0f;
		uint64_t lba_bytes = nvme_lba_bytes(&ns->lbaf[current]);

		json_uint("namespace", nsid);
		json_blocks("user_capacity", le64toh(ns->nsze), lba_bytes);
		json_uint("namespace_capacity", le64toh(ns->ncap));
		json_uint("namespace_utilization", le64toh(ns->nuse));
		json_uint("logical_block_size", lba_bytes);
		json_object_begin("protection_information");
		json_uint("type", ns->dps & NVME_DPS_TYPE_MASK);
		json_bool("first_in_metadata", ns->dps & NVME_DPS_FIRST);
		json_bool("metadata_at_block_end", ns->flbas & NVME_FLBAS_EXTENDED);
		json_array_begin("types_supported");
		for (unsigned int t = 0; t < 3; t++)
			if (ns->dpc & (1u << t))
				json_uint(NULL, t + 1);
		json_array_end();
		json_object_end();
		json_array_begin("lba_formats");
		for (unsigned int i = 0; i <= ns->nlbaf && i < 16; i++) {
			const struct nvme_lba_format *f = &ns->lbaf[i];

			json_object_begin(NULL);
			json_uint("data_bytes", nvme_lba_bytes(f));
			json_uint("metadata_bytes", le16toh(f->ms));
			json_uint("relative_performance", f->rp & 3);
			json_bool("current", i == current);
			json_object_end();
		}
		json_array_end();
	}
	json_array_begin("power_states");
	for (unsigned int i = 0; i <= c->npss && i < 32; i++) {
		const struct nvme_power_state *psd = &c->psd[i];

		json_object_begin(NULL);
		json_fixed("max_power_watts", nvme_power_watts(psd), 4);
		json_uint("entry_latency_us", le32toh(psd->enlat));
		json_uint("exit_latency_us", le32toh(psd->exlat));
		json_bool("operational", !(psd->flags & NVME_PS_NOPS));
		json_bool("current", (int)i == state->power_state);
		if (state->apst_table && NVME_APST_ITPT(get_le64(state->apst_table + 8 * i))) {
			uint64_t e = get_le64(state->apst_table + 8 * i);

			json_object_begin("apst");
			json_uint("idle_ms", NVME_APST_ITPT(e));
			json_uint("to_power_state", NVME_APST_ITPS(e));
			json_object_end();
		}
		json_object_end();
	}
	json_array_end();
	json_object_begin("write_cache");
	json_bool("supported", c->vwc & 1);
	json_bool("enabled", state->write_cache > 0);
	json_object_end();
	json_array_begin("features");
	for (size_t i = 0; i < ARRAY_SIZE(nvme_features); i++) {
		const struct nvme_feature *f = &nvme_features[i];

		if (!feature_supported(c, f))
			continue;
		json_object_begin(NULL);
		json_string("name", f->text);
		json_bool("supported", true);
		json_bool("enabled", feature_enabled(f, state));
		json_object_end();
	}
	json_array_end();
	json_firmware_slots(c->frmw, state->fw_slots);
	/* smartctl's object and members, those of the drive's wear. */
	if (state->health) {
		json_object_begin("nvme_smart_health_information_log");
		json_uint("percentage_used", nvme_health_percentage_used(state->health));
		json_uint("data_units_read", nvme_health_data_units(state->health, false));
		json_uint("data_units_written", nvme_health_data_units(state->health, true));
		json_object_end();
	}
	json_object_end();
}
