/*
 * The ATA-only options' helpers: the drive's IDENTIFY page, and a command
 * sent and its failure worded as 9.65 words it (the ATA commands,
 * ata/ata_commands.c, say nothing).
 */
#include <stdbool.h>
#include <string.h>

#include "ata_checks.h"
#include "report.h"

const uint16_t *identify_or_report_each(struct device *dev, int *err)
{
	struct ata_result res;
	const uint16_t *id = ata_identify(dev, err, &res);

	if (!id)
		ata_report("IDENTIFY DEVICE", &res, *err);
	return id;
}

const uint16_t *identify_or_report(struct device *dev, int *err)
{
	struct ata_result res;
	bool first = !ata_identify_failed_before(dev);
	const uint16_t *id = ata_identify(dev, err, &res);

	if (!id && first)
		ata_report("HDIO_DRIVE_CMD(identify)", &res, *err);
	return id;
}

void ata_report(const char *what, const struct ata_result *res, int err)
{
	complain(" %s failed: %s\n", what, res->cause[0] ? res->cause : strerror(err));
}

int ata_command(struct device *dev, const char *what, uint8_t command, uint16_t feature, uint16_t count)
{
	struct ata_result res;
	int err = ata_nondata(dev, command, feature, count, 0, false, &res, 0);

	if (err)
		ata_report(what, &res, err);
	return err;
}

int ata_set_features(struct device *dev, const char *what, uint8_t subcommand, uint16_t count)
{
	return ata_command(dev, what, ATA_OP_SET_FEATURES, subcommand, count);
}
