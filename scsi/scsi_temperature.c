/* -H on a SCSI disk: the Temperature log page (SPC-4 7.3.21).  The table of the disk's commands is scsi_disk.c's. */
#include <errno.h>
#include <stdio.h>

#include "scsi.h"
#include "scsi_temperature.h"

/* -H: the Temperature log page's current temperature, and its reference (the trip point smartctl shows). */
int scsi_disk_temperature(struct device *dev, struct disk_temperature *t)
{
	uint8_t buf[64];
	struct scsi_result res;
	struct scsi_temperature st;
	int err = scsi_log_sense(dev, LOG_PAGE_TEMPERATURE, buf, sizeof(buf), &res);

	if (!err && (!scsi_decode_temperature_page(buf, res.got, &st) || !st.has_current)) {
		snprintf(res.cause, sizeof(res.cause), "the disk returned no temperature");
		err = EIO;
	}
	if (err)
		return scsi_cause(&t->cause, "LOG SENSE (temperature)", &res, err);
	t->source = TEMP_SCSI_LOG;
	t->celsius = st.current;
	if (st.has_reference)
		t->reference = st.reference;
	return 0;
}
