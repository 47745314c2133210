/*
 * -I: the IDENTIFY page as text, laid out as hdparm 9.65 prints it,
 * because scripts parse it.  It renders the decisions identify_decode()
 * took; the logs it prints from are passed in (no I/O here).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "array.h"
#include "ata.h"
#include "identify.h"
#include "report.h"

/* ---- small text tables ---- */

static const char *const packet_device_types[32] = {
	"Direct-access device", "Sequential-access device", "Printer", "Processor",
	"Write-once device", "CD-ROM", "Scanner", "Optical memory", "Medium changer",
	"Communications device", "ACS-IT8 device", "ACS-IT8 device", "Array controller",
	"Enclosure services", "Reduced block command device", "Optical card reader/writer",
	"", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "Unknown",
};

/* Word 0 bits 1..14 in ATA-1 drives. */
static const char *const ata1_config_bits[16] = {
	"reserved", "hard sectored", "soft sectored", "not MFM encoded ",
	"head switch time > 15us", "spindle motor control option", "fixed drive",
	"removable drive", "disk xfer rate <= 5Mbs", "disk xfer rate > 5Mbs, <= 10Mbs",
	"disk xfer rate > 5Mbs", "rotational speed tol.", "data strobe offset option",
	"track offset option", "format speed tolerance gap reqd", "ATAPI",
};

static const char *const security_bits[6] = {
	"supported", "enabled", "locked", "frozen", "expired: security count",
	"supported: enhanced erase",
};

static const char *const form_factors[6] = {
	NULL, "5.25 inch", "3.5 inch", "2.5 inch", "1.8 inch", "less than 1.8 inch",
};

/* Sector Configuration log: the logical sector sizes on offer. */
static void print_sector_size_list(const uint8_t *log)
{
	struct sector_config configs[SECTOR_CONFIGS];
	unsigned int n;

	if (!log || !(n = sector_configs(log, configs)))
		return;
	out(" [ Supported:");
	for (unsigned int i = 0; i < n; i++)
		out(" %u", (unsigned int)configs[i].bytes);
	out(" ]");
}

/* Identify Device Data log, SATA page: DEVSLP timings. */
static void print_devslp(const uint8_t *log)
{
	unsigned int deto, mdat;

	if (!log || !(log[0x37] & 0x80))
		return;
	mdat = log[0x30] & 0x1f;
	deto = log[0x31];
	out("Device Sleep:\n");
	out("\tDEVSLP Exit Timeout (DETO): %u ms (%s)\n", deto ? deto : 20, deto ? "drive" : "default");
	/* 9.65 labels MDAT by whether DETO was given; kept for identical output. */
	out("\tMinimum DEVSLP Assertion Time (MDAT): %u ms (%s)\n", mdat ? mdat : 10,
	       deto ? "drive" : "default");
}

/* ---- strings ---- */

/*
 * ATA strings hold two characters per word, first in the high byte.
 * Leading blanks are skipped, NULs dropped, the rest printed escaped.
 */
static void print_id_string(const uint16_t *w, unsigned int nwords)
{
	unsigned int i = 0;

	for (; i < nwords; i++, w++) {
		int hi = *w >> 8, lo = *w & 0xff;

		if (hi != ' ')
			break;
		if (lo != ' ') {
			if (lo)
				out_device_char((uint8_t)lo);
			w++;
			i++;
			break;
		}
	}
	for (; i < nwords; i++, w++) {
		if (*w >> 8)
			out_device_char((uint8_t)(*w >> 8));
		if (*w & 0xff)
			out_device_char((uint8_t)(*w & 0xff));
	}
	out_char('\n');
}

/* ---- the page, piece by piece ---- */

/* What the text's sections share: the page, its logs and the decisions taken from them. */
struct decode {
	const uint16_t *w;
	const struct identify_logs *logs;	/* never NULL */
	const struct identify_facts *f;
};

static void print_transport(const uint16_t *w)
{
	uint16_t major = w[ATA_ID_TRANSPORT_MAJOR], minor = w[ATA_ID_TRANSPORT_MINOR];
	unsigned int type, sub;
	static const char *const serial_revs[6] = {
		", ATA8-AST", ", SATA 1.0a", ", SATA II Extensions", ", SATA Rev 2.5",
		", SATA Rev 2.6", ", SATA Rev 3.0",
	};

	if (!ata_id_word_reported(major))
		return;
	out("\t%-20s", "Transport:");
	type = major >> 12;
	sub = major & 0xfff;
	if (type == 0) {
		out("Parallel");
		if (sub & 1)
			out(", ATA8-APT");
	} else if (type == 1) {
		out("Serial");
		/* 9.65 lists the revisions only when a bit other than 4 is set. */
		if (sub & 0x2f)
			for (int b = 0; b < 6; b++)
				if (sub & (1u << b))
					out("%s", serial_revs[b]);
	} else {
		out("0x%04x", major);
	}
	if (ata_id_word_reported(minor)) {
		out("; Revision: ");
		if (minor == 0x21)
			out("ATA8-AST T13 Project D1697 Revision 0b");
		else
			out("0x%04x", minor);
	}
	out_char('\n');
}

static void print_standards(const struct decode *d)
{
	const uint16_t *w = d->w;
	const struct identify_facts *f = d->f;

	out("Standards:");
	if (f->cdrom) {
		bool any = false;

		if (w[ATA_ID_ATAPI_USED] == 9) {
			any = true;
			out("\n\tUsed: ATAPI for CD-ROMs, SFF-8020i, r2.5");
		}
		if (ata_id_word_reported(w[ATA_ID_ATAPI_REVISIONS])) {
			any = true;
			out("\n\tSupported: CD-ROM ATAPI");
			for (unsigned int v = 1; v < 15; v++)
				if (w[ATA_ID_ATAPI_REVISIONS] & (1u << v))
					out("-%u ", v);
		}
		out(any ? "\n" : "\n\tLikely used CD-ROM ATAPI-1\n");
		return;
	}
	if (f->used)
		out("\n\tUsed: %s ", f->used);
	else if (w[ATA_ID_MINOR_VERSION] >= 0x001f)
		out("\n\tUsed: unknown (minor revision code 0x%04x) ", w[ATA_ID_MINOR_VERSION]);
	if (ata_id_word_reported(w[ATA_ID_MAJOR_VERSION])) {
		out("\n\tSupported: ");
		for (unsigned int v = 14; v > 0; v--)
			if (f->listed_majors & (1u << v))
				out("%u ", v);
	}
	if (!f->std)
		out("\n\tLikely used: %u\n", f->like_std);
	else if (f->like_std > f->std)
		out("& some of %u\n", f->like_std);
	else
		out("\n");
}

static void print_chs_and_sizes(const struct decode *d)
{
	const uint16_t *w = d->w;
	unsigned int sector_bytes = 512;
	uint32_t lba28 = identify_lba28_capacity(w);

	if (!identify_has_chs(w, lba28)) {
		out("\tCHS addressing not supported\n");
	} else {
		bool cur_valid = w[ATA_ID_FIELD_VALID] & 1;

		out("\tLogical\t\tmax\tcurrent\n");
		out("\tcylinders\t%u\t%u\n", w[ATA_ID_CYLS], cur_valid ? w[ATA_ID_CUR_CYLS] : 0u);
		out("\theads\t\t%u\t%u\n", w[ATA_ID_HEADS], cur_valid ? w[ATA_ID_CUR_HEADS] : 0u);
		out("\tsectors/track\t%u\t%u\n", w[ATA_ID_SECTORS], cur_valid ? w[ATA_ID_CUR_SECTORS] : 0u);
		out("\t--\n");
		if (d->f->min_std == 1 && (w[ATA_ID_BYTES_PER_TRACK] || w[ATA_ID_BYTES_PER_SECTOR])) {
			out("\tbytes/track: %u", w[ATA_ID_BYTES_PER_TRACK]);
			out("\tbytes/sector: %u\n", w[ATA_ID_BYTES_PER_SECTOR]);
		}
		if (cur_valid)
			out("\tCHS current addressable sectors:%12u\n",
			       identify_chs_current_capacity(w, identify_chs_product(w), d->f->like_std));
	}
	if (w[ATA_ID_CAPABILITY] & 0x200) {
		out("\tLBA    user addressable sectors:%12u\n", lba28);
		if (ata_id_word_valid(w[ATA_ID_COMMAND_SET_2]) && (w[ATA_ID_COMMAND_SET_2] & 0x0400))
			out("\tLBA48  user addressable sectors:%12llu\n",
			       (unsigned long long)((uint64_t)w[ATA_ID_LBA48_CAPACITY + 3] << 48 | (uint64_t)w[ATA_ID_LBA48_CAPACITY + 2] << 32 |
						    (uint64_t)w[ATA_ID_LBA48_CAPACITY + 1] << 16 | w[ATA_ID_LBA48_CAPACITY]));
	}
	if (!ata_id_word_valid(w[ATA_ID_SECTOR_SIZE])) {
		out("\t%-31s %11u bytes\n", "Logical/Physical Sector size:", sector_bytes);
	} else {
		unsigned int words_per_sector = 256, per_physical = 1;

		if (w[ATA_ID_SECTOR_SIZE] & (1u << 13))
			per_physical = 1u << (w[ATA_ID_SECTOR_SIZE] & 0xf);
		if (w[ATA_ID_SECTOR_SIZE] & (1u << 12))
			words_per_sector = (unsigned int)w[ATA_ID_LOGICAL_SECTOR_SIZE + 1] << 16 | w[ATA_ID_LOGICAL_SECTOR_SIZE];
		sector_bytes = 2 * words_per_sector;
		out("\t%-31s %11u bytes", "Logical  Sector size:", sector_bytes);
		print_sector_size_list(d->logs->sector_config);
		out("\n");
		out("\t%-31s %11u bytes\n", "Physical Sector size:", sector_bytes * per_physical);
		if (ata_id_word_valid(w[ATA_ID_SECTOR_ALIGNMENT]))
			out("\t%-31s %11u bytes\n", "Logical Sector-0 offset:",
			       (w[ATA_ID_SECTOR_ALIGNMENT] & 0x1fff) * sector_bytes);
	}
	out_device_size(d->f->capacity * sector_bytes);
}

static void print_configuration(const struct decode *d)
{
	const uint16_t *w = d->w;

	out("Configuration:\n");
	if (!d->f->cdrom && d->f->like_std == 1)
		for (unsigned int b = 1; b < 15; b++)
			if (w[ATA_ID_CONFIG] & (1u << b))
				out("\t%s\n", ata1_config_bits[b]);
	if (d->f->kind == IDENTIFY_ATAPI) {
		static const char *const drq[4] = { "3ms.", "<=10ms with INTRQ", "50us.", "unknown." };
		static const char *const pkt[4] = { "12 bytes", "16 bytes", "Unknown", "Unknown" };

		out("\tDRQ response: %s\n", drq[(w[ATA_ID_CONFIG] >> 5) & 3]);
		out("\tPacket size: %s\n", pkt[w[ATA_ID_CONFIG] & 3]);
	} else {
		print_chs_and_sizes(d);
	}

	out("\tcache/buffer size  = ");
	if (w[ATA_ID_BUFFER_TYPE] <= 3 && ata_id_word_reported(w[ATA_ID_BUFFER_SIZE])) {
		out("%u KBytes", (unsigned int)w[ATA_ID_BUFFER_SIZE] / 2);
		if (w[ATA_ID_BUFFER_TYPE])
			out(" (type=%s)", identify_buffer_type(w[ATA_ID_BUFFER_TYPE]));
	} else {
		out("unknown");
	}
	out_char('\n');

	if (w[ATA_ID_FORM_FACTOR] && (w[ATA_ID_FORM_FACTOR] & 0xfff8) == 0) {
		if (w[ATA_ID_FORM_FACTOR] <= 5)
			out("\tForm Factor: %s\n", form_factors[w[ATA_ID_FORM_FACTOR]]);
		else
			out("\tForm Factor: unknown (0x%04x]\n", w[ATA_ID_FORM_FACTOR]);
	}
	if (w[ATA_ID_ROTATION_RATE] == 1)
		out("\tNominal Media Rotation Rate: Solid State Device\n");
	else if (w[ATA_ID_ROTATION_RATE] > 0x401)
		out("\tNominal Media Rotation Rate: %u\n", w[ATA_ID_ROTATION_RATE]);
}

/* One DMA class (s/m/u): supported modes, '*' on the selected one. */
static bool print_dma_modes(uint16_t supported, uint16_t selected, char cls, bool *have_selected)
{
	bool twice = false;

	for (unsigned int m = 0; m <= 7; m++) {
		if (selected & (1u << m)) {
			out("*%cdma%u ", cls, m);
			if (*have_selected)
				twice = true;
			*have_selected = true;
		} else if (supported & (1u << m)) {
			out("%cdma%u ", cls, m);
		}
	}
	return twice;
}

static void print_transfer_modes(const struct decode *d)
{
	const uint16_t *w = d->w;
	bool dmadir = false, sdma_ok;

	/* SATA ATAPI devices may reuse word 62 for DMADIR and mode bits. */
	if (d->f->kind == IDENTIFY_ATAPI && (w[ATA_ID_SWDMA_MODES] & 0x8000)) {
		dmadir = true;
		sdma_ok = false;
		out("\tDMADIR bit required in PACKET commands\n");
	} else {
		unsigned int hi = w[ATA_ID_SWDMA_MODES] >> 8, lo = w[ATA_ID_SWDMA_MODES] & 0xff;

		sdma_ok = w[ATA_ID_SWDMA_MODES] && !(lo & 0xf8) && (!hi || hi == 1 || hi == 2 || hi == 4);
	}

	out("\tDMA: ");
	if (!dmadir && !(w[ATA_ID_CAPABILITY] & 0x100)) {
		out("not supported\n");
	} else {
		if (w[ATA_ID_OLD_DMA_MODES] && !w[ATA_ID_SWDMA_MODES] && !w[ATA_ID_MWDMA_MODES]) {
			out("sdma%u", (unsigned int)w[ATA_ID_OLD_DMA_MODES] >> 8);
		} else {
			bool have = false, bad = false;

			if (sdma_ok)
				bad |= print_dma_modes(w[ATA_ID_SWDMA_MODES], w[ATA_ID_SWDMA_MODES] >> 8, 's', &have);
			if (w[ATA_ID_MWDMA_MODES])
				bad |= print_dma_modes(dmadir ? (w[ATA_ID_SWDMA_MODES] >> 7) & 7 : w[ATA_ID_MWDMA_MODES], w[ATA_ID_MWDMA_MODES] >> 8, 'm', &have);
			if ((w[ATA_ID_FIELD_VALID] & 4) && w[ATA_ID_UDMA_MODES])
				bad |= print_dma_modes(dmadir ? w[ATA_ID_SWDMA_MODES] & 0x7f : w[ATA_ID_UDMA_MODES], w[ATA_ID_UDMA_MODES] >> 8, 'u', &have);
			if (bad || !have)
				out("(?)");
		}
		out("\n");
		if (d->f->kind == IDENTIFY_ATAPI && !d->f->cdrom && (w[ATA_ID_CAPABILITY] & 0x8000))
			out("\t     Interleaved DMA support\n");
		if ((w[ATA_ID_FIELD_VALID] & 2) && (w[ATA_ID_DMA_MIN_CYCLE] || w[ATA_ID_DMA_CYCLE])) {
			out("\t     Cycle time:");
			if (w[ATA_ID_DMA_MIN_CYCLE])
				out(" min=%uns", w[ATA_ID_DMA_MIN_CYCLE]);
			if (w[ATA_ID_DMA_CYCLE])
				out(" recommended=%uns", w[ATA_ID_DMA_CYCLE]);
			out("\n");
		}
	}

	out("\tPIO: ");
	if ((w[ATA_ID_FIELD_VALID] & 2) && (w[ATA_ID_PIO_MODES] & 0xff)) {
		/* Modes 0-2 are implied; word 64 lists mode 3 upwards. */
		unsigned int modes = ((w[ATA_ID_PIO_MODES] & 0xffu) << 3) | 7;

		for (unsigned int m = 0; m <= 8; m++)
			if (modes & (1u << m))
				out("pio%u ", m);
		out("\n");
	} else if ((d->f->min_std < 5 || d->f->cdrom) && (w[ATA_ID_OLD_PIO_MODES] >> 8) <= 2) {
		for (unsigned int m = 0; m <= (unsigned int)(w[ATA_ID_OLD_PIO_MODES] >> 8); m++)
			out("pio%u ", m);
		out("\n");
	} else {
		out("unknown\n");
	}
	if ((w[ATA_ID_FIELD_VALID] & 2) && (w[ATA_ID_PIO_CYCLE] || w[ATA_ID_PIO_IORDY_CYCLE])) {
		out("\t     Cycle time:");
		if (w[ATA_ID_PIO_CYCLE])
			out(" no flow control=%uns", w[ATA_ID_PIO_CYCLE]);
		if (w[ATA_ID_PIO_IORDY_CYCLE])
			out("  IORDY flow control=%uns", w[ATA_ID_PIO_IORDY_CYCLE]);
		out("\n");
	}
}

static void print_capabilities(const struct decode *d)
{
	const uint16_t *w = d->w;
	bool line_open = false;

	out("Capabilities:\n\t");
	if (d->f->kind == IDENTIFY_ATAPI) {
		if (!d->f->cdrom && (w[ATA_ID_CAPABILITY] & 0x4000))
			out("Cmd queuing, ");
		if (w[ATA_ID_CAPABILITY] & 0x2000)
			out("Cmd overlap, ");
	}
	if (w[ATA_ID_CAPABILITY] & 0x200)
		out("LBA, ");
	if (d->f->like_std != 1) {
		out("IORDY");
		if (!(w[ATA_ID_CAPABILITY] & 0x800))
			out("(may be)");
		out((w[ATA_ID_CAPABILITY] & 0x400) ? "(can" : "(cannot");
		out(" be disabled)");
	} else {
		out("IORDY not likely");
	}
	out("\n");
	if (d->f->like_std == 1 && w[ATA_ID_BUFFER_TYPE]) {
		out("\tBuffer type: %04x: %s%s\n", w[ATA_ID_BUFFER_TYPE],
		       w[ATA_ID_BUFFER_TYPE] < 2 ? "single port, single-sector" : "dual port, multi-sector",
		       w[ATA_ID_BUFFER_TYPE] > 2 ? " with read caching ability" : "");
	}
	if (d->f->min_std == 1 && ata_id_word_reported(w[ATA_ID_BUFFER_SIZE])) {
		out("\tBuffer size: %.1fkB", (float)w[ATA_ID_BUFFER_SIZE] / 2);
		line_open = true;
	}
	if (d->f->min_std < 4 && w[ATA_ID_ECC_BYTES]) {
		out("\tbytes avail on r/w long: %u", w[ATA_ID_ECC_BYTES]);
		line_open = true;
	}
	if (!d->f->cdrom && d->f->like_std > 3) {
		bool queuing = false;

		if ((d->f->transport == 1 || ata_id_word_reported(w[ATA_ID_SATA_CAPABILITY])) && (w[ATA_ID_SATA_CAPABILITY] & 0x0100))
			queuing = true;	/* NCQ */
		if (ata_id_word_valid(w[ATA_ID_COMMAND_SET_2]) && (w[ATA_ID_COMMAND_SET_2] & 2))
			queuing = true;	/* TCQ */
		if (queuing) {
			out("\tQueue depth: %u", (unsigned int)(w[ATA_ID_QUEUE_DEPTH] & 0x1f) + 1);
			line_open = true;
		}
	}
	if (line_open)
		out("\n");

	if (d->f->kind != IDENTIFY_ATAPI) {
		if (d->f->like_std == 1) {
			out("\tCan%s perform double-word IO\n", w[ATA_ID_DWORD_IO] ? "" : "not");
		} else {
			out("\tStandby timer values: spec'd by %s", (w[ATA_ID_CAPABILITY] & 0x2000) ? "Standard" : "Vendor");
			if (d->f->like_std > 3 && ata_id_word_valid(w[ATA_ID_CAPABILITY_2]))
				out(", %s device specific minimum\n", (w[ATA_ID_CAPABILITY_2] & 1) ? "with" : "no");
			else
				out("\n");
		}
		out("\tR/W multiple sector transfer: ");
		if (d->f->like_std < 3 && !(w[ATA_ID_MAX_MULTIPLE] & 0xff)) {
			out("not supported\n");
		} else {
			out("Max = %u\tCurrent = ", (unsigned int)(w[ATA_ID_MAX_MULTIPLE] & 0xff));
			if (w[ATA_ID_MULTIPLE] & 0x100)
				out("%u\n", (unsigned int)(w[ATA_ID_MULTIPLE] & 0xff));
			else
				out("?\n");
		}
		if (d->f->like_std > 3 && (w[ATA_ID_COMMAND_SET_2] & 0xc008) == 0x4008) {
			out("\tAdvanced power management level: ");
			if (w[ATA_ID_CFS_ENABLE_2] & 0x0008)
				out("%u\n", (unsigned int)(w[ATA_ID_APM_LEVEL] & 0xff));
			else
				out("disabled\n");
		}
		if (d->f->like_std > 5 && w[ATA_ID_ACOUSTIC_LEVEL])
			out("\tRecommended acoustic management value: %u, current value: %u\n",
			       (unsigned int)((w[ATA_ID_ACOUSTIC_LEVEL] >> 8) & 0xff), (unsigned int)(w[ATA_ID_ACOUSTIC_LEVEL] & 0xff));
	} else {
		if (!d->f->cdrom && (w[ATA_ID_CAPABILITY] & 0x1000))
			out("\tATA sw reset required\n");
		if (w[ATA_ID_PACKET_RELEASE_TIME] || w[ATA_ID_PACKET_SERVICE_TIME]) {
			out("\tOverlap support:");
			if (w[ATA_ID_PACKET_RELEASE_TIME])
				out(" %uus to release bus.", w[ATA_ID_PACKET_RELEASE_TIME]);
			if (w[ATA_ID_PACKET_SERVICE_TIME])
				out(" %uus to clear BSY after SERVICE cmd.", w[ATA_ID_PACKET_SERVICE_TIME]);
			out("\n");
		}
	}
	print_transfer_modes(d);
}

static void print_commands_features(const struct decode *d)
{
	const uint16_t *w = d->w;
	const struct identify_facts *f = d->f;

	if (ata_id_word_valid(w[ATA_ID_COMMAND_SET_2]))
		out("Commands/features:\n\tEnabled\tSupported:\n");
	for (unsigned int i = 0; i < f->nfeatures; i++) {
		const struct identify_feature *row = &f->features[i];

		out("\t   %c\t%s", row->enabled ? '*' : ' ', row->name);
		if (row->word != ATA_ID_DATA_SET_MANAGEMENT)
			out_char('\n');
		else if (ata_id_word_reported(w[ATA_ID_DSM_BLOCKS]))
			out(" (limit %u block%s)\n", w[ATA_ID_DSM_BLOCKS], w[ATA_ID_DSM_BLOCKS] > 1 ? "s" : "");
		else
			out(" (limit unknown)\n");
		/* 9.65 prints the timer under word 84's rows. */
		if (row->word == ATA_ID_COMMAND_SET_EXT && f->tlc_msec && (i + 1 == f->nfeatures || f->features[i + 1].word != ATA_ID_COMMAND_SET_EXT))
			out("                (%u msec for TLC completion timer)\n", f->tlc_msec);
	}
}

/* Append "name " to buf, with a '*' before the selected one. */
static void add_cfa_modes(char *buf, size_t size, const char *name, unsigned int first,
			  unsigned int from, unsigned int max, unsigned int selected)
{
	for (unsigned int m = from; m <= max; m++) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len, "%s%s%u ", m == selected ? "*" : "", name, m + first);
	}
}

static void print_cfa(const uint16_t *w)
{
	char modes[256] = "";
	unsigned int max;

	max = w[ATA_ID_CFA_MODES] & 7;
	if (max == 1 || max == 2)
		add_cfa_modes(modes, sizeof(modes), "pio", 4, 1, max, (w[ATA_ID_CFA_MODES] >> 6) & 7);
	max = (w[ATA_ID_CFA_MODES] >> 3) & 7;
	if (max == 1 || max == 2)
		add_cfa_modes(modes, sizeof(modes), "mdma", 2, 1, max, (w[ATA_ID_CFA_MODES] >> 9) & 7);
	if (w[ATA_ID_CFA_ADVANCED_MODES] & 0x8000) {
		static const unsigned char io_times[4] = { 255, 120, 100, 80 };
		static const unsigned char mem_times[4] = { 250, 120, 100, 80 };

		max = w[ATA_ID_CFA_ADVANCED_MODES] & 7;
		if (max <= 3)
			out("\t\tCFA max advanced io_udma cycle time: %uns\n", io_times[max]);
		max = (w[ATA_ID_CFA_ADVANCED_MODES] >> 3) & 7;
		if (max <= 3)
			out("\t\tCFA max advanced mem_udma cycle time: %uns\n", mem_times[max]);
		max = (w[ATA_ID_CFA_ADVANCED_MODES] >> 6) & 7;
		if (max <= 6)
			add_cfa_modes(modes, sizeof(modes), "io_udma", 4, 0, max, (w[ATA_ID_CFA_ADVANCED_MODES] >> 12) & 7);
		max = (w[ATA_ID_CFA_ADVANCED_MODES] >> 9) & 7;
		if (max <= 6)
			add_cfa_modes(modes, sizeof(modes), "mem_udma", 4, 0, max, (w[ATA_ID_CFA_ADVANCED_MODES] >> 12) & 7);
	}
	if (modes[0])
		out("\t   *\tCFA advanced modes: %s\n", modes);

	if (w[ATA_ID_CFA_POWER] & 0x8000) {
		out_char('\t');
		if (!(w[ATA_ID_CFA_POWER] & 0x2000))
			out("   *");
		out("\tCFA Power Level 1 ");
		if (w[ATA_ID_CFA_POWER] & 0x2000)
			out(" not supported");
		if (w[ATA_ID_CFA_POWER] & 0x0fff)
			out(" (max %umA)", (unsigned int)(w[ATA_ID_CFA_POWER] & 0x0fff));
		out("\n");
	}
	if (ata_id_word_reported(w[ATA_ID_CFA_KEY_MGMT]) && (w[ATA_ID_CFA_KEY_MGMT] & 1))
		out("\t\tKey Management (CPRM) feature set\n");
}

/* Erase time words: 2-minute units, 8 or 15 bits wide (ACS-3 bit 15). */
static unsigned int print_erase_time(uint16_t word, const char *what)
{
	bool extended = word & 0x8000;
	unsigned int t = extended ? word & 0x7fff : word & 0xff;

	if (!t)
		return 0;
	if (extended && t == 0x7fff)
		out("more than 65532");
	else if (!extended && t == 0xff)
		out("more than 508");
	else
		out("%u", t * 2);
	out("min for %s.", what);
	return t;
}

static void print_security(const struct decode *d)
{
	const uint16_t *w = d->w;

	if (!(w[ATA_ID_COMMAND_SET_1] & 2) || d->f->cdrom || d->f->like_std <= 3 || !(w[ATA_ID_SECURITY] || w[ATA_ID_ERASE_TIME] || w[ATA_ID_ENHANCED_ERASE_TIME]))
		return;
	out("Security: \n");
	if (ata_id_word_reported(w[ATA_ID_MASTER_PASSWORD_REV]))
		out("\tMaster password revision code = %u\n", w[ATA_ID_MASTER_PASSWORD_REV]);
	if (w[ATA_ID_SECURITY]) {
		for (unsigned int b = 0; b < 6; b++) {
			if (w[ATA_ID_SECURITY] & (1u << b))
				out("\t\t");
			else
				out("%s", b ? "\tnot\t" : "\t(?)\t");
			out("%s\n", security_bits[b]);
		}
		if (w[ATA_ID_SECURITY] & 2)
			out("\tSecurity level %s\n", (w[ATA_ID_SECURITY] & 0x0100) ? "maximum" : "high");
	}
	bool normal = (w[ATA_ID_ERASE_TIME] & 0x8000) ? (w[ATA_ID_ERASE_TIME] & 0x7fff) : (w[ATA_ID_ERASE_TIME] & 0xff);
	bool enhanced = (w[ATA_ID_ENHANCED_ERASE_TIME] & 0x8000) ? (w[ATA_ID_ENHANCED_ERASE_TIME] & 0x7fff) : (w[ATA_ID_ENHANCED_ERASE_TIME] & 0xff);

	if (normal || enhanced)
		out("\t");
	print_erase_time(w[ATA_ID_ERASE_TIME], "SECURITY ERASE UNIT");
	if (normal && enhanced)
		out(" ");
	print_erase_time(w[ATA_ID_ENHANCED_ERASE_TIME], "ENHANCED SECURITY ERASE UNIT");
	out("\n");
}

static void print_tail(const struct decode *d)
{
	const uint16_t *w = d->w;

	if (!d->f->cdrom && d->f->like_std > 3 && (w[ATA_ID_COMMAND_SET_EXT] & 0x100)) {
		out("Logical Unit WWN Device Identifier: %04x%04x%04x%04x\n", w[ATA_ID_WWN], w[ATA_ID_WWN + 1], w[ATA_ID_WWN + 2], w[ATA_ID_WWN + 3]);
		out("\tNAA\t\t: %x\n", (w[ATA_ID_WWN] & 0xf000) >> 12);
		out("\tIEEE OUI\t: %06x\n", ((w[ATA_ID_WWN] & 0x0fffu) << 12) | ((w[ATA_ID_WWN + 1] & 0xfff0u) >> 4));
		out("\tUnique ID\t: %x%08x\n", w[ATA_ID_WWN + 1] & 0x000fu, ((unsigned int)w[ATA_ID_WWN + 2] << 16) | w[ATA_ID_WWN + 3]);
	}
	if (ata_id_word_valid(w[ATA_ID_HW_RESET_RESULT])) {
		unsigned int bits;

		out("HW reset results:\n");
		out("\tCBLID- %s Vih\n", (w[ATA_ID_HW_RESET_RESULT] & 0x2000) ? "above" : "below");
		if (w[ATA_ID_HW_RESET_RESULT] & 1) {
			out("\tDevice num = 0");
			bits = w[ATA_ID_HW_RESET_RESULT];
		} else {
			out("\tDevice num = 1");
			bits = w[ATA_ID_HW_RESET_RESULT] >> 8;
		}
		if ((bits & 6) == 2)
			out(" determined by the jumper");
		else if ((bits & 6) == 4)
			out(" determined by CSEL");
		out("\n");
	}
	if (w[ATA_ID_SATA_FEATURES] & 0x0100)
		print_devslp(d->logs->sata_settings);
	if (d->f->like_std > 4 && !d->f->cdrom) {
		if ((w[ATA_ID_INTEGRITY] & 0xff) == 0xa5) {
			out("Checksum: %scorrect", d->f->checksum ? "in" : "");
			if (d->f->checksum)
				out(" (0x%02x), expected 0x%02x\n", d->f->checksum, 0x100 - d->f->checksum);
			out_char('\n');
		} else {
			out("Integrity word not set (found 0x%04x, expected 0x%02x%02x)\n",
			       w[ATA_ID_INTEGRITY], 0x100 - d->f->checksum, 0xa5);
		}
	}
}

/* The opening lines: the kind of device, word 2's notes and the strings. */
static void print_kind_and_strings(const uint16_t *id, const struct identify_facts *f)
{
	static const struct { int word, len; const char *label; } strings[] = {
		{ ATA_ID_MODEL, 20, "Model Number:" },
		{ ATA_ID_SERIAL_NUMBER, 10, "Serial Number:" },
		{ ATA_ID_FIRMWARE, 4, "Firmware Revision:" },
		{ ATA_ID_MEDIA_SERIAL, 20, "Media Serial Num:" },
		{ ATA_ID_MEDIA_MANUFACTURER, 10, "Media Manufacturer:" },
	};

	if (f->kind == IDENTIFY_CFA)
		out("CompactFlash ATA device\n");
	else if (f->kind == IDENTIFY_ATA)
		out("ATA device, with ");
	else
		out("ATAPI %s, with ", packet_device_types[f->packet_type]);
	if (f->kind != IDENTIFY_CFA)
		out("%sremovable media\n", (id[ATA_ID_CONFIG] & 0x80) ? "" : "non-");
	if (identify_specific_config_valid(id)) {
		if (id[ATA_ID_SPECIFIC_CONFIG] == 0x37c8 || id[ATA_ID_SPECIFIC_CONFIG] == 0x738c)
			out("powers-up in standby; SET FEATURES subcmd spins-up.\n");
		if ((id[ATA_ID_SPECIFIC_CONFIG] == 0x37c8 || id[ATA_ID_SPECIFIC_CONFIG] == 0x8c73) && (id[ATA_ID_CONFIG] & 4))
			out("\n\tWARNING: ID response incomplete.\n\tWARNING: Following data may be incorrect.\n\n");
	}
	for (size_t i = 0; i < ARRAY_SIZE(strings); i++) {
		if (id[strings[i].word]) {
			out("\t%-20s", strings[i].label);
			print_id_string(&id[strings[i].word], strings[i].len);
		}
	}
}

int identify_print(const uint16_t id[IDENTIFY_WORDS], const struct identify_logs *logs)
{
	static const struct identify_logs none;
	struct identify_facts facts;
	struct decode d = { .w = id, .logs = logs ? logs : &none, .f = &facts };

	out("\n");
	if (identify_decode(id, &facts)) {
		out("Unknown device type:\n\tbits 15&14 of general configuration word 0 both set to 1.\n");
		return EINVAL;
	}
	print_kind_and_strings(id, &facts);
	print_transport(id);
	print_standards(&d);
	print_configuration(&d);
	print_capabilities(&d);
	print_commands_features(&d);
	if (facts.kind == IDENTIFY_CFA)
		print_cfa(id);
	if ((id[ATA_ID_REMOVABLE_STATUS] & 3) == 1)
		out("\t\tRemovable Media Status Notification feature set supported\n");
	print_security(&d);
	print_tail(&d);
	return 0;
}
