/*
 * Choosing the transport of a device.  An NVMe device answers the NVMe
 * ioctls; anything else is taken for an ATA drive (libata disks, SAT
 * bridges, the legacy IDE driver), unless it turns out to be a SCSI disk
 * that refuses ATA pass-through.
 */
#include "disk.h"
#include "nvme.h"
#include "scsi_disk.h"
#include "sectors.h"
#include "settings.h"
#include "sgio.h"
#include "trim.h"

static const struct disk_ops ata_disk = {
	.kind = "ATA",
	.ata = true,
	.op = {
		[DISK_IDENTIFY] = show_identify,
		[DISK_IDENTITY] = show_identity,
		[DISK_GET_CACHE] = get_drive_feature,
		[DISK_SET_CACHE] = ata_set_cache,
		[DISK_FLUSH] = flush_write_cache,
		[DISK_POWER_MODE] = check_power_mode,
		[DISK_POWER_COMMAND] = power_command,
		[DISK_STANDBY_TIMER] = set_standby_timer,
	},
	.read_sector = ata_read_sector,
	.trim = ata_trim,
};

void disk_choose(struct device *dev)
{
	nvme_detect(dev);
	if (dev->nvme_nsid)
		dev->disk = &nvme_disk;
	else if (scsi_may_lack_ata(dev) && ata_pass_through_refused(dev)) {
		dev->disk = &scsi_disk;
		scsi_disk_attach(dev);
	}
	else
		dev->disk = &ata_disk;
}
