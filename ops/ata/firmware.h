/* DOWNLOAD MICROCODE (--fwdownload and its modes). */
#ifndef HDPARM_FIRMWARE_H
#define HDPARM_FIRMWARE_H

#include "commands.h"

step_fn firmware_download;

/* Its checks alone, nothing sent but IDENTIFY: a many-disk run's check step. */
step_fn firmware_download_check;

#endif
