/* Erasing a SCSI disk: SANITIZE, and its progress from REQUEST SENSE. */
#ifndef HDPARM_SCSI_ERASE_H
#define HDPARM_SCSI_ERASE_H

#include "device.h"

/* --sanitize-status: REQUEST SENSE's sanitize state; nothing said. */
int scsi_sanitize_status(struct device *dev, struct sanitize_poll *p);
/* --sanitize-block-erase, -crypto-scramble, -overwrite, -exit-failure-mode: refused where the disk cannot, and sent. */
int scsi_sanitize_check(struct device *dev, struct sanitize_request *r, struct disk_cause *c);
int scsi_sanitize_start(struct device *dev, const struct sanitize_request *r, struct disk_cause *c);
/* --sanitize-wait: where the sanitize stands, from REQUEST SENSE; nothing said. */
int scsi_sanitize_poll(struct device *dev, struct sanitize_poll *p);

/* Which options erase this SCSI disk, and what it says it supports. */
void scsi_erase_choices(struct device *dev, char *text, size_t size);

#endif
