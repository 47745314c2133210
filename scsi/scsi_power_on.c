/*
 * --power-on-hours on a SCSI disk: SBC keeps the powered-on time, in
 * minutes, in the Background Scan Results log page, which a disk without
 * background scanning (an SSD, a USB bridge) may not have.  The table of
 * the disk's commands is scsi_disk.c's.
 */
#include <errno.h>
#include <stdio.h>

#include "scsi.h"
#include "scsi_power_on.h"

int scsi_disk_power_on(struct device *dev, struct disk_power_on *p)
{
	uint8_t buf[64];
	struct scsi_result res;
	uint32_t minutes;
	int err = scsi_log_sense(dev, LOG_PAGE_BACKGROUND_SCAN, buf, sizeof(buf), &res);

	if (err == EOPNOTSUPP || scsi_refused(err, &res)) {
		p->cause.about_option = true;
		snprintf(p->cause.why, sizeof(p->cause.why), "the disk has no Background Scan Results log page (15h),"
			 " where SBC keeps the power-on time");
		return EOPNOTSUPP;
	}
	if (!err && !scsi_decode_power_on_minutes(buf, res.got, &minutes)) {
		snprintf(res.cause, sizeof(res.cause), "the disk returned no accumulated power on minutes");
		err = EIO;
	}
	if (err)
		return scsi_cause(&p->cause, "LOG SENSE (background scan results)", &res, err);
	p->hours = minutes / 60;
	p->minutes = (int)(minutes % 60);
	p->source = "Background Scan Results log page";
	return 0;
}
