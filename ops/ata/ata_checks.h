/* The ATA-only options' helpers (ata_checks.c). */
#ifndef HDPARM_ATA_CHECKS_H
#define HDPARM_ATA_CHECKS_H

#include <stdint.h>

#include "ata_commands.h"
#include "device.h"

/* The drive's IDENTIFY page; its failure is reported the first time only. */
const uint16_t *identify_or_report(struct device *dev, int *err);

/* The same, its failure reported for each query that needed the page (-N, -W/-A queries, as 9.65). */
const uint16_t *identify_or_report_each(struct device *dev, int *err);

/*
 * An ATA-only option's command, worded as 9.65 words a failure: " WHAT
 * failed: why" (the ATA commands, ata_commands.c, say nothing).
 */
void ata_report(const char *what, const struct ata_result *res, int err);
int ata_command(struct device *dev, const char *what, uint8_t command, uint16_t feature, uint16_t count);
int ata_set_features(struct device *dev, const char *what, uint8_t subcommand, uint16_t count);

#endif
