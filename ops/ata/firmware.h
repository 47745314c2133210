/* DOWNLOAD MICROCODE (--fwdownload and its modes). */
#ifndef HDPARM_FIRMWARE_H
#define HDPARM_FIRMWARE_H

#include "commands.h"

step_fn firmware_download;

#endif
