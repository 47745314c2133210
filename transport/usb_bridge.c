/*
 * The bridge table.  Every id is one that smartmontools' drive database
 * (drivedb.h, its "USB:" entries; 7.3 as Debian ships it in
 * /usr/share/smartmontools, 7.5 from its RELEASE_7_5 tag) lists with the
 * -d type given here, but one: 152d:0581, which the issue names and the
 * USB ID database calls JMicron's "USB to SATA/PCIe Bridge" (the JMS581;
 * drivedb lists that chip as 152d:b581).  Only exact ids: the database's
 * vendor-wide patterns (0x174c:0x...., "-d sat") would put an NVMe bridge
 * the database does not know under SAT's name.
 */
#include "array.h"
#include "usb_bridge.h"

#define DB73 "drivedb.h 7.3 and 7.5: "
#define DB75 "drivedb.h 7.5: "

#define JMICRON(v, p, chip, src) { v, p, chip, BRIDGE_SNTJMICRON, false, false, src }
#define ASMEDIA(v, p, chip, src) { v, p, chip, BRIDGE_SNTASMEDIA, false, false, src }
#define REALTEK(v, p, chip, src) { v, p, chip, BRIDGE_SNTREALTEK, false, false, src }
/* An NVMe tunnel whose chip takes SATA drives too ("-d sntjmicron/sat", "NVMe or SATA"). */
#define EITHER(v, p, chip, proto, src) { v, p, chip, proto, false, true, src }
#define SAT(v, p, chip, src) { v, p, chip, BRIDGE_SAT, false, false, src }
#define SAT12(v, p, chip, src) { v, p, chip, BRIDGE_SAT, true, false, src }

static const struct usb_bridge bridges[] = {
	/* NVMe through JMicron's vendor command (smartctl -d sntjmicron). */
	JMICRON(0x152d, 0x0583, "JMicron JMS583", DB73 "\"USB: ; JMicron JMS583\" 0x152d:0x0583 (7.5: 0x[0a]583)"),
	JMICRON(0x152d, 0xa583, "JMicron JMS583", DB75 "\"USB: ; JMicron JMS583\" 0x152d:0x[0a]583"),
	EITHER(0x152d, 0xb581, "JMicron JMS581", BRIDGE_SNTJMICRON, DB75 "\"USB: ; JMicron JMS581\" 0x152d:0xb581, -d sntjmicron/sat"),
	EITHER(0x152d, 0x0581, "JMicron JMS581", BRIDGE_SNTJMICRON,
	       "usb.ids: 152d:0581 \"USB to SATA/PCIe Bridge\" (not in drivedb.h, whose JMS581 is 152d:b581)"),
	JMICRON(0x30de, 0x1000, "KIOXIA EXCERIA PLUS (JMicron protocol)", DB75 "\"USB: ; \" 0x30de:0x1000 (KIOXIA EXCERIA PLUS), -d sntjmicron"),
	/* ... ASMedia's (-d sntasmedia). */
	ASMEDIA(0x174c, 0x2362, "ASMedia ASM2362", DB73 "\"USB: ; ASMedia ASM2362\" 0x174c:0x2362 (7.5: 0x236[24])"),
	ASMEDIA(0x174c, 0x2364, "ASMedia ASM2364", DB75 "\"USB: ; ASMedia ASM236x\" 0x174c:0x236[24]"),
	ASMEDIA(0x0411, 0x039d, "ASMedia (Buffalo SSD-PSTA/N)", DB75 "\"USB: Buffalo SSD-PSTA/N; ASMedia\" 0x0411:0x039d"),
	ASMEDIA(0x04e8, 0x4001, "ASMedia ASM2362 (Samsung Portable SSD T7)", DB75 "\"USB: Samsung Portable SSD T7; ASMedia ASM2362\" 0x04e8:0x(4001|61fb)"),
	ASMEDIA(0x04e8, 0x61fb, "ASMedia ASM2362 (Samsung Portable SSD T7 Shield)", DB75 "\"USB: Samsung Portable SSD T7; ASMedia ASM2362\" 0x04e8:0x(4001|61fb)"),
	ASMEDIA(0x04e8, 0x61fd, "ASMedia ASM2362 (Samsung Portable SSD T9)", DB75 "\"USB: Samsung Portable SSD T9; ASMedia ASM2362\" 0x04e8:0x61fd"),
	ASMEDIA(0x0781, 0x55ae, "ASMedia ASM2362 (SanDisk Extreme)", DB75 "\"USB: SanDisk Extreme; ASMedia ASM2362\" 0x0781:0x55ae"),
	ASMEDIA(0x0b05, 0x1932, "ASMedia ASM236x (Asus ROG Strix Arion)", DB75 "\"USB: ; ASMedia ASM236x\" 0x0b05:0x1932"),
	ASMEDIA(0x0bc2, 0xaa1a, "ASMedia ASM2364 (Seagate FireCuda Gaming SSD)", DB75 "\"USB: Seagate FireCuda Gaming SSD; ASMedia ASM2364\" 0x0bc2:0xaa1a"),
	ASMEDIA(0x1058, 0x266e, "ASMedia ASM236x (WD Elements SE SSD)", DB75 "\"USB: Western Digital; ASMedia ASM236x\" 0x1058:0x266e"),
	/* ... Realtek's (-d sntrealtek). */
	REALTEK(0x0bda, 0x9210, "Realtek RTL9210", DB73 "\"USB: ; Realtek RTL9210\" 0x0bda:0x9210"),
	EITHER(0x0bda, 0x9211, "Realtek RTL9211", BRIDGE_SNTREALTEK, DB73 "\"USB: ; Realtek RTL9211\" 0x(0bda|2eb9):0x9211, NVMe or SATA"),
	EITHER(0x2eb9, 0x9211, "Realtek RTL9211 (Sabrent EC-WPTF)", BRIDGE_SNTREALTEK, DB73 "\"USB: ; Realtek RTL9211\" 0x(0bda|2eb9):0x9211, NVMe or SATA"),
	EITHER(0x0bda, 0x9220, "Realtek RTL9220", BRIDGE_SNTREALTEK, DB75 "\"USB: ; Realtek RTL9220\" 0x0bda:0x9220, NVMe or SATA (-d sat)"),
	REALTEK(0x1de1, 0xe101, "Actions AM8180 (a Realtek RTL9210)", DB75 "\"USB: ; Actions AM8180\" 0x1de1:0xe101"),
	/* SATA through SAT's ATA PASS-THROUGH (-d sat). */
	SAT(0x152d, 0x0578, "JMicron JMS578", DB75 "\"USB: ; JMicron JMS578\" 0x152d:0x0578"),
	SAT(0x0080, 0x0578, "JMicron JMS578", DB75 "\"USB: ; JMicron JMS578\" 0x0080:0x0578"),
	SAT(0x152d, 0x0567, "JMicron JMS567", DB75 "\"USB: ; JMicron JMS567\" 0x152d:0x0567"),
	SAT(0x152d, 0x2567, "JMicron JMS567", DB75 "\"USB: ; JMicron JMS567\" 0x152d:0x2567"),
	SAT(0x152d, 0x0539, "JMicron JMS539", DB75 "\"USB: ; JMicron JMS539\" 0x152d:0x0539"),
	SAT(0x152d, 0x0562, "JMicron JMS562", DB75 "\"USB: ; JMicron JMS562\" 0x152d:0x0562"),
	SAT(0x152d, 0x0576, "JMicron JMS576", DB75 "\"USB: ; JMicron JMS576\" 0x152d:0x[01]576"),
	SAT(0x152d, 0x1576, "JMicron JMS576", DB75 "\"USB: ; JMicron JMS576\" 0x152d:0x[01]576"),
	SAT(0x152d, 0x1561, "JMicron JMS561", DB75 "\"USB: ; JMicron JMS561\" 0x152d:0x[19]561"),
	SAT(0x152d, 0x9561, "JMicron JMS561", DB75 "\"USB: ; JMicron JMS561\" 0x152d:0x[19]561"),
	SAT(0x174d, 0x1352, "ASMedia ASM1352-PM", DB75 "\"USB: ; ASMedia ASM1352-PM\" 0x174d:0x1352"),
	SAT(0x0bda, 0x9201, "Realtek RTL9201", DB75 "\"USB: ; Realtek RTL9201\" 0x0bda:0x9201"),
	SAT(0x2109, 0x0701, "VIA VL701", DB75 "\"USB: ; VIA VL701\" 0x2109:0x0701"),
	SAT(0x2109, 0x0711, "VIA VL711", DB75 "\"USB: ; VIA VL711\" 0x2109:0x0711"),
	SAT(0x2109, 0x0715, "VIA VL715", DB75 "\"USB: ; VIA VL715/6/7\" 0x2109:0x071[567]"),
	SAT(0x2109, 0x0716, "VIA VL716", DB75 "\"USB: ; VIA VL715/6/7\" 0x2109:0x071[567]"),
	SAT(0x2109, 0x0717, "VIA VL717", DB75 "\"USB: ; VIA VL715/6/7\" 0x2109:0x071[567]"),
	SAT(0x05e3, 0x0731, "Genesys Logic GL3310", DB75 "\"USB: ; Genesys Logic\" 0x05e3:0x0731"),
	SAT(0x045b, 0x0229, "Renesas uPD720231A", DB75 "\"USB: ; Renesas uPD720231A\" 0x045b:0x022[9a]"),
	SAT(0x045b, 0x022a, "Renesas uPD720231A", DB75 "\"USB: ; Renesas uPD720231A\" 0x045b:0x022[9a]"),
	SAT(0x1759, 0x5000, "LucidPort USB300", DB75 "\"USB: ; LucidPORT USB300\" 0x1759:0x500[02]"),
	SAT(0x1759, 0x5002, "LucidPort USB300", DB75 "\"USB: ; LucidPORT USB300\" 0x1759:0x500[02]"),
	SAT(0x1f75, 0x0621, "Innostor IS621", DB75 "\"USB: ; Innostor IS621\" 0x1f75:0x0621"),
	SAT(0x04e8, 0x61f5, "Samsung Portable SSD T5", DB75 "\"USB: Samsung Portable SSD T5; \" 0x04e8:0x61f5"),
	/* ... the 12-byte command only (-d sat,12). */
	SAT12(0x2109, 0x0700, "VIA VL700", DB75 "\"USB: ; VIA VL700\" 0x2109:0x0700, -d sat,12"),
	SAT12(0x13fd, 0x1640, "Initio", DB75 "\"USB: ; Initio\" 0x13fd:0x16[45]0, -d sat,12"),
	SAT12(0x13fd, 0x1650, "Initio", DB75 "\"USB: ; Initio\" 0x13fd:0x16[45]0, -d sat,12"),
	SAT12(0x0939, 0x0b13, "Initio INIC-1610PL (Toshiba Stor.E D10)", DB75 "\"USB: Toshiba Stor.E D10; Initio INIC-1610PL\" 0x0939:0x0b13, -d sat,12"),
	SAT12(0x0bc2, 0x3008, "Seagate FreeAgent", DB75 "\"USB: Seagate FreeAgent; \" 0x0bc2:0x(3008|50(31|a1)), -d sat,12"),
	SAT12(0x0bc2, 0x5031, "Seagate FreeAgent", DB75 "\"USB: Seagate FreeAgent; \" 0x0bc2:0x(3008|50(31|a1)), -d sat,12"),
	SAT12(0x0bc2, 0x50a1, "Seagate FreeAgent", DB75 "\"USB: Seagate FreeAgent; \" 0x0bc2:0x(3008|50(31|a1)), -d sat,12"),
	SAT12(0x0951, 0x177f, "Kingston DataTraveller", DB75 "\"USB: Kingston DataTraveller; \" 0x0951:0x177f, -d sat,12"),
	SAT12(0x18a5, 0x0237, "Verbatim Pocket Hard Drive", DB75 "\"USB: Verbatim Pocket Hard Drive; \" 0x18a5:0x0237, -d sat,12"),
	SAT12(0x0350, 0x0038, "ViPowER USB3.0 Storage", DB75 "\"USB: ViPowER USB3.0 Storage; \" 0x0350:0x0038, -d sat,12"),
};

/* Four hex digits, as sysfs writes idVendor and idProduct. */
static bool hex4(const char *p, uint16_t *v)
{
	unsigned int n = 0;

	for (int i = 0; i < 4; i++) {
		char c = p[i];
		unsigned int d;

		if (c >= '0' && c <= '9')
			d = (unsigned int)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned int)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned int)(c - 'A' + 10);
		else
			return false;
		n = n << 4 | d;
	}
	*v = (uint16_t)n;
	return true;
}

static bool parse_id(const char *id, uint16_t *vendor, uint16_t *product)
{
	return id && hex4(id, vendor) && id[4] == ':' && hex4(id + 5, product) && !id[9];
}

bool usb_bridge_id_valid(const char *id)
{
	uint16_t vendor, product;

	return parse_id(id, &vendor, &product);
}

const struct usb_bridge *usb_bridge_find(const char *id)
{
	uint16_t vendor, product;

	if (!parse_id(id, &vendor, &product))
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(bridges); i++)
		if (bridges[i].vendor == vendor && bridges[i].product == product)
			return &bridges[i];
	return NULL;
}

const char *usb_bridge_protocol_name(enum bridge_protocol p)
{
	static const char *const names[] = { "auto", "none", "sat", "sntjmicron", "sntasmedia", "sntrealtek" };

	return (unsigned int)p < ARRAY_SIZE(names) ? names[p] : "?";
}

bool usb_bridge_vendor_protocol(enum bridge_protocol p)
{
	return p == BRIDGE_SNTJMICRON || p == BRIDGE_SNTASMEDIA || p == BRIDGE_SNTREALTEK;
}
