/* The checks a command that touches data makes before it sends anything, and the words of its outcome. */
#ifndef HDPARM_CHECKS_H
#define HDPARM_CHECKS_H

#include <stdbool.h>
#include <stdint.h>

#include "device.h"
#include "values.h"

/* 0 on a whole disk; EINVAL, naming the absolute LBA for lba, on a partition. */
int need_whole_disk(struct device *dev, uint64_t lba);
/* The same for an operation on the whole disk that names no LBA (--scan-repair): one line, naming option. */
int need_whole_disk_for(struct device *dev, const char *option);

/* 0 when count sectors from lba lie within a drive of capacity sectors; else EINVAL, said for opt. */
int check_lba(const char *opt, uint64_t capacity, uint64_t lba, uint64_t count);

/* The same, naming what holds the sectors ("namespace"). */
int check_range(const char *opt, const char *what, uint64_t capacity, uint64_t lba, uint64_t count);

/* "succeeded" or "FAILED", 9.65's word for a command it announced; returns err. */
int say_outcome(int err);

/* Word a disk's cause (disk_facts.h) on stderr, once: " WHAT failed: WHY" or " WHY"; returns err. */
int say_cause(const struct disk_cause *c, int err);

/* The same, where a cause about the option is worded after it as typed (" -W0: WHY"). */
int say_cause_for(const struct disk_cause *c, int err, const char *as_typed);

/*
 * The disk is in standby, as a command that does not wake it says, and a
 * query's read would wake it (a kind whose queries wake nothing is not
 * asked): -H and --power-on-hours leave it asleep.
 */
bool disk_asleep(struct device *dev);

/*
 * What such a query says instead: " drive state is:  standby (WHAT was not
 * read: that would wake the disk)", and in the JSON the object KEY with
 * "not_read": "standby" (after NULL_KEY: null, where not NULL), and the
 * power mode where -C does not give it.
 */
void say_left_asleep(const struct settings *s, const char *what, const char *key, const char *null_key);

/* Write back and forget the device's cached blocks, so no stale copy survives a command. */
void drop_cached_sectors(struct device *dev);

#endif
