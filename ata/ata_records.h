/* -H and --power-on-hours on an ATA drive (ata_records.c). */
#ifndef HDPARM_ATA_RECORDS_H
#define HDPARM_ATA_RECORDS_H

#include "device.h"

/* -H: 9.65's Hitachi command on a Hitachi or HGST drive; else SCT Status, else SMART attribute 194. */
int ata_disk_temperature(struct device *dev, struct disk_temperature *t);

/* --power-on-hours: the Device Statistics log's General Statistics page, Power-on Hours. */
int ata_disk_power_on(struct device *dev, struct disk_power_on *p);
/* --scan-repair: SMART attributes 5, 197 and 198, their raw values. */
int ata_disk_error_counts(struct device *dev, struct disk_error_counts *c);

#endif
