/* TRIM: ranges from the command line or stdin, sent by the disk's own command. */
#ifndef HDPARM_TRIM_H
#define HDPARM_TRIM_H

#include "commands.h"

step_fn trim_from_args, trim_from_stdin;

/* The ATA drive's TRIM: DATA SET MANAGEMENT, as many ranges per command as it takes. */
int ata_trim(struct device *dev, const struct sector_range *ranges, unsigned int n);

#endif
