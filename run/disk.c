/*
 * Choosing the kind of disk a device is, once: its commands are then
 * dev->disk's (ata_disk.c, nvme_disk.c, scsi_disk.c).  An NVMe device
 * answers the NVMe ioctls; anything else is taken for an ATA drive
 * (libata disks, SAT bridges, the legacy IDE driver), unless it turns out
 * to be a SCSI disk that refuses ATA pass-through.  Behind a USB bridge,
 * what the bridge passes is chosen here too: by --bridge, else by the
 * bridge table (transport/usb_bridge.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "ata_disk.h"
#include "disk.h"
#include "report.h"
#include "sysfs.h"
#include "nvme.h"
#include "nvme_disk.h"
#include "scsi_disk.h"
#include "ata_commands.h"
#include "usb_bridge.h"

/* A disk behind a USB bridge: what the bridge passes decides the kind (0), or the bridge hung or is gone (its errno). */
static int choose_behind_bridge(struct device *dev)
{
	struct disk_cause c = { 0 };
	int err;
	const struct usb_bridge *row = usb_bridge_find(dev->usb_id);
	enum bridge_protocol forced = dev->run.bridge;

	dev->bridge = forced != BRIDGE_AUTO ? forced : row ? row->protocol : BRIDGE_AUTO;
	/* smartctl's -d sat,12 bridges: --prefer-ata12, and the 16-byte command is never sent. */
	if (forced == BRIDGE_AUTO && row && row->ata12_only)
		dev->run.prefer_ata12 = dev->ata12_only = true;
	/*
	 * An NVMe tunnel: the drive is NVMe, asked nothing yet; where the chip
	 * takes SATA drives too, Identify Controller through the tunnel asks
	 * which (as smartctl's -d snt.../sat), and SAT's probes follow a
	 * failure.
	 */
	if (usb_bridge_vendor_protocol(dev->bridge)) {
		if (!(err = nvme_tunnel_detect(dev, forced == BRIDGE_AUTO && row && row->sata_too, &c))) {
			dev->disk = &nvme_disk;
			return 0;
		}
		/* A bridge that hung on its tunnel (or is gone) is asked nothing more: not SAT's probes either. */
		if (err == ETIMEDOUT || err == ENODEV || err == ENXIO) {
			complain("%s: %s failed: %s: nothing more is sent to it\n", dev->path, c.what ? c.what : "NVMe Identify",
				 c.why);
			dev->disk = &scsi_disk;
			dev->refused = true;
			return err;
		}
		dev->bridge = BRIDGE_AUTO;
	}
	/*
	 * none: nothing but SCSI, not even the ATA PASS-THROUGH that asks whether ATA passes; sat forced:
	 * ATA without asking; else a bridge with no SAT layer, or one that answers with nothing, leaves
	 * the disk to SCSI commands.
	 */
	if (dev->bridge == BRIDGE_NONE ||
	    (forced != BRIDGE_SAT && scsi_may_lack_ata(dev) &&
	     ata_pass_through_refused(dev, dev->bridge_nothing, sizeof(dev->bridge_nothing))))
		dev->disk = &scsi_disk;
	else
		dev->disk = &ata_disk;
	/* An id in no table, or a SAT bridge of the table that does not pass ATA: what passes is what answered. */
	if (dev->bridge == BRIDGE_AUTO || (dev->bridge == BRIDGE_SAT && forced == BRIDGE_AUTO))
		dev->bridge = dev->disk == &ata_disk ? BRIDGE_SAT : BRIDGE_NONE;
	return 0;
}

int disk_choose(struct device *dev)
{
	/* A bridge decides what reaches the disk: the kinds and the advice need to know it. */
	if (!sysfs_usb_bridge(dev->fd, dev->usb_id, &dev->usb_driver))
		dev->usb_driver = NULL;
	/* Printed and looked up: an id that is not the kernel's four hex digits twice counts as unread. */
	if (!usb_bridge_id_valid(dev->usb_id))
		dev->usb_id[0] = '\0';
	dev->bridge = BRIDGE_NONE;
	if (!dev->usb_driver && usb_bridge_vendor_protocol(dev->run.bridge)) {
		/* A vendor's command on a disk no such bridge is in front of: nothing is sent, nothing is chosen. */
		report_operation("--bridge");
		complain("%s: --bridge %s: not behind a USB bridge (no usb-storage or uas driver above it): nothing sent\n",
			 dev->path, usb_bridge_protocol_name(dev->run.bridge));
		dev->disk = &scsi_disk;
		dev->refused = true;
		return EINVAL;
	}
	if (nvme_detect(dev)) {
		dev->disk = &nvme_disk;
	} else if (dev->usb_driver) {
		int err = choose_behind_bridge(dev);

		if (err)
			return err;
	} else if (scsi_may_lack_ata(dev) && ata_pass_through_refused(dev, NULL, 0)) {
		dev->disk = &scsi_disk;
	} else {
		dev->disk = &ata_disk;
	}
	/* The probe timed out (a bridge that hangs on ATA PASS-THROUGH): each later command would wait as long. */
	if (dev->timed_out)
		dev->stop_at_timeout = true;
	return 0;
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
