/*
 * What a command that touches data checks before it sends anything (a
 * whole disk rather than a partition, since sector commands take absolute
 * LBAs; LBAs within the drive), and the words every kind's outcome and
 * cause are said in.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <linux/fs.h>

#include "checks.h"
#include "json.h"
#include "partition.h"
#include "sysfs.h"
#include "report.h"

/*
 * Sector commands take absolute LBAs: refuse a partition, naming the right
 * LBA, and refuse when where the device starts cannot be known.
 */
int need_whole_disk(struct device *dev, uint64_t lba)
{
	unsigned long long start;
	int err = partition_start(block_device_of(dev->fd), dev->fd, dev->path, &start);

	if (err)
		return err;
	if (!start)
		return 0;
	complain("Device %s has non-zero LBA starting offset of %llu.\n", dev->path, start);
	complain("Please use an absolute LBA with the /dev/ entry for the raw device, rather than a partition or raid name.\n");
	complain("The absolute LBA of sector %llu from %s should be %llu\n", (unsigned long long)lba, dev->path,
		start + lba);
	complain("Aborting.\n");
	return EINVAL;
}

int need_whole_disk_for(struct device *dev, const char *option)
{
	unsigned long long start;
	int err = partition_start(block_device_of(dev->fd), dev->fd, dev->path, &start);

	if (err || !start)
		return err;
	complain(" %s: %s is a partition (it starts at LBA %llu of its disk): refused, nothing read or written;"
		 " name the whole disk (with --scan-range for the partition's LBAs)\n", option, dev->path, start);
	/* As need_disk_unused's refusal: the device has no step to run. */
	dev->refused = true;
	return EINVAL;
}

int check_range(const char *opt, const char *what, uint64_t capacity, uint64_t lba, uint64_t count)
{
	if (lba >= capacity || count > capacity - lba) {
		complain(" %s %llu: beyond the end of the %s (%llu sectors)\n", opt, (unsigned long long)lba, what,
			 (unsigned long long)capacity);
		return EINVAL;
	}
	return 0;
}

int check_lba(const char *opt, uint64_t capacity, uint64_t lba, uint64_t count)
{
	return check_range(opt, "drive", capacity, lba, count);
}

/* 9.65's word for how a command it announced went; returns err. */
int say_outcome(int err)
{
	out(err ? "FAILED\n" : "succeeded\n");
	return err;
}

int say_cause(const struct disk_cause *c, int err)
{
	return say_cause_for(c, err, NULL);
}

int say_cause_for(const struct disk_cause *c, int err, const char *as_typed)
{
	if (c->about_option && as_typed)
		complain(" %s: %s\n", as_typed, c->why);
	else if (c->whole_line)
		complain("%s\n", c->why);
	else if (c->what)
		complain(" %s failed: %s\n", c->what, c->why[0] ? c->why : strerror(err));
	else if (c->why[0])
		complain(" %s\n", c->why);
	return err;
}

void drop_cached_sectors(struct device *dev)
{
	sync();
	fsync(dev->fd);
	ioctl(dev->fd, BLKFLSBUF, NULL);
}

bool disk_asleep(struct device *dev)
{
	enum disk_power power = DISK_POWER_UNKNOWN;

	/* Where the power state cannot be told, the reading goes ahead. */
	return !dev->disk->queries_wake_nothing && dev->disk->power_state && dev->disk->power_state(dev, &power) == 0 &&
	       power == DISK_POWER_STANDBY;
}

void say_left_asleep(const struct settings *s, const char *what, const char *key, const char *null_key)
{
	out(" drive state is:  standby (%s was not read: that would wake the disk)\n", what);
	json_object_begin(key);
	if (null_key)
		json_null(null_key);
	json_string("not_read", "standby");
	json_object_end();
	if (!s->v[OPT_POWERMODE].given)
		json_string("power_mode", "standby");
}
