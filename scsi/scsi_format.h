/* --set-sector-size on a SCSI disk: MODE SELECT of the block length, FORMAT UNIT, its progress. */
#ifndef HDPARM_SCSI_FORMAT_H
#define HDPARM_SCSI_FORMAT_H

#include "device.h"

int scsi_block_formats(struct device *dev, struct disk_block_formats *b);
int scsi_block_format_set(struct device *dev, const struct disk_format_request *r, struct disk_cause *c);
int scsi_block_format_poll(struct device *dev, struct disk_format_poll *p);

#endif
