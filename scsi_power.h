/* A SCSI disk's power commands and temperature, for its table of commands (scsi_disk.c). */
#ifndef HDPARM_SCSI_POWER_H
#define HDPARM_SCSI_POWER_H

#include "commands.h"

step_fn scsi_power_command, scsi_standby_timer;

/* -C: the power condition REQUEST SENSE reports; nothing said. */
int scsi_power_mode(struct device *dev, struct disk_power_mode *m);
int scsi_disk_power_state(struct device *dev, enum disk_power *state);
int scsi_disk_temperature(struct device *dev, struct disk_temperature *t);
int scsi_disk_standby_now(struct device *dev);

#endif
