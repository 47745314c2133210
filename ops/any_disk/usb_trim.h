/*
 * TRIM over USB: whether a discard reaches a disk behind a USB bridge, and
 * where it stops (the kernel, the bridge, the disk); --usb-trim switches the
 * kernel's part.
 */
#ifndef HDPARM_USB_TRIM_H
#define HDPARM_USB_TRIM_H

#include <stddef.h>
#include <stdint.h>

#include "commands.h"

/* -I and --json -I on a disk behind a USB bridge: the text block and the "usb_trim" object. */
void usb_trim_show(struct device *dev);

/* --usb-trim on|off. */
step_fn usb_trim_step;

/*
 * usb_trim as the configuration holds it: *on 1 where the kernel sends
 * UNMAP now.  0, or EOPNOTSUPP with why where the disk cannot take the
 * setting (not behind USB; for want_on, a bridge or disk without UNMAP);
 * ETIMEDOUT where the bridge stopped answering.
 */
int usb_trim_now(struct device *dev, bool want_on, uint64_t *on, char *why, size_t size);

#endif
