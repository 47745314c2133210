/* --format-erase user|crypto: a format with a secure erase, where the disk has one (NVMe). */
#ifndef HDPARM_FORMAT_ERASE_H
#define HDPARM_FORMAT_ERASE_H

#include "commands.h"

step_fn format_erase_step;

/* The disk's refusal of the format, said, and nothing sent (many disks at once check them all first). */
step_fn format_erase_check;

#endif
