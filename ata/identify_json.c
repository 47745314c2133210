/* --json: the IDENTIFY page as the "identify" object, from identify_decode()'s decisions. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "array.h"
#include "ata.h"
#include "identify.h"
#include "json.h"

static void json_id_string(const char *key, const uint16_t *words, int nwords)
{
	char buf[64];
	const char *s = buf;

	identify_string(words, nwords, buf);
	while (*s == ' ')
		s++;
	json_string(key, s);
}

/* Modes "<prefix>N" for the bits of mask; the selected one also as *current. */
static void json_modes(const char *key, const char *prefix, unsigned int supported, unsigned int selected,
		       char *current, size_t size)
{
	json_array_begin(key);
	for (unsigned int m = 0; m < 8; m++) {
		char name[16];

		if (!((supported | selected) & (1u << m)))
			continue;
		snprintf(name, sizeof(name), "%s%u", prefix, m);
		json_string(NULL, name);
		if ((selected & (1u << m)) && current)
			snprintf(current, size, "%s", name);
	}
	json_array_end();
}

static void json_erase_minutes(const char *key, uint16_t w)
{
	bool extended = w & 0x8000;
	unsigned int t = extended ? w & 0x7fff : w & 0xff;

	if (!t)
		json_null(key);
	else if ((extended && t == 0x7fff) || (!extended && t == 0xff))
		json_uint(key, extended ? 65532 : 508);	/* "more than" this */
	else
		json_uint(key, t * 2);
}

/* ---- the keys smartctl -j -i fills, in smartctl 7.3's shapes and words ---- */

/* Word 81 (ACS-4 Table 10), as smartctl words it. */
static const struct {
	uint16_t code;
	const char *text;
} smartctl_minor_versions[] = {
	{ 0x0001, "ATA-1 X3T9.2/781D prior to revision 4" },
	{ 0x0002, "ATA-1 published, ANSI X3.221-1994" },
	{ 0x0003, "ATA-1 X3T9.2/781D revision 4" },
	{ 0x0004, "ATA-2 published, ANSI X3.279-1996" },
	{ 0x0005, "ATA-2 X3T10/948D prior to revision 2k" },
	{ 0x0006, "ATA-3 X3T10/2008D revision 1" },
	{ 0x0007, "ATA-2 X3T10/948D revision 2k" },
	{ 0x0008, "ATA-3 X3T10/2008D revision 0" },
	{ 0x0009, "ATA-2 X3T10/948D revision 3" },
	{ 0x000a, "ATA-3 published, ANSI X3.298-1997" },
	{ 0x000b, "ATA-3 X3T10/2008D revision 6" },
	{ 0x000c, "ATA-3 X3T13/2008D revision 7 and 7a" },
	{ 0x000d, "ATA/ATAPI-4 X3T13/1153D revision 6" },
	{ 0x000e, "ATA/ATAPI-4 T13/1153D revision 13" },
	{ 0x000f, "ATA/ATAPI-4 X3T13/1153D revision 7" },
	{ 0x0010, "ATA/ATAPI-4 T13/1153D revision 18" },
	{ 0x0011, "ATA/ATAPI-4 T13/1153D revision 15" },
	{ 0x0012, "ATA/ATAPI-4 published, ANSI NCITS 317-1998" },
	{ 0x0013, "ATA/ATAPI-5 T13/1321D revision 3" },
	{ 0x0014, "ATA/ATAPI-4 T13/1153D revision 14" },
	{ 0x0015, "ATA/ATAPI-5 T13/1321D revision 1" },
	{ 0x0016, "ATA/ATAPI-5 published, ANSI NCITS 340-2000" },
	{ 0x0017, "ATA/ATAPI-4 T13/1153D revision 17" },
	{ 0x0018, "ATA/ATAPI-6 T13/1410D revision 0" },
	{ 0x0019, "ATA/ATAPI-6 T13/1410D revision 3a" },
	{ 0x001a, "ATA/ATAPI-7 T13/1532D revision 1" },
	{ 0x001b, "ATA/ATAPI-6 T13/1410D revision 2" },
	{ 0x001c, "ATA/ATAPI-6 T13/1410D revision 1" },
	{ 0x001d, "ATA/ATAPI-7 published, ANSI INCITS 397-2005" },
	{ 0x001e, "ATA/ATAPI-7 T13/1532D revision 0" },
	{ 0x001f, "ACS-3 T13/2161-D revision 3b" },
	{ 0x0021, "ATA/ATAPI-7 T13/1532D revision 4a" },
	{ 0x0022, "ATA/ATAPI-6 published, ANSI INCITS 361-2002" },
	{ 0x0027, "ATA8-ACS T13/1699-D revision 3c" },
	{ 0x0028, "ATA8-ACS T13/1699-D revision 6" },
	{ 0x0029, "ATA8-ACS T13/1699-D revision 4" },
	{ 0x0031, "ACS-2 T13/2015-D revision 2" },
	{ 0x0033, "ATA8-ACS T13/1699-D revision 3e" },
	{ 0x0039, "ATA8-ACS T13/1699-D revision 4c" },
	{ 0x0042, "ATA8-ACS T13/1699-D revision 3f" },
	{ 0x0052, "ATA8-ACS T13/1699-D revision 3b" },
	{ 0x005e, "ACS-4 T13/BSR INCITS 529 revision 5" },
	{ 0x006d, "ACS-3 T13/2161-D revision 5" },
	{ 0x0082, "ACS-2 published, ANSI INCITS 482-2012" },
	{ 0x009c, "ACS-4 published, ANSI INCITS 529-2018" },
	{ 0x0107, "ATA8-ACS T13/1699-D revision 2d" },
	{ 0x010a, "ACS-3 published, ANSI INCITS 522-2014" },
	{ 0x0110, "ACS-2 T13/2015-D revision 3" },
	{ 0x011b, "ACS-3 T13/2161-D revision 4" },
};

/* Word 80's highest version: "ATA/ATAPI-7", "ACS-3", "ACS >5 (13)"; "Unknown(0x0001)" for none. */
static void major_version_name(uint16_t w, char *buf, size_t size)
{
	int bit = 15;

	while (bit > 0 && !(w & (1u << bit)))
		bit--;
	if (bit == 0 || !ata_id_word_reported(w))
		snprintf(buf, size, "Unknown(0x%04x)", w);
	else if (bit <= 3)
		snprintf(buf, size, "ATA-%d", bit);
	else if (bit <= 7)
		snprintf(buf, size, "ATA/ATAPI-%d", bit);
	else if (bit == 8)
		snprintf(buf, size, "ATA8-ACS");
	else if (bit <= 12)
		snprintf(buf, size, "ACS-%d", bit - 7);
	else
		snprintf(buf, size, "ACS >5 (%d)", bit);
}

static void json_ata_version(const uint16_t *id)
{
	char major[32], text[160];
	const char *minor = NULL;

	if (!ata_id_word_reported(id[ATA_ID_MAJOR_VERSION]) && !ata_id_word_reported(id[ATA_ID_MINOR_VERSION]))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(smartctl_minor_versions); i++)
		if (smartctl_minor_versions[i].code == id[ATA_ID_MINOR_VERSION])
			minor = smartctl_minor_versions[i].text;
	major_version_name(id[ATA_ID_MAJOR_VERSION], major, sizeof(major));
	if (minor && strncmp(minor, major, strlen(major)) == 0)
		snprintf(text, sizeof(text), "%s", minor);
	else if (minor)
		snprintf(text, sizeof(text), "%s, %s", major, minor);
	else if (!ata_id_word_reported(id[ATA_ID_MINOR_VERSION]))
		snprintf(text, sizeof(text), "%s (minor revision not indicated)", major);
	else
		snprintf(text, sizeof(text), "%s (unknown minor revision code: 0x%04x)", major, id[ATA_ID_MINOR_VERSION]);
	json_object_begin("ata_version");
	json_string("string", text);
	json_uint("major_value", id[ATA_ID_MAJOR_VERSION]);
	json_uint("minor_value", id[ATA_ID_MINOR_VERSION]);
	json_object_end();
}

static bool serial_transport(const uint16_t *id)
{
	return ata_id_word_reported(id[ATA_ID_TRANSPORT_MAJOR]) && (id[ATA_ID_TRANSPORT_MAJOR] >> 12) == 1;
}

static void json_sata_version(const uint16_t *id)
{
	static const char *const names[11] = {
		"ATA8-AST", "SATA 1.0a", "SATA II Ext", "SATA 2.5", "SATA 2.6", "SATA 3.0",
		"SATA 3.1", "SATA 3.2", "SATA 3.3", "SATA 3.4", "SATA 3.5",
	};
	unsigned int value = id[ATA_ID_TRANSPORT_MAJOR] & 0x0fff;
	int bit = 11;
	char text[24];

	if (!serial_transport(id) || !value)
		return;
	while (!(value & (1u << bit)))
		bit--;
	if (bit <= 10)
		snprintf(text, sizeof(text), "%s", names[bit]);
	else
		snprintf(text, sizeof(text), "SATA >3.5 (%d)", bit);
	json_object_begin("sata_version");
	json_string("string", text);
	json_uint("value", value);
	json_object_end();
}

/* A SATA signalling speed: 1 Gen1 (1.5 Gb/s), 2 Gen2, 3 Gen3; beyond that smartctl gives no rate. */
static void json_sata_speed(const char *key, unsigned int value, unsigned int gen)
{
	static const unsigned int units[4] = { 0, 15, 30, 60 };
	char text[24];

	json_object_begin(key);
	json_uint("sata_value", value);
	if (gen >= 1 && gen <= 3) {
		snprintf(text, sizeof(text), "%u.%u Gb/s", units[gen] / 10, units[gen] % 10);
		json_string("string", text);
		json_uint("units_per_second", units[gen]);
		json_uint("bits_per_unit", 100000000);
	} else {
		snprintf(text, sizeof(text), ">6.0 Gb/s (%u)", gen);
		json_string("string", text);
	}
	json_object_end();
}

/* Word 76 (the speeds supported, bits 7:1) and word 77 (the current one, bits 3:1). */
static void json_interface_speed(const uint16_t *id)
{
	unsigned int max = id[ATA_ID_SATA_CAPABILITY] & 0x00fe, current = (id[ATA_ID_SATA_CAPABILITY_2] >> 1) & 7;
	unsigned int gen = 7;

	if (!serial_transport(id) || id[ATA_ID_SATA_CAPABILITY] == 0xffff || (!max && !current))
		return;
	json_object_begin("interface_speed");
	if (max) {
		while (!(max & (1u << gen)))
			gen--;
		json_sata_speed("max", max, gen);
	}
	if (current)
		json_sata_speed("current", current, current);
	json_object_end();
}

static void json_form_factor(const uint16_t *id)
{
	static const char *const names[10] = {
		NULL, "5.25 inches", "3.5 inches", "2.5 inches", "1.8 inches", "< 1.8 inches",
		"mSATA", "M.2", "MicroSSD", "CFast",
	};
	unsigned int code = id[ATA_ID_FORM_FACTOR] & 0x0f;

	if (!id[ATA_ID_FORM_FACTOR])
		return;
	json_object_begin("form_factor");
	json_uint("ata_value", id[ATA_ID_FORM_FACTOR]);
	if (code < ARRAY_SIZE(names) && names[code])
		json_string("name", names[code]);
	json_object_end();
}

/* Word 217: 1 a solid-state drive (smartctl says 0), 0401h-FFFEh the rpm; otherwise left out. */
static void json_rotation_rate(const uint16_t *id)
{
	if (id[ATA_ID_ROTATION_RATE] == 1)
		json_uint("rotation_rate", 0);
	else if (id[ATA_ID_ROTATION_RATE] > 0x400 && id[ATA_ID_ROTATION_RATE] < 0xffff)
		json_uint("rotation_rate", id[ATA_ID_ROTATION_RATE]);
}

static void json_smart_support(const uint16_t *id)
{
	json_object_begin("smart_support");
	json_bool("available", id[ATA_ID_COMMAND_SET_1] & 1);
	if (id[ATA_ID_COMMAND_SET_1] & 1)
		json_bool("enabled", id[ATA_ID_CFS_ENABLE_1] & 1);
	json_object_end();
}

/* "identify"'s identity, transport and standards. */
static void json_identity(const uint16_t id[IDENTIFY_WORDS], const struct identify_facts *facts)
{
	static const char *const kinds[] = {
		[IDENTIFY_UNKNOWN] = "unknown", [IDENTIFY_ATA] = "ata", [IDENTIFY_ATAPI] = "atapi", [IDENTIFY_CFA] = "cfa",
	};

	json_string("device_type", kinds[facts->kind]);
	json_bool("removable_media", id[ATA_ID_CONFIG] & 0x80);
	json_id_string("model_name", &id[ATA_ID_MODEL], 20);
	json_id_string("serial_number", &id[ATA_ID_SERIAL_NUMBER], 10);
	json_id_string("firmware_version", &id[ATA_ID_FIRMWARE], 4);

	json_object_begin("transport");
	if (ata_id_word_reported(id[ATA_ID_TRANSPORT_MAJOR]))
		json_string("type", facts->transport == 1 ? "serial" : facts->transport == 0 ? "parallel" : "other");
	else
		json_null("type");
	json_uint("major", id[ATA_ID_TRANSPORT_MAJOR]);
	json_uint("minor", id[ATA_ID_TRANSPORT_MINOR]);
	json_object_end();

	json_object_begin("standards");
	json_string("used", facts->used);
	json_uint("likely_used", facts->like_std);
	json_array_begin("supported");
	if (ata_id_word_reported(id[ATA_ID_MAJOR_VERSION]))
		for (unsigned int v = 14; v >= 1; v--)
			if (id[ATA_ID_MAJOR_VERSION] & (1u << v))
				json_uint(NULL, v);
	json_array_end();
	json_object_end();
}

/* "identify"'s capacity and sizes, rotation, form factor and smartctl's version keys. */
static void json_capacity(const uint16_t id[IDENTIFY_WORDS], const struct identify_facts *facts)
{
	uint16_t sb = id[ATA_ID_SECTOR_SIZE];
	unsigned int logical = identify_sector_bytes(id), per_physical = 1;

	if (ata_id_word_valid(sb) && (sb & (1u << 13)))
		per_physical = 1u << (sb & 0xf);
	json_object_begin("user_capacity");
	json_uint("blocks", facts->capacity);
	/* A garbage page can claim more bytes than 64 bits hold. */
	if (logical && facts->capacity <= UINT64_MAX / logical)
		json_uint("bytes", facts->capacity * logical);
	else
		json_null("bytes");
	json_object_end();
	if (id[ATA_ID_CAPABILITY] & 0x200)
		json_uint("lba28_sectors", (uint32_t)id[ATA_ID_LBA_CAPACITY + 1] << 16 | id[ATA_ID_LBA_CAPACITY]);
	else
		json_null("lba28_sectors");
	if (ata_id_word_valid(id[ATA_ID_COMMAND_SET_2]) && (id[ATA_ID_COMMAND_SET_2] & 0x0400))
		json_uint("lba48_sectors", (uint64_t)id[ATA_ID_LBA48_CAPACITY + 3] << 48 | (uint64_t)id[ATA_ID_LBA48_CAPACITY + 2] << 32 | (uint64_t)id[ATA_ID_LBA48_CAPACITY + 1] << 16 | id[ATA_ID_LBA48_CAPACITY]);
	else
		json_null("lba48_sectors");
	json_uint("logical_block_size", logical);
	json_uint("physical_block_size", (uint64_t)logical * per_physical);
	json_rotation_rate(id);
	json_form_factor(id);
	json_ata_version(id);
	json_sata_version(id);
	json_interface_speed(id);
	json_smart_support(id);
}

/* "identify"'s multiple sectors and transfer modes. */
static void json_transfer_modes(const uint16_t id[IDENTIFY_WORDS])
{
	char current[16] = "";

	json_object_begin("multiple_sectors");
	json_uint("max", id[ATA_ID_MAX_MULTIPLE] & 0xff);
	if (id[ATA_ID_MULTIPLE] & 0x100)
		json_uint("current", id[ATA_ID_MULTIPLE] & 0xff);
	else
		json_null("current");
	json_object_end();

	json_object_begin("transfer_modes");
	json_array_begin("pio");
	for (unsigned int m = 0; m <= 2; m++) {
		char name[8];

		snprintf(name, sizeof(name), "pio%u", m);
		json_string(NULL, name);
	}
	if (id[ATA_ID_FIELD_VALID] & 2)
		for (unsigned int m = 0; m < 8; m++)
			if (id[ATA_ID_PIO_MODES] & (1u << m)) {
				char name[8];

				snprintf(name, sizeof(name), "pio%u", m + 3);
				json_string(NULL, name);
			}
	json_array_end();
	json_modes("mdma", "mdma", id[ATA_ID_MWDMA_MODES] & 0xff, id[ATA_ID_MWDMA_MODES] >> 8, current, sizeof(current));
	json_modes("udma", "udma", (id[ATA_ID_FIELD_VALID] & 4) ? id[ATA_ID_UDMA_MODES] & 0xff : 0, (id[ATA_ID_FIELD_VALID] & 4) ? id[ATA_ID_UDMA_MODES] >> 8 : 0, current,
		   sizeof(current));
	json_string("current", current[0] ? current : NULL);
	json_object_end();
}

/* "identify"'s features, as -I lists them, and the caches and TRIM from the drive's words. */
static void json_features(const uint16_t id[IDENTIFY_WORDS], const struct identify_facts *facts)
{
	/*
	 * The drive's word, not -I's rows: 9.65 lists TRIM only for pages that
	 * look like ATA8-ACS or later, and QEMU's SSD, for one, claims less.
	 */
	bool trim = ata_id_has_trim(id);

	json_array_begin("features");
	for (unsigned int i = 0; i < facts->nfeatures; i++) {
		json_object_begin(NULL);
		json_string("name", facts->features[i].name);
		json_bool("supported", true);
		json_bool("enabled", facts->features[i].enabled);
		json_object_end();
	}
	json_array_end();

	json_object_begin("write_cache");
	json_bool("supported", id[ATA_ID_COMMAND_SET_1] & 0x20);
	json_bool("enabled", (id[ATA_ID_COMMAND_SET_1] & 0x20) && (id[ATA_ID_CFS_ENABLE_1] & 0x20));
	json_object_end();
	json_object_begin("read_lookahead");
	json_bool("supported", id[ATA_ID_COMMAND_SET_1] & 0x40);
	json_bool("enabled", (id[ATA_ID_COMMAND_SET_1] & 0x40) && (id[ATA_ID_CFS_ENABLE_1] & 0x40));
	json_object_end();

	json_object_begin("trim");
	json_bool("supported", trim);
	json_bool("deterministic", trim && (id[ATA_ID_ADDITIONAL_SUPPORT] & ATA_ID_TRIM_DETERMINISTIC));
	json_bool("zeroed", trim && (id[ATA_ID_ADDITIONAL_SUPPORT] & ATA_ID_TRIM_DETERMINISTIC) && (id[ATA_ID_ADDITIONAL_SUPPORT] & ATA_ID_TRIM_ZEROES));
	if (trim && ata_id_word_reported(id[ATA_ID_DSM_BLOCKS]))
		json_uint("limit_blocks", id[ATA_ID_DSM_BLOCKS]);
	else
		json_null("limit_blocks");
	json_object_end();
}

/* "identify"'s ATA Security state. */
static void json_security(const uint16_t id[IDENTIFY_WORDS])
{
	json_object_begin("ata_security");
	json_bool("supported", (id[ATA_ID_COMMAND_SET_1] & 2) && (id[ATA_ID_SECURITY] & 1));
	json_bool("enabled", id[ATA_ID_SECURITY] & 0x02);
	json_bool("locked", id[ATA_ID_SECURITY] & 0x04);
	json_bool("frozen", id[ATA_ID_SECURITY] & 0x08);
	json_bool("count_expired", id[ATA_ID_SECURITY] & 0x10);
	json_bool("enhanced_erase_supported", id[ATA_ID_SECURITY] & 0x20);
	json_string("level", (id[ATA_ID_SECURITY] & 0x02) ? ((id[ATA_ID_SECURITY] & 0x0100) ? "maximum" : "high") : NULL);
	if (ata_id_word_reported(id[ATA_ID_MASTER_PASSWORD_REV]))
		json_uint("master_password_revision", id[ATA_ID_MASTER_PASSWORD_REV]);
	else
		json_null("master_password_revision");
	json_erase_minutes("erase_minutes", id[ATA_ID_ERASE_TIME]);
	json_erase_minutes("enhanced_erase_minutes", id[ATA_ID_ENHANCED_ERASE_TIME]);
	json_object_end();
}

/* "identify"'s WWN and the page's checksum. */
static void json_wwn_checksum(const uint16_t id[IDENTIFY_WORDS], const struct identify_facts *facts)
{
	if (facts->like_std > 3 && (id[ATA_ID_COMMAND_SET_EXT] & 0x100)) {
		json_object_begin("wwn");
		json_uint("naa", (id[ATA_ID_WWN] & 0xf000u) >> 12);
		json_uint("oui", ((id[ATA_ID_WWN] & 0x0fffu) << 12) | ((id[ATA_ID_WWN + 1] & 0xfff0u) >> 4));
		json_uint("id", (uint64_t)(id[ATA_ID_WWN + 1] & 0x000fu) << 32 | (uint32_t)id[ATA_ID_WWN + 2] << 16 | id[ATA_ID_WWN + 3]);
		json_object_end();
	} else {
		json_null("wwn");
	}

	json_object_begin("checksum");
	if ((id[ATA_ID_INTEGRITY] & 0xff) == 0xa5)
		json_bool("valid", facts->checksum == 0);
	else
		json_null("valid");
	json_object_end();
}

void identify_json(const uint16_t id[IDENTIFY_WORDS])
{
	struct identify_facts facts;

	json_object_begin("identify");
	if (identify_decode(id, &facts)) {
		json_string("device_type", "unknown");
		json_object_end();
		return;
	}
	json_identity(id, &facts);
	json_capacity(id, &facts);
	json_transfer_modes(id);
	json_features(id, &facts);
	json_security(id);
	json_wwn_checksum(id, &facts);
	json_object_end();
}
