/*
 * What an ATA drive records of itself, for the queries of every disk: its
 * temperature (-H) and its powered-on time (--power-on-hours).  The table
 * of the drive's commands is ata_disk.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ata_commands.h"
#include "ata_disk.h"
#include "ata_records.h"
#include "identify.h"
#include "smart_table.h"
#include "unaligned.h"

/* SCT Status (log E0h, ACS-3 8.3.2): byte 200 the current temperature, signed; 80h: none. */
#define SCT_STATUS_LOG 0xe0
#define SCT_STATUS_TEMPERATURE 200
#define SCT_TEMPERATURE_NONE 0x80
#define HITACHI_SENSE_CONDITION 0x01	/* FEATURE of the vendor command */
#define HITACHI_OUT_OF_RANGE 0x10	/* its error register bit */

/* The drives hdparm 9.65's -H was written for (its manual: "mostly Hitachi"): their model's first word. */
static bool hitachi_model(const uint16_t *id)
{
	char text[48];
	const char *model;

	identify_string(&id[ATA_ID_MODEL], 20, text);
	model = text + strspn(text, " ");
	return strncasecmp(model, "Hitachi", 7) == 0 || strncasecmp(model, "HGST", 4) == 0;
}

/*
 * SMART attribute 194 (temperature): in the attribute table of SMART READ
 * DATA, 30 entries of 12 bytes from byte 2 (id, flags, value, worst, raw
 * value of 6 bytes); the raw value's first byte is the current Celsius, as
 * smartctl reads it by default.  0: the drive has no such attribute.
 */
#define SMART_ATTRIBUTE_TEMPERATURE 194

static int smart_temperature(struct device *dev, struct disk_temperature *t, struct ata_result *res)
{
	uint8_t data[SMART_TABLE_BYTES];
	const uint8_t *a;
	int err = ata_smart_read_data(dev, data, res);

	if (err)
		return err;
	if ((a = smart_table_find(data, SMART_ATTRIBUTE_TEMPERATURE))) {
		t->source = TEMP_SMART_ATTRIBUTE;
		t->celsius = a[5];	/* the raw value's first byte: degrees Celsius */
		return 0;
	}
	snprintf(res->cause, sizeof(res->cause), "the drive has no SCT Status and no SMART attribute 194 (temperature)");
	return EOPNOTSUPP;
}

/*
 * -H: a Hitachi or HGST drive gets 9.65's Hitachi command, bytes and lines;
 * another, the standard's SCT Status, else SMART attribute 194; a vendor
 * command goes to no other vendor's drive, which may take it as anything.
 */
int ata_disk_temperature(struct device *dev, struct disk_temperature *t)
{
	struct ata_result res;
	uint8_t sct[512];
	int err;
	const uint16_t *id = ata_identify(dev, &err, &res);

	if (id && !hitachi_model(id) && ata_id_has_sct(id) &&
	    ata_smart_log(dev, false, SCT_STATUS_LOG, sct, &res) == 0 &&
	    sct[SCT_STATUS_TEMPERATURE] != SCT_TEMPERATURE_NONE) {
		t->source = TEMP_SCT_STATUS;
		/* A two's complement byte: below 0 C reads as 80h and up. */
		t->celsius = sct[SCT_STATUS_TEMPERATURE] < 0x80 ? sct[SCT_STATUS_TEMPERATURE] : sct[SCT_STATUS_TEMPERATURE] - 256;
		return 0;
	}
	if (id && !hitachi_model(id)) {
		memset(&res, 0, sizeof(res));
		if (!ata_id_smart_enabled(id)) {
			t->cause.about_option = true;
			snprintf(t->cause.why, sizeof(t->cause.why), "the drive has no SCT Status, and SMART is not enabled"
				 " (IDENTIFY word 85 bit 0) to read attribute 194");
			return EOPNOTSUPP;
		}
		if ((err = smart_temperature(dev, t, &res)) == EOPNOTSUPP) {
			t->cause.about_option = true;
			snprintf(t->cause.why, sizeof(t->cause.why), "%s", res.cause);
			return err;
		}
		return err ? ata_cause(&t->cause, "SMART READ DATA", &res, err) : 0;
	}

	err = ata_nondata(dev, ATA_OP_VENDOR_HITACHI_SENSE, HITACHI_SENSE_CONDITION, 0, 0, true, &res, 0);
	if (!err && !res.have_regs) {
		snprintf(res.cause, sizeof(res.cause), "the drive's answer did not come back");
		err = EIO;
	}
	if (err)
		return ata_cause(&t->cause, "HDIO_DRIVE_CMD(hitachisensecondition)", &res, err);
	t->source = TEMP_HITACHI;
	t->raw = (uint8_t)res.out.count;
	t->celsius = t->raw / 2 - 20;
	t->in_range = !(res.error & HITACHI_OUT_OF_RANGE);
	return 0;
}

/* --power-on-hours: the General Statistics page of the Device Statistics log, where the log directory lists it. */
int ata_disk_power_on(struct device *dev, struct disk_power_on *p)
{
	uint8_t page[512] = { 0 };	/* a short transfer leaves zeros: no statistic, not stale bytes */
	uint64_t stat;
	int err;
	const uint16_t *id = identify_for(dev, &err, &p->cause);

	if (!id)
		return err;
	if (!ata_id_has_gpl(id)) {
		p->cause.about_option = true;
		snprintf(p->cause.why, sizeof(p->cause.why), "the drive has no General Purpose Logging (IDENTIFY word 84 bit 5),"
			 " which holds the Device Statistics log");
		return EOPNOTSUPP;
	}
	p->source = "Device Statistics log";
	err = ata_read_log_page(dev, ATA_LOG_DEVICE_STATISTICS, ATA_STATS_PAGE_GENERAL, page, &p->cause);
	if (err && p->cause.why[0])
		return EIO;	/* the directory or the page could not be read: the cause says which */
	stat = err ? 0 : get_le64(page + ATA_STAT_POWER_ON_HOURS);
	if (err || page[2] != ATA_STATS_PAGE_GENERAL || !(stat & ATA_STAT_SUPPORTED) || !(stat & ATA_STAT_VALID)) {
		p->cause.about_option = true;
		snprintf(p->cause.why, sizeof(p->cause.why), "the drive reports no power-on hours in its Device Statistics"
			 " log (04h, General Statistics page)");
		return EOPNOTSUPP;
	}
	p->hours = (uint32_t)stat;
	return 0;
}

/*
 * --scan-repair: the raw values (48 bits, little-endian, bytes 5 to 10 of
 * an entry) of SMART attributes 5 (Reallocated Sectors Count), 197
 * (Current Pending Sector Count) and 198 (Offline Uncorrectable), as
 * smartctl shows them, from the attribute table of SMART READ DATA.
 */
int ata_disk_error_counts(struct device *dev, struct disk_error_counts *c)
{
	static const struct { uint8_t id; const char *key, *label; } want[] = {
		{ 5, "reallocated_sector_ct", "reallocated sectors (SMART 5)" },
		{ 197, "current_pending_sector", "pending sectors (SMART 197)" },
		{ 198, "offline_uncorrectable", "offline uncorrectable (SMART 198)" },
	};
	struct ata_result res = { 0 };
	uint8_t data[SMART_TABLE_BYTES];
	int err;
	const uint16_t *id = identify_for(dev, &err, &c->cause);

	if (!id)
		return err;
	if (!ata_id_smart_enabled(id)) {
		snprintf(c->cause.why, sizeof(c->cause.why), "SMART is not enabled (IDENTIFY word 85 bit 0)");
		return EOPNOTSUPP;
	}
	if ((err = ata_smart_read_data(dev, data, &res)))
		return ata_cause(&c->cause, "SMART READ DATA", &res, err);
	for (size_t w = 0; w < sizeof(want) / sizeof(want[0]); w++) {
		const uint8_t *a = smart_table_find(data, want[w].id);

		if (!a)
			continue;
		c->c[c->n].key = want[w].key;
		c->c[c->n].label = want[w].label;
		c->c[c->n++].value = smart_table_raw(a);
	}
	if (!c->n) {
		snprintf(c->cause.why, sizeof(c->cause.why), "the drive has none of SMART attributes 5, 197 and 198");
		return EOPNOTSUPP;
	}
	c->source = "SMART attributes";
	return 0;
}
