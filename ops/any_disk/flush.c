/*
 * -F on every disk: the kind's command (FLUSH CACHE (EXT) on ATA, Flush on
 * NVMe, SYNCHRONIZE CACHE on SCSI) writes the cache out; this file words
 * its failure, once, and refuses a disk without one.
 */
#include "checks.h"
#include "flush.h"

int flush_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct disk_cause cause = { 0 };
	int err;

	if (!dev->disk->flush)
		return refuse_on_this_disk(dev, s->v[opt].name);
	err = dev->disk->flush(dev, &cause);
	return err ? say_cause(&cause, err) : 0;
}
