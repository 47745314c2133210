/*
 * --self-test on a SCSI disk: SEND DIAGNOSTIC (1Dh) with a background
 * SELF-TEST CODE (SPC-4 table of self-test codes: 001b short, 010b
 * extended, 100b abort the one in the background), and whether one runs
 * from the Self-Test Results log page (10h): its first parameter's
 * SELF-TEST RESULTS Fh, in progress.  Its results are condition_read's.
 */
#include <errno.h>
#include <stdio.h>

#include "scsi.h"
#include "scsi_self_test.h"
#include "unaligned.h"

#define SCSI_SEND_DIAGNOSTIC 0x1d
#define LOG_SELF_TEST_RESULTS 0x10
#define LOG_HEADER 4
#define PARAM_HEADER 4
#define RESULTS_IN_PROGRESS 0x0f

int scsi_disk_self_test_start(struct device *dev, enum disk_self_test what, struct disk_cause *c)
{
	static const uint8_t code[] = { [SELF_TEST_SHORT] = 1, [SELF_TEST_EXTENDED] = 2, [SELF_TEST_ABORT] = 4 };
	uint8_t cdb[6] = { SCSI_SEND_DIAGNOSTIC, (uint8_t)(code[what] << 5) };
	struct scsi_result res;

	return scsi_cause(c, "SEND DIAGNOSTIC", &res, scsi_exec(dev, cdb, sizeof(cdb), SCSI_NO_DATA, NULL, 0, 60, &res));
}

int scsi_disk_self_test_progress(struct device *dev, bool *running, int *percent_done, struct disk_cause *c)
{
	uint8_t page[LOG_HEADER + PARAM_HEADER + 16] = { 0 };
	struct scsi_result res;
	int err = scsi_log_sense(dev, LOG_SELF_TEST_RESULTS, page, sizeof(page), &res);

	if (err)
		return scsi_cause(c, "LOG SENSE (Self-Test Results)", &res, err);
	*percent_done = -1;	/* the page says none */
	/* The newest result is parameter 0001h, first; a page too short to hold it says none runs. */
	*running = res.got >= LOG_HEADER + PARAM_HEADER + 1 && (page[0] & 0x3f) == LOG_SELF_TEST_RESULTS &&
		   get_be16(page + LOG_HEADER) == 1 && (page[LOG_HEADER + PARAM_HEADER] & 0x0f) == RESULTS_IN_PROGRESS;
	return 0;
}
