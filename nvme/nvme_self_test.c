/*
 * --self-test on an NVMe controller: Device Self-test (14h), and whether
 * one runs from the Device Self-test log (06h): byte 0 bits 3:0 the test
 * in progress (0: none), byte 1 bits 6:0 its per cent complete (NVMe Base
 * 2.0, Device Self-test log).  Its results are condition_read's.
 */
#include "nvme.h"
#include "nvme_self_test.h"
#include "nvme_spec.h"

#define SELF_TEST_LOG_HEADER 4	/* the two bytes read, and two reserved: a multiple of 4 */

int nvme_disk_self_test_start(struct device *dev, enum disk_self_test what, struct disk_cause *c)
{
	static const uint8_t stc[] = { [SELF_TEST_SHORT] = 0x1, [SELF_TEST_EXTENDED] = 0x2, [SELF_TEST_ABORT] = 0xf };

	return nvme_admin_self_test(dev, stc[what], c);
}

int nvme_disk_self_test_progress(struct device *dev, bool *running, int *percent_done, struct disk_cause *c)
{
	uint8_t log[SELF_TEST_LOG_HEADER] = { 0 };
	int err;

	c->what = "NVMe Get Log Page (Device Self-test)";
	if ((err = nvme_admin_get_log(dev, NVME_LOG_SELF_TEST, log, sizeof(log), c)))
		return err;
	*running = (log[0] & 0x0f) != 0;
	*percent_done = *running ? (log[1] & 0x7f) : -1;
	if (*percent_done > 100)
		*percent_done = 100;
	return 0;
}
