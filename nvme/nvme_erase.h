/* Erasing an NVMe disk: Sanitize and its status log, Format NVM with a secure erase. */
#ifndef HDPARM_NVME_ERASE_H
#define HDPARM_NVME_ERASE_H

#include "device.h"

/* --sanitize-status: the Sanitize Status log's state and lines; nothing said. */
int nvme_sanitize_status(struct device *dev, struct sanitize_poll *p);
/* --sanitize-block-erase, -crypto-scramble, -overwrite, -exit-failure-mode: refused where the controller cannot, and sent. */
int nvme_sanitize_check(struct device *dev, struct sanitize_request *r, struct disk_cause *c);
int nvme_sanitize_start(struct device *dev, const struct sanitize_request *r, struct disk_cause *c);
/* --sanitize-wait: where the sanitize stands, from the Sanitize Status log; nothing said. */
int nvme_sanitize_poll(struct device *dev, struct sanitize_poll *p);
/* --format-erase user|crypto: refused where the controller cannot, and sent. */
int nvme_format_check(struct device *dev, struct format_request *r, struct disk_cause *c);
int nvme_format_start(struct device *dev, const struct format_request *r, struct disk_cause *c);

/* How far an erase option reaches: a sanitize, the subsystem; a format, the subsystem where FNA says so. */
enum reach_scope nvme_erase_scope(struct device *dev, enum erase_method how);

/* Which options erase this NVMe disk, and what its controller supports. */
void nvme_erase_choices(struct device *dev, char *text, size_t size);

/* --set-sector-size: Identify Namespace's LBA formats; Format NVM to one of them, without a secure erase. */
int nvme_block_formats(struct device *dev, struct disk_block_formats *b);
int nvme_block_format_set(struct device *dev, const struct disk_format_request *r, struct disk_cause *c);

#endif
