/*
 * The USB bridge in front of a disk, said: -I's first line and the
 * device's "bridge" object in --json.  What the bridge passes was chosen
 * once (run/disk.c); the chip and where its id comes from are the bridge
 * table's (transport/usb_bridge.c).  Nothing here sends a command.
 */
#include <stdio.h>

#include "bridge_say.h"
#include "json.h"
#include "report.h"
#include "usb_bridge.h"

/* What passes through, in words. */
static const char *passes(const struct device *dev, const struct usb_bridge *row)
{
	switch (dev->bridge) {
	case BRIDGE_SAT:
		return row && row->ata12_only && dev->run.bridge == BRIDGE_AUTO
			       ? "ATA through SAT, 12-byte ATA PASS-THROUGH only (as --prefer-ata12)"
			       : "ATA through SAT (ATA PASS-THROUGH)";
	case BRIDGE_SNTJMICRON:
	case BRIDGE_SNTASMEDIA:
	case BRIDGE_SNTREALTEK:
		return "NVMe through the bridge's vendor command";
	default:
		return "SCSI commands only";
	}
}

void bridge_say_text(const struct device *dev)
{
	const struct usb_bridge *row;
	char forced[40] = "";

	if (!dev->usb_driver)
		return;
	row = usb_bridge_find(dev->usb_id);
	if (dev->run.bridge != BRIDGE_AUTO)
		snprintf(forced, sizeof(forced), " (--bridge %s)", usb_bridge_protocol_name(dev->run.bridge));
	out("behind USB bridge %s: %s, %s%s, driver %s\n", dev->usb_id[0] ? dev->usb_id : "(its ID unread)",
	    row ? row->chip
		: usb_bridge_vendor_protocol(dev->bridge) ? "in no bridge table"
							 : "in no bridge table, so no vendor command is sent to it",
	    passes(dev, row), forced, dev->usb_driver);
	/* A SAT layer that gave nothing: the bridge's limit, which the drive is not to be blamed for. */
	if (dev->bridge_nothing[0])
		out("the bridge answered %s: the bridge's limit, not the drive's (--bridge sat sends ATA commands anyway)\n",
		    dev->bridge_nothing);
}

void bridge_say_json(const struct device *dev)
{
	const struct usb_bridge *row;

	if (!dev->usb_driver)
		return;
	row = usb_bridge_find(dev->usb_id);
	json_object_begin("bridge");
	/* As lsusb and sysfs write them: four hex digits each (null: unread). */
	if (dev->usb_id[0]) {
		json_stringn("usb_vendor_id", dev->usb_id, 4);
		json_string("usb_product_id", dev->usb_id + 5);
	} else {
		json_null("usb_vendor_id");
		json_null("usb_product_id");
	}
	json_string("driver", dev->usb_driver);
	json_string("chip", row ? row->chip : NULL);
	json_string("protocol", usb_bridge_protocol_name(dev->bridge));
	json_bool("forced", dev->run.bridge != BRIDGE_AUTO);
	if (dev->bridge_nothing[0])
		json_string("ata_pass_through_answer", dev->bridge_nothing);
	json_object_end();
}
