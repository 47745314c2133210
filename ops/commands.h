/*
 * What every command shares with the runner: the shape of a step, and the
 * confirmation a dangerous one asks for.  Commands include this, never
 * the runner's or the command line's headers.
 */
#ifndef HDPARM_COMMANDS_H
#define HDPARM_COMMANDS_H

#include "device.h"
#include "values.h"

/* A step: one option's work in one phase. Returns 0 or an errno value. */
typedef int step_fn(struct device *dev, const struct settings *s, enum opt_id opt);

/* Refuse (EPERM, message on stderr) unless the confirmation flag was given. */
int confirm_dangerous(struct device *dev, const struct settings *s, const char *opt, const char *explanation);
int confirm_destructive(struct device *dev, const struct settings *s, const char *opt, const char *explanation);

/* " -B: not supported on NVMe devices" and the like, for an ATA command; returns EOPNOTSUPP. */
int refuse_on_this_disk(const struct device *dev, const char *option);

/* " --format-erase: not supported on SCSI devices": a command this kind of disk lacks; EOPNOTSUPP. */
int refuse_missing_command(const struct device *dev, const char *option);

/* A power option the disk has no command for: refused with its words for how its power is managed; EOPNOTSUPP. */
int refuse_power_option(struct device *dev, const char *option);

/*
 * After an ATA command failed on a drive behind a USB bridge: which bridge
 * (idVendor:idProduct, driver), what works through it instead, and under
 * uas the usb-storage quirk.  Nothing where no bridge is.
 */
void say_bridge_advice(const struct device *dev, const char *command, const char *instead);

/*
 * Behind a USB bridge's NVMe tunnel: an option the tunnel does not carry
 * (format, sanitize, firmware download, TCG) refused in one line that
 * names the bridge, before anything is sent; EOPNOTSUPP, else 0.
 */
int refuse_through_tunnel(struct device *dev, const struct settings *s);

/* After an erase option the disk has no command for: which options erase it, and what it supports. */
void say_erase_choices(struct device *dev);

#endif
