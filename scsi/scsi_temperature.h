/* -H on a SCSI disk (scsi_temperature.c). */
#ifndef HDPARM_SCSI_TEMPERATURE_H
#define HDPARM_SCSI_TEMPERATURE_H

#include "device.h"

/* The Temperature log page's current temperature, and its reference (the trip point smartctl shows). */
int scsi_disk_temperature(struct device *dev, struct disk_temperature *t);

#endif
