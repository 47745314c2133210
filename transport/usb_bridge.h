/*
 * USB bridges by idVendor:idProduct: the chip, and what it passes on to
 * the disk behind it (SAT's ATA PASS-THROUGH, or one vendor's NVMe
 * tunnel).  Each id says where it came from (smartmontools' drive
 * database, its "USB:" entries).  A vendor command goes only to an id
 * named here, or where --bridge asks: some bridges hang on a command they
 * do not know.
 */
#ifndef HDPARM_USB_BRIDGE_H
#define HDPARM_USB_BRIDGE_H

#include <stdbool.h>
#include <stdint.h>

#include "device.h"

struct usb_bridge {
	uint16_t vendor, product;
	const char *chip;	/* "JMicron JMS583"; the enclosure's name where the database names no chip */
	enum bridge_protocol protocol;
	bool ata12_only;	/* SAT: only the 12-byte ATA PASS-THROUGH passes (smartctl's -d sat,12) */
	bool sata_too;		/* an NVMe tunnel whose chip also takes SATA drives, passed as SAT */
	const char *source;	/* where the id comes from */
};

/* The row of the id ("152d:0583", as sysfs_usb_bridge() reads it); NULL: in no row. */
const struct usb_bridge *usb_bridge_find(const char *id);

/* The id is four hex digits, a colon and four more, as the kernel writes them. */
bool usb_bridge_id_valid(const char *id);

/* smartctl's -d name of a protocol: "sat", "sntjmicron", ...; "auto", "none". */
const char *usb_bridge_protocol_name(enum bridge_protocol p);

/* A protocol of one vendor's NVMe tunnel (sntjmicron, sntasmedia, sntrealtek). */
bool usb_bridge_vendor_protocol(enum bridge_protocol p);

#endif
