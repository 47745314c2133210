/* --scan-repair on a SCSI disk (scsi_error_counts.c). */
#ifndef HDPARM_SCSI_ERROR_COUNTS_H
#define HDPARM_SCSI_ERROR_COUNTS_H

#include "disk_ops.h"

int scsi_disk_error_counts(struct device *dev, struct disk_error_counts *c);

#endif
