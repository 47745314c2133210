/* A SCSI disk's background medium scan: shown by --epc and -C, switched by --background-scan. */
#ifndef HDPARM_BACKGROUND_SCAN_H
#define HDPARM_BACKGROUND_SCAN_H

#include "commands.h"

/* Where the disk has one: a line on its background medium scan (prefix begins it), and the JSON object. */
void background_scan_show(struct device *dev, const char *prefix);

/* --background-scan on|off[,save]. */
step_fn background_scan_step;

#endif
