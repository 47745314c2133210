/* Device Configuration Overlay: --dco-identify, --dco-restore, --dco-freeze, --dco-setmax. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "identify.h"
#include "ata_checks.h"
#include "checks.h"
#include "dco.h"
#include "json.h"
#include "ata_commands.h"
#include "report.h"

static uint8_t dco_checksum(const uint16_t *dco)
{
	uint8_t sum = 0;

	for (int i = 0; i < 255; i++)
		sum = (uint8_t)(sum + (dco[i] & 0xff) + (dco[i] >> 8));
	sum = (uint8_t)(sum + (dco[255] & 0xff));
	return (uint8_t)-sum;
}

static int dco_identify_page(struct device *dev, uint16_t dco[256])
{
	uint8_t raw[512] = { 0 };
	struct ata_result res;
	int err = ata_dco_identify(dev, raw, &res);

	if (err) {
		ata_report("HDIO_DRIVE_CMD(dco_identify)", &res, err);
		return err;
	}
	for (int i = 0; i < 256; i++)
		dco[i] = (uint16_t)(raw[2 * i] | raw[2 * i + 1] << 8);
	return 0;
}

static void print_bits(uint16_t word, const char *const names[], int first, int last)
{
	for (int b = first; b <= last; b++)
		if (word & (1u << b))
			out(" %s", names[b]);
}

static void dco_print(const uint16_t *dco)
{
	static const char *const w7[16] = { "SMART", "self_test", "error_log", "security", "PUIS", "TCQ", "AAM", "HPA",
					    "48_bit", "streaming", "TLC_Reserved_7[10]", "FUA", "selective_test",
					    "conveyance_test", "write_read_verify", "reserved_7[15]" };
	static const char *const w21[16] = { [11] = "free_fall", [12] = "trusted_computing", [13] = "WRITE_UNC_EXT",
					     [14] = "NV_cache_power_management", [15] = "NV_cache" };
	static const char *const w8[5] = { "NCQ", "NZ_buffer_offsets", "interface_power_management",
					   "async_notification", "SSP" };
	int udma;

	out("DCO Revision: 0x%04x", dco[0]);
	if (dco[0] == 0 || dco[0] > 2)
		out(" -- unknown, treating as 0002");
	out("\nThe following features can be selectively disabled via DCO:\n");
	out("\tTransfer modes:\n\t\t");
	if (dco[1] & 7) {
		int m = (dco[1] & 4) ? 2 : (dco[1] & 2) ? 1 : 0;

		for (int i = 0; i <= m; i++)
			out(" mdma%d", i);
		out("\n\t\t");
	}
	for (udma = 6; udma >= 0 && !(dco[2] & (1u << udma)); udma--)
		;
	for (int i = 0; i <= udma; i++)
		out(" udma%d", i);
	if (udma == 6 && dco[0] < 2)
		out("(?)");
	out_char('\n');
	out("\tReal max sectors: %llu\n",
	       (unsigned long long)((uint64_t)dco[5] << 32 | (uint64_t)dco[4] << 16 | dco[3]) + 1);
	out("\tATA command/feature sets:");
	if (dco[7] & 0x01ff) {
		out("\n\t\t");
		print_bits(dco[7], w7, 0, 8);
	}
	if (dco[7] & 0xfe00) {
		out("\n\t\t");
		if (dco[0] < 2)
			out(" (?):");
		print_bits(dco[7], w7, 9, 15);
	}
	if (dco[21] & 0xf800) {
		out("\n\t\t");
		if (dco[0] < 2)
			out(" (?):");
		print_bits(dco[21], w21, 11, 15);
	}
	out_char('\n');
	if (dco[8] & 0x1f) {
		out("\tSATA command/feature sets:\n\t\t");
		if (dco[0] < 2)
			out(" (?):");
		print_bits(dco[8], w8, 0, 4);
		out_char('\n');
	}
}

int dco_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	uint16_t dco[256];
	struct ata_result res;
	int err;

	if (opt == OPT_DCO_IDENTIFY) {
		if ((err = dco_identify_page(dev, dco)))
			return err;
		out(dco_checksum(dco) == (dco[255] >> 8) ? "DCO Checksum verified.\n" : "DCO Checksum FAILED!\n");
		dco_print(dco);
		return 0;
	}
	if (opt == OPT_DCO_RESTORE || opt == OPT_DCO_FREEZE) {
		if (!s->quiet)
			out(" issuing DCO %s command\n", opt == OPT_DCO_RESTORE ? "restore" : "freeze");
		fflush(stdout);
		return ata_command(dev, opt == OPT_DCO_RESTORE ? "HDIO_DRIVE_CMD(dco_restore)" : "HDIO_DRIVE_CMD(dco_freeze)",
				   ATA_OP_DEVICE_CONFIGURATION, opt == OPT_DCO_RESTORE ? ATA_DCO_RESTORE : ATA_DCO_FREEZE_LOCK, 0);
	}
	/* --dco-setmax: change words 3-5 (max LBA) of the overlay and write it back. */
	const uint16_t *id;
	uint64_t max = s->v[opt].num;
	uint8_t raw[512];

	if (!(id = identify_or_report(dev, &err)))
		return err;
	if (max < identify_capacity(id) &&
	    (err = confirm_dangerous(dev, s, "--dco-setmax",
				     "You have requested reducing the apparent size of the drive.\n"
				     "This is a BAD idea, and can easily destroy all of the drive's contents.")))
		return err;
	if ((err = dco_identify_page(dev, dco)))
		return err;
	if (dco_checksum(dco) != (dco[255] >> 8)) {
		complain(" --dco-setmax: the drive's DCO checksum is wrong; nothing written\n");
		return EIO;
	}
	if (!s->quiet)
		out("issuing DCO set command (sectors = %llu)\n", (unsigned long long)max);
	dco[3] = (uint16_t)(max - 1);
	dco[4] = (uint16_t)((max - 1) >> 16);
	dco[5] = (uint16_t)((max - 1) >> 32);
	dco[255] = (uint16_t)((dco[255] & 0xff) | dco_checksum(dco) << 8);
	for (int i = 0; i < 256; i++) {
		raw[2 * i] = (uint8_t)dco[i];
		raw[2 * i + 1] = (uint8_t)(dco[i] >> 8);
	}
	err = ata_dco_set(dev, raw, &res);
	if (err)
		ata_report("DEVICE CONFIGURATION SET", &res, err);
	ata_identify_forget(dev);
	return err;
}
