/*
 * -i: the short paragraph of HDIO_GET_IDENTITY's page, as 9.65 prints it,
 * and its JSON (the strings as the kernel stored them).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "array.h"
#include "ata.h"
#include "identify.h"
#include "json.h"
#include "report.h"

/*
 * At most max characters of a NUL-terminated device string, each as
 * out_device_char() writes it, so that a page cannot drive the terminal
 * (9.65 printed the bytes as they came).
 */
static void out_device_string(const char *s, size_t max)
{
	for (size_t i = 0; i < max && s[i]; i++)
		out_device_char((uint8_t)s[i]);
}

static const char *const config_names[16] = {
	"", " HardSect", " SoftSect", " NotMFM", " HdSw>15uSec", " SpinMotCtl", " Fixed", " Removable",
	" DTR<=5Mbs", " DTR>5Mbs", " DTR>10Mbs", " RotSpdTol>.5%", " dStbOff", " TrkOff", " FmtGapReq",
	" nonMagnetic",
};

/* strcat with a bound. */
static void append(char *buf, size_t size, const char *text)
{
	size_t len = strlen(buf);

	snprintf(buf + len, size - len, "%s", text);
}

/* "*" before the active mode, for each of the given classes of bits. */
static void add_mode_list(char *buf, size_t size, uint16_t word, const char *const names[],
			  unsigned int count)
{
	for (unsigned int m = 0; m < count; m++) {
		size_t len = strlen(buf);

		if (word & (0x100u << m))
			snprintf(buf + len, size - len, "*");
		len = strlen(buf);
		if (word & (1u << m))
			snprintf(buf + len, size - len, "%s ", names[m]);
	}
}

static void strip_copy(const uint16_t *words, int nwords, char *dst)
{
	char raw[64];
	char *s = raw;

	/* -i shows the bytes as the kernel stored them: no swapping. */
	memcpy(raw, words, (size_t)nwords * 2);
	raw[nwords * 2] = '\0';
	while (*s == ' ')
		s++;
	size_t n = strlen(s);
	while (n > 0 && s[n - 1] == ' ')
		s[--n] = '\0';
	snprintf(dst, 64, "%s", s);
}

void identify_json_short(const uint16_t id[IDENTIFY_WORDS])
{
	char model[64], fw[64], serial[64];

	strip_copy(&id[ATA_ID_MODEL], 20, model);
	strip_copy(&id[ATA_ID_FIRMWARE], 4, fw);
	strip_copy(&id[ATA_ID_SERIAL_NUMBER], 10, serial);
	json_object_begin("identify");
	json_string("model_name", model);
	json_string("firmware_version", fw);
	json_string("serial_number", serial);
	json_uint("user_capacity_blocks", identify_capacity(id));
	json_object_end();
}

/* -i's first lines: the strings, configuration, geometry, buffer and multiple sectors. */
static void print_short_identity(const uint16_t id[IDENTIFY_WORDS])
{
	char model[64], fw[64], serial[64];

	strip_copy(&id[ATA_ID_MODEL], 20, model);
	strip_copy(&id[ATA_ID_FIRMWARE], 4, fw);
	strip_copy(&id[ATA_ID_SERIAL_NUMBER], 10, serial);
	out("\n Model=");
	out_device_string(model, 40);
	out(", FwRev=");
	out_device_string(fw, 8);
	out(", SerialNo=");
	out_device_string(serial, 20);
	out("\n Config={");
	for (int b = 0; b <= 15; b++)
		if (id[ATA_ID_CONFIG] & (1u << b))
			out("%s", config_names[b]);
	out(" }\n");
	out(" RawCHS=%u/%u/%u, TrkSize=%u, SectSize=%u, ECCbytes=%u\n", id[ATA_ID_CYLS], id[ATA_ID_HEADS], id[ATA_ID_SECTORS], id[ATA_ID_BYTES_PER_TRACK],
	       id[ATA_ID_BYTES_PER_SECTOR], id[ATA_ID_ECC_BYTES]);
	if (id[ATA_ID_BUFFER_TYPE] > 3)
		out(" BuffType=%u", id[ATA_ID_BUFFER_TYPE]);
	else
		out(" BuffType=%s", identify_buffer_type(id[ATA_ID_BUFFER_TYPE]));
	if (ata_id_word_reported(id[ATA_ID_BUFFER_SIZE]))
		out(", BuffSize=%ukB", id[ATA_ID_BUFFER_SIZE] / 2);
	else
		out(", BuffSize=unknown");
	out(", MaxMultSect=%u", id[ATA_ID_MAX_MULTIPLE] & 0xff);
	if (id[ATA_ID_MAX_MULTIPLE] & 0xff) {
		out(", MultSect=");
		if (!(id[ATA_ID_MULTIPLE] & 0x100))
			out("?%u?", id[ATA_ID_MULTIPLE] & 0xff);
		else if (id[ATA_ID_MULTIPLE] & 0xff)
			out("%u", id[ATA_ID_MULTIPLE] & 0xff);
		else
			out("off");
	}
	out_char('\n');
}

/* -i's addressing and transfer modes, "*" marking the ones selected. */
static void print_short_modes(const uint16_t id[IDENTIFY_WORDS])
{
	char pio[64] = "", dma[128] = "", udma[128] = "";
	static const char *const sdma_names[] = { "sdma0", "sdma1", "sdma2", NULL, NULL, NULL, NULL, NULL };
	static const char *const mdma_names[] = { "mdma0", "mdma1", "mdma2" };
	static const char *const udma_names[] = { "udma0", "udma1", "udma2", "udma3", "udma4", "udma5", "udma6" };

	unsigned int tpio = id[ATA_ID_OLD_PIO_MODES] >> 8;

	if (tpio <= 5) {
		append(pio, sizeof(pio), "pio0 ");
		if (tpio >= 1)
			append(pio, sizeof(pio), "pio1 ");
		if (tpio >= 2)
			append(pio, sizeof(pio), "pio2 ");
	}
	if (!(id[ATA_ID_FIELD_VALID] & 1))
		out(" (maybe):");
	out(" CurCHS=%u/%u/%u, CurSects=%u", id[ATA_ID_CUR_CYLS], id[ATA_ID_CUR_HEADS], id[ATA_ID_CUR_SECTORS],
	       (unsigned int)id[ATA_ID_CUR_CAPACITY] | ((unsigned int)id[ATA_ID_CUR_CAPACITY + 1] << 16));
	out(", LBA=%s", (id[ATA_ID_CAPABILITY] & 0x200) ? "yes" : "no");
	if (id[ATA_ID_CAPABILITY] & 0x200)
		out(", LBAsects=%llu", (unsigned long long)identify_capacity(id));

	if ((id[ATA_ID_CAPABILITY] & 0x100) && (id[ATA_ID_SWDMA_MODES] | id[ATA_ID_MWDMA_MODES])) {
		add_mode_list(dma, sizeof(dma), id[ATA_ID_SWDMA_MODES], sdma_names, 3);
		if (id[ATA_ID_SWDMA_MODES] & 0xf800)
			append(dma, sizeof(dma), "*");
		if (id[ATA_ID_SWDMA_MODES] & 0xf8)
			append(dma, sizeof(dma), "sdma? ");
		add_mode_list(dma, sizeof(dma), id[ATA_ID_MWDMA_MODES], mdma_names, 3);
		if (id[ATA_ID_MWDMA_MODES] & 0xf800)
			append(dma, sizeof(dma), "*");
		if (id[ATA_ID_MWDMA_MODES] & 0xf8)
			append(dma, sizeof(dma), "mdma? ");
	}
	out("\n IORDY=");
	if (id[ATA_ID_CAPABILITY] & 0x800)
		out((id[ATA_ID_CAPABILITY] & 0x400) ? "on/off" : "yes");
	else
		out("no");
	if ((id[ATA_ID_CAPABILITY] & 0x800) || (id[ATA_ID_FIELD_VALID] & 2)) {
		if (id[ATA_ID_FIELD_VALID] & 2) {
			out(", tPIO={min:%u,w/IORDY:%u}", id[ATA_ID_PIO_CYCLE], id[ATA_ID_PIO_IORDY_CYCLE]);
			if (id[ATA_ID_PIO_MODES] & 1)
				append(pio, sizeof(pio), "pio3 ");
			if (id[ATA_ID_PIO_MODES] & 2)
				append(pio, sizeof(pio), "pio4 ");
			if (id[ATA_ID_PIO_MODES] & ~3)
				append(pio, sizeof(pio), "pio? ");
		}
		if (id[ATA_ID_FIELD_VALID] & 4)
			add_mode_list(udma, sizeof(udma), id[ATA_ID_UDMA_MODES], udma_names, 7);
	}
	if ((id[ATA_ID_CAPABILITY] & 0x100) && (id[ATA_ID_FIELD_VALID] & 2))
		out(", tDMA={min:%u,rec:%u}", id[ATA_ID_DMA_MIN_CYCLE], id[ATA_ID_DMA_CYCLE]);
	out("\n PIO modes:  %s", pio);
	if (*dma)
		out("\n DMA modes:  %s", dma);
	if (*udma)
		out("\n UDMA modes: %s", udma);
}

/* -i's power management, write cache and the standard the drive conforms to. */
static void print_short_standards(const uint16_t id[IDENTIFY_WORDS])
{
	out("\n AdvancedPM=%s", (id[ATA_ID_COMMAND_SET_2] & 8) ? "yes" : "no");
	if (id[ATA_ID_COMMAND_SET_2] & 8) {
		if (!(id[ATA_ID_CFS_ENABLE_2] & 8))
			out(": disabled (255)");
		else if ((id[ATA_ID_APM_LEVEL] & 0xff00) != 0x4000)
			out(": unknown setting");
		else
			out(": mode=0x%02X (%u)", id[ATA_ID_APM_LEVEL] & 0xff, id[ATA_ID_APM_LEVEL] & 0xff);
	}
	if (id[ATA_ID_COMMAND_SET_1] & 0x20)
		out(" WriteCache=%s", (id[ATA_ID_CFS_ENABLE_1] & 0x20) ? "enabled" : "disabled");
	if (id[ATA_ID_MINOR_VERSION] || id[ATA_ID_MAJOR_VERSION]) {
		const char *mv = id[ATA_ID_MINOR_VERSION] <= 31 ? identify_minor_version(id[ATA_ID_MINOR_VERSION]) : NULL;

		out("\n Drive conforms to: %s: ", mv ? mv : "unknown");
		if (ata_id_word_reported(id[ATA_ID_MAJOR_VERSION])) {
			int count = 0;

			for (int v = 0; v <= 7; v++)
				if (id[ATA_ID_MAJOR_VERSION] & (1u << v))
					out("%s%d", count++ ? "," : " ATA/ATAPI-", v);
		}
	}
}

void identify_print_short(const uint16_t id[IDENTIFY_WORDS])
{
	print_short_identity(id);
	print_short_modes(id);
	print_short_standards(id);
	out("\n");
	out("\n * signifies the current active mode\n");
	out("\n");
}
