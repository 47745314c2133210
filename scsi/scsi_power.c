/*
 * A SCSI disk's power: REQUEST SENSE's low-power conditions (-C), START
 * STOP UNIT (-y, -Y), the power condition mode page's standby timer (-S).
 * The table of the disk's commands is scsi_disk.c's.
 */
#include <dirent.h>
#include <errno.h>
#include <string.h>
#include "json.h"
#include "report.h"
#include "scsi.h"
#include "scsi_power.h"
#include "sysfs.h"
#include "unaligned.h"

/* -C: REQUEST SENSE's power condition, which asking does not change (SPC-4 4.5.2). */
int scsi_power_mode(struct device *dev, struct disk_power_mode *m)
{
	struct sense now;
	struct scsi_result res;
	int err = scsi_request_sense(dev, &now, &res);

	if (err)
		return scsi_cause(&m->cause, "REQUEST SENSE", &res, err);
	m->state = scsi_power_state(&now);
	m->power = strcmp(m->state, "standby") == 0 ? DISK_POWER_STANDBY
		   : strcmp(m->state, "idle") == 0  ? DISK_POWER_IDLE
						    : DISK_POWER_ACTIVE;
	return 0;
}

/* REQUEST SENSE does not wake a disk in a low power condition (SPC-4 4.5.2). */
int scsi_disk_power_state(struct device *dev, enum disk_power *state)
{
	struct disk_power_mode m = { .power_state = -1 };
	int err = scsi_power_mode(dev, &m);

	*state = err ? DISK_POWER_UNKNOWN : m.power;
	return err;
}

/* -y and the idle watcher: START STOP UNIT into the standby power condition. */
int scsi_disk_standby_now(struct device *dev, const struct disk_standby *t, struct disk_cause *c)
{
	struct scsi_result res;

	(void)t;	/* the standby power condition is the one there is */
	return scsi_cause(c, "START STOP UNIT", &res, scsi_start_stop(dev, POWER_CONDITION_STANDBY, 0, false, &res));
}

/*
 * A stopped disk stays stopped: unless its scsi_disk's allow_restart is 1
 * (sd sets it only for ATA disks behind libata), the kernel fails every
 * I/O to it until something sends START.  Said after -Y, with both ways out.
 */
static void how_to_restart(struct device *dev, char *advice, size_t size)
{
	char dir[200], sub[300], name[64] = "", value[8];
	struct dirent *e;
	DIR *d;

	if (!sysfs_scsi_dir(dev->fd, dir, sizeof(dir) - 20))
		return;
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/device/scsi_disk");
	d = opendir(dir);
	while (d && !name[0] && (e = readdir(d)))
		if (e->d_name[0] != '.')
			snprintf(name, sizeof(name), "%.*s", (int)sizeof(name) - 1, e->d_name);
	if (d)
		closedir(d);
	snprintf(sub, sizeof(sub), "%s/%s", dir, name);
	if (!name[0] || sysfs_read_line(sub, "allow_restart", value, sizeof(value)) || strcmp(value, "0") != 0)
		return;
	snprintf(advice, size,
		 "%s is stopped, and the kernel fails its I/O until it is started (allow_restart is 0): start it with"
		 " sg_start --start %s, or let the kernel start it on the next I/O with"
		 " echo 1 > /sys/class/scsi_disk/%s/allow_restart", dev->path, dev->path, name);
}

/* -Y: stop the disk, as sdparm --command=stop does. */
int scsi_disk_sleep_now(struct device *dev, struct disk_cause *c, char *advice, size_t size)
{
	struct scsi_result res;
	int err = scsi_start_stop(dev, POWER_CONDITION_START_VALID, 0, false, &res);

	if (!err)
		how_to_restart(dev, advice, size);
	return scsi_cause(c, "START STOP UNIT", &res, err);
}

/* -S: the power condition mode page's STANDBY_Z timer, in 100 ms, from -S's encoding. */
int scsi_disk_standby_timer(struct device *dev, unsigned int value, long seconds, struct disk_cause *c)
{
	uint8_t mode[MODE_SENSE_BUF], *page;
	size_t len;
	struct scsi_result res;
	int err;

	(void)value;	/* the disk takes seconds */
	if (seconds < 0) {
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "the value has no time in seconds that a SCSI disk could be given");
		return EINVAL;
	}
	err = scsi_mode_sense(dev, MODE_PAGE_POWER_CONDITION, 0, MODE_CURRENT, mode, sizeof(mode), &page, &len, &res);
	if (err == EOPNOTSUPP || scsi_refused(err, &res) || (!err && len < 12)) {
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "not supported by this disk (it has no power condition mode page)");
		return EOPNOTSUPP;
	}
	if (err)
		return scsi_cause(c, "MODE SENSE (power condition page)", &res, err);
	page[3] = (uint8_t)(seconds ? page[3] | POWER_CONDITION_STANDBY_Z : page[3] & ~POWER_CONDITION_STANDBY_Z);
	/* The STANDBY_Z condition timer counts 100 ms. */
	put_be32(page + 8, (uint32_t)(seconds * 10));
	err = scsi_mode_select(dev, mode, page, len, false, &res);
	return scsi_cause(c, "MODE SELECT (power condition page)", &res, err);
}
