/*
 * Choosing the kind of disk a device is, once: its commands are then
 * dev->disk's (ata_disk.c, nvme_disk.c, scsi_disk.c).  An NVMe device
 * answers the NVMe ioctls; anything else is taken for an ATA drive
 * (libata disks, SAT bridges, the legacy IDE driver), unless it turns out
 * to be a SCSI disk that refuses ATA pass-through.
 */
#include <stdlib.h>
#include <unistd.h>

#include "ata_disk.h"
#include "disk.h"
#include "sysfs.h"
#include "nvme.h"
#include "nvme_disk.h"
#include "scsi_disk.h"
#include "ata_commands.h"

void disk_choose(struct device *dev)
{
	/* A bridge decides what reaches the disk: the kinds and the advice need to know it. */
	if (!sysfs_usb_bridge(dev->fd, dev->usb_id, &dev->usb_driver))
		dev->usb_driver = NULL;
	if (nvme_detect(dev)) {
		dev->disk = &nvme_disk;
	} else if (scsi_may_lack_ata(dev) && ata_pass_through_refused(dev)) {
		dev->disk = &scsi_disk;
	} else {
		dev->disk = &ata_disk;
	}
}

void disk_release(struct device *dev)
{
	free(dev->ata_state);
	free(dev->nvme_node);
	dev->ata_state = NULL;
	dev->nvme_node = NULL;
	/* The run on this disk is over: another may change it now. */
	while (dev->n_held)
		close(dev->held[--dev->n_held]);
}
