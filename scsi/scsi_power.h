/* A SCSI disk's power commands, for its table of commands (scsi_disk.c). */
#ifndef HDPARM_SCSI_POWER_H
#define HDPARM_SCSI_POWER_H

#include "device.h"

/* -C: the power condition REQUEST SENSE reports; nothing said. */
int scsi_power_mode(struct device *dev, struct disk_power_mode *m);
int scsi_disk_power_state(struct device *dev, enum disk_power *state);
int scsi_disk_standby_now(struct device *dev, const struct disk_standby *t, struct disk_cause *c);
int scsi_disk_sleep_now(struct device *dev, struct disk_cause *c, char *advice, size_t size);
int scsi_disk_standby_timer(struct device *dev, unsigned int value, long seconds, struct disk_cause *c);

#endif
