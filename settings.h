/* The steps that get and set drive and kernel settings (issue: settings). */
#ifndef HDPARM_SETTINGS_H
#define HDPARM_SETTINGS_H

#include "commands.h"

/* Kernel (block layer and legacy IDE) settings, by ioctl. */
step_fn set_kernel_setting, get_kernel_setting, get_multcount, get_geometry;
step_fn set_queue_depth, get_queue_depth, reread_partitions, flush_buffers;

/* Drive settings and commands, by ATA command. */
step_fn set_drive_feature, get_drive_feature, check_power_mode, power_command;
step_fn flush_write_cache, hitachi_temperature, set_standby_timer, set_powerup_standby;
step_fn set_multcount, set_write_cache, get_max_sectors, set_max_sectors, device_reset;
step_fn set_cdrom_speed, set_pio_mode, set_wdidle3, get_wdidle3;

/* -W N and -A N on an ATA drive: SET FEATURES, with flushes around turning the cache off. */
step_fn ata_set_cache;

/* Identification. */
step_fn show_identify, show_identity;

/* -S's value: " (21 minutes)\n" and the like, as 9.65 prints it; and in seconds (-1: no time). */
void print_standby_interval(unsigned int v);
long standby_interval_seconds(unsigned int v);

#endif
