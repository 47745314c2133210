/* Whether the kernel holds a disk for somebody, before a command that erases it. */
#ifndef HDPARM_INUSE_H
#define HDPARM_INUSE_H

#include "device.h"
#include "reach.h"

/*
 * 0 when a command that changes the medium, sent through dev, goes where
 * it was named: r gets what it reaches with scope.  Refused (EINVAL, said;
 * the device runs no further step) through a device-mapper or md volume
 * (the kernel passes it to the disks beneath), through an NVMe controller
 * node for a namespace's command, or where it reaches too many disks.
 */
int need_named_target(struct device *dev, const char *option, enum reach_scope scope, struct reach *r);

/* The disks scope reaches from the device named (reach_find(), with the namespace its kind says it names). */
void disk_reach(struct device *dev, enum reach_scope scope, struct reach *r);

/*
 * 0 when option may erase every disk it reaches from dev with scope: dev
 * is a whole disk (need_whole_disk) named as need_named_target wants, and
 * the kernel holds none of the disks reached, nor a partition of one.
 * Else EBUSY (or EINVAL), with one line on stderr that names the holders:
 * "/dev/sda1 mounted on /home", "/dev/sda2 is swap", "/dev/sda3 held by
 * dm-0 (vg-root)".  A refusal marks the device refused: no step runs.
 */
int need_disk_unused(struct device *dev, const char *option, enum reach_scope scope);

/*
 * 0 once dev holds locked (flock, disk_lock.h) the node of every disk in r
 * and the node named, until the run ends (disk_release()): no other run
 * that changes one of them starts meanwhile.  EBUSY where another holds
 * one, with one line that names it ("/dev/sdb is in use by another hdparm
 * run (process 4242)"); the device is marked refused.
 */
int need_disks_held(struct device *dev, const char *option, const struct reach *r);

#endif
