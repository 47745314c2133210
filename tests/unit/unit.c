/*
 * Unit tests of the pure functions: SAT CDB building, sense normalising,
 * range splitting, SCSI answer decoding, sysfs numbers.  Each case is a
 * row of a table; the expected bytes are written from the standards'
 * layouts (SAT-3 12.2.2 and 13.2.2, SPC-4 4.5 and 7.5, SBC-3 5.16, NVMe
 * Base figure "Dataset Management - Range"), never from what the code does.
 * Prints "ok unit: NAME" / "FAIL unit: NAME" lines and "end of suite".
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "epc_decode.h"
#include "nvme.h"
#include "erasecheck.h"
#include "ranges.h"
#include "scan_classes.h"
#include "scan_picture.h"
#include "together_parts.h"
#include "scsi_pages.h"
#include "sense.h"
#include "tcg.h"
#include "tcg_methods.h"
#include "tcg_session.h"
#include "unaligned.h"
#include "ata_commands.h"
#include "sysfs.h"
#include "wake_trace.h"
#include "disk_lock.h"

static int failures;

static void result(const char *name, bool ok)
{
	printf("%s unit: %s\n", ok ? "ok" : "FAIL", name);
	failures += !ok;
}

static bool same_bytes(const uint8_t *got, const uint8_t *want, size_t n, const char *name)
{
	if (memcmp(got, want, n) == 0)
		return true;
	printf("  %s: got ", name);
	for (size_t i = 0; i < n; i++)
		printf("%02x ", got[i]);
	printf("\n");
	return false;
}

/* SAT ATA PASS-THROUGH: PROTOCOL << 1 | EXTEND, then T_DIR/BYT_BLOK/T_LENGTH and CK_COND. */
static const struct {
	const char *name;
	struct ata_cmd cmd;
	bool twelve;
	unsigned int len;
	uint8_t cdb[16];
} sat_cases[] = {
	{ "ATA PASS-THROUGH (16) of IDENTIFY DEVICE: PIO in, 1 block, T_LENGTH in COUNT",
	  { .tf = { .command = 0xec, .count = 1 }, .protocol = ATA_PROTO_PIO_IN, .len = 512 }, false, 16,
	  { 0x85, 0x08, 0x0e, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0xec, 0 } },
	{ "ATA PASS-THROUGH (12) of IDENTIFY DEVICE",
	  { .tf = { .command = 0xec, .count = 1 }, .protocol = ATA_PROTO_PIO_IN, .len = 512 }, true, 12,
	  { 0xa1, 0x08, 0x0e, 0, 0x01, 0, 0, 0, 0, 0xec, 0, 0 } },
	{ "CHECK POWER MODE: non-data, CK_COND for the registers",
	  { .tf = { .command = 0xe5 }, .protocol = ATA_PROTO_NONDATA, .want_regs = true }, false, 16,
	  { 0x85, 0x06, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xe5, 0 } },
	{ "READ LOG EXT of log 30h page 8: EXTEND, LBA 7:0 log, 15:8 page, device LBA bit",
	  { .tf = { .command = 0x2f, .count = 1, .lba = 0x0830, .lba48 = true, .device = 0x40 },
	    .protocol = ATA_PROTO_PIO_IN, .len = 512 }, false, 16,
	  { 0x85, 0x09, 0x0e, 0, 0, 0, 0x01, 0, 0x30, 0, 0x08, 0, 0, 0x40, 0x2f, 0 } },
	{ "SET FEATURES 02h (write cache on): FEATURE in byte 4",
	  { .tf = { .command = 0xef, .feature = 0x02 }, .protocol = ATA_PROTO_NONDATA }, false, 16,
	  { 0x85, 0x06, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xef, 0 } },
	{ "a 28-bit LBA: bits 27:24 in DEVICE",
	  { .tf = { .command = 0x20, .count = 1, .lba = 0x0abcdef1, .device = 0x40 }, .protocol = ATA_PROTO_PIO_IN,
	    .len = 512 }, false, 16,
	  { 0x85, 0x08, 0x0e, 0, 0, 0, 0x01, 0, 0xf1, 0, 0xde, 0, 0xbc, 0x4a, 0x20, 0 } },
	{ "a 48-bit LBA: the high bytes in 7, 9, 11",
	  { .tf = { .command = 0x24, .count = 1, .lba = 0x123456789abcULL, .lba48 = true, .device = 0x40 },
	    .protocol = ATA_PROTO_PIO_IN, .len = 512 }, false, 16,
	  { 0x85, 0x09, 0x0e, 0, 0, 0, 0x01, 0x56, 0xbc, 0x34, 0x9a, 0x12, 0x78, 0x40, 0x24, 0 } },
};

static void test_sat(void)
{
	for (size_t i = 0; i < sizeof(sat_cases) / sizeof(sat_cases[0]); i++) {
		uint8_t cdb[16];
		unsigned int len = sat_build_cdb(&sat_cases[i].cmd, sat_cases[i].twelve, cdb);

		result(sat_cases[i].name, len == sat_cases[i].len &&
			   same_bytes(cdb, sat_cases[i].cdb, len, sat_cases[i].name));
	}
}

/* SPC-4 4.5: fixed format (70h) key in byte 2, ASC/ASCQ in 12-13 within ADDITIONAL SENSE LENGTH; descriptor (72h) in 1-3. */
static const struct {
	const char *name;
	uint8_t buf[20];
	unsigned int len;
	bool valid;
	uint8_t key, asc, ascq;
} sense_cases[] = {
	{ "fixed sense: ILLEGAL REQUEST, invalid field in CDB", { 0x70, 0, 0x05, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x24, 0x00 },
	  18, true, 0x05, 0x24, 0x00 },
	{ "fixed sense, deferred (71h)", { 0x71, 0, 0x03, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x11, 0x04 }, 18, true, 0x03,
	  0x11, 0x04 },
	{ "fixed sense whose ADDITIONAL SENSE LENGTH stops before ASC", { 0x70, 0, 0x02, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0x04, 0x02 },
	  18, true, 0x02, 0, 0 },
	{ "fixed sense cut at 13 bytes: no ASC", { 0x70, 0, 0x06, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x29 }, 13, true, 0x06, 0,
	  0 },
	{ "descriptor sense: NO SENSE, ATA pass-through information available", { 0x72, 0x00, 0x00, 0x1d }, 8, true, 0,
	  0x00, 0x1d },
	{ "two bytes: no sense key", { 0x70, 0 }, 2, false, 0, 0, 0 },
	{ "an unknown response code", { 0x7f, 0, 5 }, 18, false, 0, 0, 0 },
};

/* The PROGRESS INDICATION (SPC-4 4.5.2.4.4): SKSV and bytes 16-17 (fixed), or the sense key specific descriptor (02h). */
static const struct {
	const char *name;
	uint8_t buf[32];
	unsigned int len;
	bool has;
	uint16_t progress;
} progress_cases[] = {
	{ "progress, fixed: NOT READY, sanitize in progress, 8000h",
	  { 0x70, 0, 0x02, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x04, 0x1b, 0, 0x80, 0x80, 0x00 }, 18, true, 0x8000 },
	{ "progress, fixed: SKSV clear, none", { 0x70, 0, 0x02, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x04, 0x1b, 0, 0x00, 0x80, 0x00 },
	  18, false, 0 },
	{ "progress, fixed: MEDIUM ERROR's field is no progress", { 0x70, 0, 0x03, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0x31, 0x03, 0, 0x80, 0x12, 0x34 },
	  18, false, 0 },
	{ "progress, fixed: ADDITIONAL SENSE LENGTH stops before it", { 0x70, 0, 0x02, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0x04, 0x1b, 0, 0x80, 0x80, 0x00 },
	  18, false, 0 },
	{ "progress, descriptor: the sense key specific descriptor after another",
	  { 0x72, 0x02, 0x04, 0x1b, 0, 0, 0, 16, 0x00, 0x02, 0x01, 0x02, 0x02, 0x06, 0, 0, 0x80, 0x40, 0x00, 0 }, 24, true, 0x4000 },
	{ "progress, descriptor: the descriptor cut off by the bytes that came",
	  { 0x72, 0x02, 0x04, 0x1b, 0, 0, 0, 8, 0x02, 0x06, 0, 0, 0x80, 0x40 }, 14, false, 0 },
};

static void test_sense(void)
{
	for (size_t i = 0; i < sizeof(progress_cases) / sizeof(progress_cases[0]); i++) {
		struct sense s;

		sense_normalise(progress_cases[i].buf, progress_cases[i].len, &s);
		result(progress_cases[i].name, s.has_progress == progress_cases[i].has &&
			   (!s.has_progress || s.progress == progress_cases[i].progress));
	}
	for (size_t i = 0; i < sizeof(sense_cases) / sizeof(sense_cases[0]); i++) {
		struct sense s;
		bool valid = sense_normalise(sense_cases[i].buf, sense_cases[i].len, &s);

		result(sense_cases[i].name, valid == sense_cases[i].valid &&
			   (!valid || (s.key == sense_cases[i].key && s.asc == sense_cases[i].asc &&
				       s.ascq == sense_cases[i].ascq)));
	}
}

/* Ranges cut into pieces of at most max blocks, in order. */
static void test_ranges(void)
{
	static const struct sector_range r[] = { { 100, 10 }, { 500, 0 }, { 7, 3 } };
	static const struct {
		uint64_t lba, count;
	} want[] = { { 100, 4 }, { 104, 4 }, { 108, 2 }, { 7, 3 } };
	struct range_cursor c = { 0 };
	uint64_t lba, count;
	size_t k = 0;
	bool ok = true;

	while (next_range_piece(r, 3, &c, 4, &lba, &count)) {
		ok = ok && k < 4 && lba == want[k].lba && count == want[k].count;
		k++;
	}
	result("ranges: 100:10 500:0 7:3 in pieces of 4", ok && k == 4 && range_cursor_done(&c, r, 3) == 3);

	/* NVMe DSM range: bytes 4-7 LENGTH IN LOGICAL BLOCKS, 8-15 STARTING LBA, little-endian. */
	static const struct sector_range big[] = { { 0x0102030405ULL, 0x100000002ULL } };
	static uint8_t buf[NVME_DSM_BYTES];
	static const uint8_t want_dsm[32] = {
		0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x05, 0x04, 0x03, 0x02, 0x01, 0, 0, 0,
		0, 0, 0, 0, 0x03, 0, 0, 0, 0x04, 0x04, 0x03, 0x02, 0x02, 0, 0, 0,
	};
	struct sector_range pieces[NVME_DSM_MAX_RANGES];
	struct range_cursor c2 = { 0 };
	uint64_t sectors;
	unsigned int entries = next_range_batch(big, 1, &c2, NVME_DSM_MAX_RANGES, UINT32_MAX, UINT64_MAX, pieces, &sectors);

	nvme_dsm_pack(pieces, entries, buf);
	result("NVMe DSM: a range of 2^32+2 blocks takes two entries", entries == 2 && sectors == 0x100000002ULL &&
	       same_bytes(buf, want_dsm, sizeof(want_dsm), "dsm"));

	/* A batch stops at the command's sector limit (SCSI's MAXIMUM UNMAP LBA COUNT), the rest left for the next. */
	static const struct sector_range two[] = { { 0, 6 }, { 100, 6 } };
	struct range_cursor c3 = { 0 };
	unsigned int k1 = next_range_batch(two, 2, &c3, 8, UINT32_MAX, 8, pieces, &sectors);
	bool first = k1 == 2 && sectors == 8 && pieces[0].lba == 0 && pieces[0].count == 6 && pieces[1].lba == 100 &&
		     pieces[1].count == 2;
	unsigned int k2 = next_range_batch(two, 2, &c3, 8, UINT32_MAX, 8, pieces, &sectors);

	result("batch: 0:6 100:6 at most 8 sectors a command: 0:6 100:2, then 102:4",
	       first && k2 == 1 && pieces[0].lba == 102 && pieces[0].count == 4 &&
	       next_range_batch(two, 2, &c3, 8, UINT32_MAX, 8, pieces, &sectors) == 0);
}

/* SCSI answers (SPC-4 6.6, 7.5.6, 7.8; SBC-3 5.16): fields where the standard puts them, nothing past what came. */
/*
 * Level 0 Discovery that lies (Core Specification 3.3.6 layout): a header
 * claiming more than came, a descriptor of length 0, one running past the
 * end, a field past its descriptor's own length.
 */
static void test_tcg_level0(void)
{
	uint8_t d[48 + 16 + 4 + 8] = { 0 };
	struct tcg_level0 l0;
	uint64_t v = 99;
	const struct tcg_feature_desc *geometry = tcg_feature_desc(TCG_FEATURE_GEOMETRY);

	d[2] = 0xff; d[3] = 0xff;	/* 65535 bytes claimed; 76 came */
	d[48] = 0x00; d[49] = 0x02; d[50] = 0x10; d[51] = 0x0c; d[52] = 0x05;	/* Locking, 12 bytes: supported, locked */
	d[64] = 0x12; d[65] = 0x34;	/* an unknown code of length 0 */
	d[68] = 0x00; d[69] = 0x03; d[70] = 0x10; d[71] = 0x1c; d[72] = 0x01;	/* Geometry of 28 bytes, 4 came */
	result("Level 0: a header claiming 65535 bytes of which 76 came: 76 decoded",
	       tcg_decode_level0(d, sizeof(d), &l0) && l0.used == sizeof(d) && l0.n == 3);
	result("Level 0: a descriptor of length 0 is one, and the walk goes on",
	       l0.d[1].code == 0x1234 && l0.d[1].length == 0 && !l0.d[1].truncated);
	result("Level 0: a descriptor running past what came is marked, its fields there read, none beyond",
	       l0.d[2].truncated && tcg_field_value(d, &l0, &l0.d[2], &geometry->fields[0], &v) && v == 1 &&
		       !tcg_field_value(d, &l0, &l0.d[2], &geometry->fields[1], &v) && v == 0);
	d[51] = 0x00;	/* Locking of length 0: its bits are not there */
	tcg_decode_level0(d, sizeof(d), &l0);
	{
		struct tcg_locking lk;

		tcg_locking_of(d, &l0, &lk);
		result("Level 0: a Locking descriptor of length 0 says nothing of a lock", !lk.present && !lk.locked);
	}
	result("Level 0: 47 bytes are not a header", !tcg_decode_level0(d, 47, &l0));
}

/*
 * The session layer against Core Specification 2.01's layouts: atoms
 * (3.2.2.3.1), a method's status list (3.2.4.2), packet lengths (3.2.3)
 * that lie.
 */
static void test_tcg_session(void)
{
	uint8_t out[32], pkt[1024];
	static const uint8_t reply_ok[] = { 0xf0, 0xf1, 0xf9, 0xf0, 0x00, 0x00, 0x00, 0xf1 };
	static const uint8_t reply_refused[] = { 0xf0, 0xf1, 0xf9, 0xf0, 0x01, 0x00, 0x00, 0xf1 };
	static const uint8_t cut[] = { 0xd0, 0x20, 'A', 'B' };	/* a medium atom of 32 bytes, 2 came */
	struct tcg_writer w = { .p = out, .cap = sizeof(out) };
	struct tcg_response r;
	struct tcg_item it;
	const char *why;
	char name[24];
	size_t pos = 0, n;

	tcg_put_uint(&w, 63);
	tcg_put_uint(&w, 64);
	tcg_put_uint(&w, 0x1000);
	result("atoms: 63 tiny, 64 a short atom of 1 byte, 4096 of 2 bytes",
	       w.len == 6 && out[0] == 0x3f && out[1] == 0x81 && out[2] == 0x40 && out[3] == 0x82 && out[4] == 0x10 &&
		       out[5] == 0x00);
	w = (struct tcg_writer){ .p = out, .cap = 8 };
	tcg_put_bytes(&w, (const uint8_t *)"0123456789", 10);
	result("a writer full: overflow, nothing past its end", w.overflow && w.len == 0);
	result("method status SUCCESS after END OF DATA", tcg_method_status(reply_ok, sizeof(reply_ok)) == 0);
	result("method status NOT_AUTHORIZED, named",
	       tcg_method_status(reply_refused, sizeof(reply_refused)) == 1 &&
		       strcmp(tcg_status_name(1, name, sizeof(name)), "NOT_AUTHORIZED") == 0);
	result("a stream without END OF DATA has no status", tcg_method_status(reply_ok, 2) == -1);
	result("an atom longer than what came is not read", !tcg_next(cut, sizeof(cut), &pos, &it) && pos == 0);
	n = tcg_packetize(pkt, sizeof(pkt), 0x0888, 1, 0x69, reply_ok, sizeof(reply_ok));
	result("a ComPacket of 8 bytes of data: 512 bytes, lengths 44, 20, 8",
	       n == 512 && get_be32(pkt + 16) == 44 && get_be32(pkt + 20 + 20) == 20 && get_be32(pkt + 20 + 24 + 8) == 8);
	result("opened again: its data and session numbers",
	       tcg_unpacketize(pkt, n, &r, &why) && r.len == 8 && r.tsn == 1 && r.hsn == 0x69 && r.data[2] == 0xf9);
	put_be32(pkt + 20 + 24 + 8, 0xfffffff0);
	result("a SubPacket length past its Packet: refused", !tcg_unpacketize(pkt, n, &r, &why));
	put_be32(pkt + 16, 0);
	result("a ComPacket length of 0: refused (the drive has nothing yet)", !tcg_unpacketize(pkt, n, &r, &why));
}

/*
 * A PSID revert's pieces against the Core Specification 2.01's layouts:
 * SyncSession (5.2.3.2), the SSC descriptors' base ComID (3.3.6, Opal
 * 3.1.1.5, Enterprise 3.6.2.7), StartSession's parameters (5.2.3.1).
 */
static void test_tcg_methods(void)
{
	static const uint8_t sync[] = { 0xf8, 0xa8, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xa8, 0, 0, 0, 0, 0, 0, 0xff, 0x03,
					0xf0, 0x81, 0x69, 0x82, 0x10, 0x01, 0xf1, 0xf9, 0xf0, 0, 0, 0, 0xf1 };
	/* Header of 48 bytes; Enterprise (0100h, base ComID 07FEh), then Opal 2 (0203h, 1000h); then Opal 1 cut to 1 byte. */
	uint8_t l0buf[48 + 20 + 20 + 5] = { 0, 0, 0, 48 + 20 + 20 + 5 - 4, 0, 0, 0, 1 };
	uint8_t *e = l0buf + 48, *o = e + 20, *o1 = o + 20;
	uint8_t out[128];
	struct tcg_writer w = { .p = out, .cap = sizeof(out) };
	struct tcg_level0 l0;
	uint32_t hsn = 0, tsn = 0;
	uint16_t code = 0, comid = 0;

	result("SyncSession: host session 69h, TPer session 1001h",
	       tcg_read_sync_session(sync, sizeof(sync), &hsn, &tsn) && hsn == 0x69 && tsn == 0x1001);
	result("SyncSession cut before its TPer session number: refused", !tcg_read_sync_session(sync, 23, &hsn, &tsn));
	result("another method's answer (Properties) is no SyncSession", !tcg_read_sync_session(sync, 18, &hsn, &tsn));
	e[0] = 0x01, e[1] = 0x00, e[2] = 0x10, e[3] = 16, e[4] = 0x07, e[5] = 0xfe;
	o[0] = 0x02, o[1] = 0x03, o[2] = 0x10, o[3] = 16, o[4] = 0x10, o[5] = 0x00;
	o1[0] = 0x02, o1[1] = 0x00, o1[2] = 0x10, o1[3] = 1;
	tcg_decode_level0(l0buf, sizeof(l0buf), &l0);
	result("the SSC: Opal 2 before Enterprise, whatever their order; its base ComID",
	       tcg_ssc_of(l0buf, &l0, &code, &comid) && code == TCG_FEATURE_OPAL2 && comid == 0x1000);
	o[0] = 0x7f;	/* no longer Opal 2: Opal 1's descriptor is too short to hold a ComID, Enterprise remains */
	tcg_decode_level0(l0buf, sizeof(l0buf), &l0);
	result("an SSC descriptor too short for its ComID is passed over: Enterprise, 07FEh",
	       tcg_ssc_of(l0buf, &l0, &code, &comid) && code == TCG_FEATURE_ENTERPRISE && comid == 0x07fe);
	tcg_write_start_session_psid(&w, 1, "PSID", 4);
	/* CALL SMUID StartSession [ 1 AdminSP 1 { 0 "PSID" } { 3 PSID-authority } ] EOD [ 0 0 0 ] */
	result("StartSession: host session 1, the Admin SP, Write, HostChallenge 0, HostSigningAuthority 3",
	       !w.overflow && w.len == 58 && out[18] == 0x02 &&
	       out[19] == 0xf0 && out[20] == 0x01 && out[21] == 0xa8 && out[24] == 0x02 && out[25] == 0x05 &&
	       out[30] == 0x01 && out[31] == 0xf2 && out[32] == 0x00 && out[33] == 0xa4 && memcmp(out + 34, "PSID", 4) == 0 &&
	       out[38] == 0xf3 && out[39] == 0xf2 && out[40] == 0x03 && out[41] == 0xa8 && out[45] == 0x09 && out[48] == 0xff &&
	       out[49] == 0x01);
}

static void test_scsi_pages(void)
{
	static const uint8_t rc16[32] = { 0, 0, 0, 0, 0, 0, 0x0f, 0xff, 0, 0, 0x10, 0, 0, 0x03, 0xc0 };
	static const uint8_t vpd[] = { 0, 0x80, 0x00, 0xff, 'A', 'B' };
	/* Mode parameter header (10): MODE DATA LENGTH 26, block descriptor length 0; caching page 08h, 18 bytes. */
	uint8_t mode[28] = { 0, 26, 0, 0x90, 0, 0, 0, 0, 0x08, 0x12, 0x04 };
	struct scsi_capacity cap;
	size_t offset, len;
	char cause[160], serial[32];

	result("READ CAPACITY (16): last LBA + 1 blocks, block length, exponent, LBPME, LBPRZ",
	       scsi_decode_capacity16(rc16, sizeof(rc16), &cap) && cap.blocks == 0x1000 && cap.block_bytes == 4096 &&
	       cap.physical_exponent == 3 && cap.lbpme && cap.lbprz);
	result("READ CAPACITY (16) of 11 bytes: refused", !scsi_decode_capacity16(rc16, 11, &cap));
	result("VPD page claiming 255 bytes of which 6 came: 6 may be read", scsi_vpd_length(vpd, sizeof(vpd)) == 6);
	{
		/* VPD B4h (SBC-4 6.6.7): 520 bytes with T3PS..T0PS set, 4096 with T0PS, then 4 bytes of a third. */
		static const uint8_t b4[] = { 0, 0xb4, 0, 20, 0, 0, 0x02, 0x08, 0, 0x0f, 0, 0,
					      0, 0, 0x10, 0, 0, 0x01, 0, 0, 0, 0, 0x02, 0 };
		struct scsi_block_length l[4];
		unsigned int n = scsi_decode_block_lengths(b4, scsi_vpd_length(b4, sizeof(b4)), l, 4);

		result("VPD B4h: two whole descriptors of the three its length claims, their lengths and types",
		       n == 2 && l[0].bytes == 520 && l[0].pi_types == 0x0f && l[1].bytes == 4096 && l[1].pi_types == 0x01);
		result("VPD B4h: no more than the room given", scsi_decode_block_lengths(b4, sizeof(b4), l, 1) == 1);
	}
	{
		/* Extended INQUIRY Data (SPC-4 7.8.7 table 589): SPT 011b, types 1 and 3; 110b reserved. */
		uint8_t x[8] = { 0, 0x86, 0, 60, 3 << 3 };

		result("Extended INQUIRY SPT 011b: types 1 and 3", scsi_decode_spt_types(x, sizeof(x)) == 0x0a);
		x[4] = 6 << 3;
		result("Extended INQUIRY SPT 110b (reserved): no type known", scsi_decode_spt_types(x, sizeof(x)) == 0);
		result("Extended INQUIRY cut before byte 4: nothing", scsi_decode_spt_types(x, 4) == 0);
	}
	scsi_decode_serial(vpd, sizeof(vpd), serial, sizeof(serial));
	result("unit serial number: what came, no further", strcmp(serial, "AB") == 0);
	result("mode page 08h found after the 8-byte header",
	       scsi_find_mode_page(mode, sizeof(mode), 0x08, 0, &offset, &len, cause, sizeof(cause)) == 0 && offset == 8 &&
	       len == 20);
	result("mode page 08h with 10 of its 20 bytes: EIO",
	       scsi_find_mode_page(mode, 18, 0x08, 0, &offset, &len, cause, sizeof(cause)) == EIO);
	result("mode page 1Ah not in the answer: EOPNOTSUPP",
	       scsi_find_mode_page(mode, sizeof(mode), 0x1a, 0, &offset, &len, cause, sizeof(cause)) == EOPNOTSUPP);
}

/* The Temperature log page as SPC-4 lays it out: a 4-byte header, then parameters 0000h and 0001h. */
static void test_temperature_page(void)
{
	static const uint8_t page[] = { 0x0d, 0, 0, 12, 0, 0, 3, 2, 0, 38, 0, 1, 3, 2, 0, 60 };
	static const uint8_t none[] = { 0x0d, 0, 0, 6, 0, 0, 3, 2, 0, 0xff };
	struct scsi_temperature t;

	result("temperature page: 38 C, reference 60 C",
	       scsi_decode_temperature_page(page, sizeof(page), &t) && t.has_current && t.current == 38 &&
	       t.has_reference && t.reference == 60);
	result("temperature page cut after its first parameter: the temperature, no reference",
	       scsi_decode_temperature_page(page, 10, &t) && t.has_current && !t.has_reference);
	result("temperature page cut inside its first parameter: nothing",
	       scsi_decode_temperature_page(page, 9, &t) && !t.has_current && !t.has_reference);
	result("temperature FFh: no reading", scsi_decode_temperature_page(none, sizeof(none), &t) && !t.has_current);
	result("another page (0Eh): not the temperature page",
	       !scsi_decode_temperature_page((const uint8_t[]){ 0x0e, 0, 0, 0 }, 4, &t));
}

/*
 * The Background Scan Results log page as SBC-3 lays it out: parameter 0000h (length 0Ch), its bytes
 * 4-7 the accumulated power on minutes: 00012D8Eh, 77198 (sg_logs -p 0x15 reads the same bytes as
 * 1286:38, tests/scsi-commands.sh).
 */
static void test_power_on_page(void)
{
	static const uint8_t page[] = { 0x15, 0, 0, 0x10, 0, 0, 3, 0x0c, 0, 1, 0x2d, 0x8e, 0, 0, 0, 5, 0, 0, 0, 3 };
	uint32_t minutes = 0;

	result("background scan page: 77198 minutes", scsi_decode_power_on_minutes(page, sizeof(page), &minutes) &&
	       minutes == 77198);
	result("background scan page cut inside its status parameter: nothing",
	       !scsi_decode_power_on_minutes(page, 19, &minutes));
	result("background scan page whose length stops before the minutes: nothing",
	       !scsi_decode_power_on_minutes((const uint8_t[]){ 0x15, 0, 0, 6, 0, 0, 3, 2, 0, 1 }, 10, &minutes));
	result("another page (0Dh): not the background scan page",
	       !scsi_decode_power_on_minutes((const uint8_t[]){ 0x0d, 0, 0, 0 }, 4, &minutes));
}

static void test_sysfs(void)
{
	static const struct {
		const char *line;
		int err;
		unsigned long long value;
	} cases[] = {
		{ "2048\n", 0, 2048 }, { "0", 0, 0 }, { "12x\n", EINVAL, 0 }, { "-1\n", EINVAL, 0 },
		{ " 5\n", EINVAL, 0 }, { "", EINVAL, 0 }, { "99999999999999999999999\n", EINVAL, 0 },
	};
	bool ok = true;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned long long v = 0;
		int err = sysfs_parse_u64(cases[i].line, &v);

		ok = ok && err == cases[i].err && (err || v == cases[i].value);
	}
	result("sysfs numbers: digits and a newline, nothing else", ok);
	/* Documentation/ABI/stable/sysfs-block: 17 fields on kernels with discards and flushes, 11 on old ones. */
	unsigned long long ios = 0;

	ok = sysfs_parse_stat("    1000       20    80000      300      200       10     4000      500        0      700      800"
			      "        5        0       40        0        7       90\n", &ios) && ios == 1000 + 200 + 5 + 7;
	ok = ok && sysfs_parse_stat("10 0 0 0 20 0 0 0 0 0 0\n", &ios) && ios == 30;
	ok = ok && !sysfs_parse_stat("10 0 0 0 20\n", &ios) && !sysfs_parse_stat("", &ios);
	result("sysfs stat: reads, writes, discards and flushes done; too few fields refused", ok);
	/* Documentation/admin-guide/iostats.rst's example line of /proc/diskstats. */
	unsigned int maj = 0, min = 0;

	ok = diskstats_parse("   3    0   hda 446216 784926 9550688 4382310 424847 312726 5922052 19310380 0 3376340 23705160\n",
			     &maj, &min, &ios) && maj == 3 && min == 0 && ios == 446216 + 424847;
	ok = ok && diskstats_parse(" 259       0 nvme0n1 10 0 0 0 20 0 0 0 0 0 0 0 0 0 0 3 0\n", &maj, &min, &ios) &&
	     maj == 259 && ios == 33;
	ok = ok && !diskstats_parse("   3    0   hda 1 2 3\n", &maj, &min, &ios) && !diskstats_parse("3 0\n", &maj, &min, &ios) &&
	     !diskstats_parse("", &maj, &min, &ios);
	result("/proc/diskstats: the disk's numbers and its I/Os done; a short line refused", ok);
	/*
	 * Lines of the kernel's block_rq_issue trace: two as a 6.18 kernel wrote them for dd on a
	 * loop device (print fmt "%d,%d %s %u (%s) %llu + %u %s,%u,%u [%s]"), and one made by the
	 * format of 5.x kernels (no ioprio) for a pass-through command issued by a kworker.
	 */
	struct wake_io io;

	ok = wake_trace_parse("              dd-28720   [001] .....  2075.878564: block_rq_issue: 7,0 RS 4096 () 56 + 8 be,0,4 [dd]\n",
			      &maj, &min, &io) && maj == 7 && min == 0 && io.pid == 28720 && strcmp(io.comm, "dd") == 0 &&
	     strcmp(io.op, "read") == 0 && io.lba == 56 && io.sectors == 8;
	ok = ok && wake_trace_parse("              dd-28721   [001] .....  2075.890712: block_rq_issue: 7,0 WS 512 () 3 + 1 be,0,4 [dd]\n",
				    &maj, &min, &io) && strcmp(io.op, "write") == 0 && io.lba == 3;
	ok = ok && wake_trace_parse(" kworker/u8:2-events-91 [000] d..1. 5.000001: block_rq_issue: 8,16 N 0 (85 06 20) 0 + 0 [kworker/u8:2]\n",
				    &maj, &min, &io) && maj == 8 && min == 16 && io.pid == 91 &&
	     strcmp(io.op, "pass-through command") == 0 && strcmp(io.comm, "kworker/u8:2") == 0;
	/* block_rq_insert, the same class (a 6.18 kernel, dd through mq-deadline). */
	ok = ok && wake_trace_parse("              dd-18405   [001] ...1.  2705.221084: block_rq_insert: 7,0 RS 4096 () 72 + 8 be,0,4 [dd]\n",
				    &maj, &min, &io) && io.pid == 18405 && io.lba == 72 && strcmp(io.op, "read") == 0;
	ok = ok && !wake_trace_parse("  dd-1 [001] .....  1.0: block_rq_complete: 7,0 R () 56 + 8 [0]\n", &maj, &min, &io) &&
	     !wake_trace_parse("block_rq_issue: 7,0 R 4096 () 56 + 8 be,0,4 [dd", &maj, &min, &io);
	result("block_rq_issue and _insert trace lines: the disk, who, what, where; other events and cut lines refused", ok);
}

/* The sample after an erase: which blocks, and what each read as. */
static void test_erase_sample(void)
{
	uint8_t block[512];
	bool ok;

	ok = erase_sample_lba(0, 64, 1000) == 0 && erase_sample_lba(63, 64, 1000) == 999 &&
	     erase_sample_lba(21, 64, 1000) == 333 && erase_sample_lba(63, 64, UINT64_MAX) == UINT64_MAX - 1 &&
	     erase_sample_lba(5, 64, 1) == 0;
	for (unsigned int i = 1; ok && i < 64; i++)
		ok = erase_sample_lba(i, 64, 15628053168ULL) > erase_sample_lba(i - 1, 64, 15628053168ULL);
	result("erase sample: first, last and evenly between, also on the largest disk", ok);
	memset(block, 0, sizeof(block));
	ok = erase_classify(block, sizeof(block), 0x12345678, true) == ERASED_ZEROS;
	for (size_t i = 0; i < sizeof(block); i += 4)
		block[i] = 0x12, block[i + 1] = 0x34, block[i + 2] = 0x56, block[i + 3] = 0x78;
	ok = ok && erase_classify(block, sizeof(block), 0x12345678, true) == ERASED_PATTERN &&
	     erase_classify(block, sizeof(block), 0x78563412, true) == ERASED_PATTERN &&
	     erase_classify(block, sizeof(block), 0x12345678, false) == ERASED_OTHER;
	block[511] = 0;
	ok = ok && erase_classify(block, sizeof(block), 0x12345678, true) == ERASED_OTHER;
	result("erase sample: zeros, the pattern in either byte order, anything else", ok);
}

/* A Power Conditions log descriptor (ACS-3 9.7.4, FreeBSD's struct ata_power_cond_log_desc), and the timer field. */
static void test_epc(void)
{
	static const uint8_t desc[ATA_PCL_DESCRIPTOR] = {
		[1] = 0xe4,	/* supported, saveable, changeable, current enabled */
		[4] = 0xb0, [5] = 0x04,	/* default 1200 (120 s) */
		[8] = 0x2c, [9] = 0x01,	/* saved 300 */
		[12] = 0x10, [13] = 0x27,	/* current 10000 */
		[20] = 0x01,	/* minimum 1 */
		[24] = 0xa0, [25] = 0x8c,	/* maximum 36000 */
	};
	struct disk_pc_state st;
	uint64_t eff;
	uint32_t lba;
	bool ok;

	epc_decode(desc, &st);
	result("EPC descriptor: flags and the five timers", st.supported && st.saveable && st.changeable &&
		   st.current_enabled && !st.saved_enabled && !st.default_enabled && st.default_timer == 1200 &&
		   st.saved_timer == 300 && st.current_timer == 10000 && st.min_timer == 1 && st.max_timer == 36000);
	ok = epc_timer_field(65535, &lba, &eff) == 0 && lba == 0xffff00 && eff == 65535;
	ok = ok && epc_timer_field(65536, &lba, &eff) == 0 && lba == (110u << 8 | 0x80) && eff == 66000;
	ok = ok && epc_timer_field(600ULL * 65535, &lba, &eff) == 0 && lba == (0xffffu << 8 | 0x80);
	ok = ok && epc_timer_field(600ULL * 65535 + 1, &lba, &eff) == ERANGE;
	result("EPC timer: 100 ms units to 6553.5 s, whole minutes (rounded up) above, 65535 minutes at most", ok);
}

/* A disk of the unit test: the sectors of bad[] fail with err, a read at gone or past it fails with ENODEV. */
struct fake_disk {
	uint64_t bad[4];
	size_t nbad;
	int err;
	uint64_t gone;
	unsigned int reads;
};

static int fake_read(void *ctx, uint64_t lba, uint32_t sectors)
{
	struct fake_disk *d = ctx;

	d->reads++;
	if (lba + sectors > d->gone)
		return ENODEV;
	for (size_t i = 0; i < d->nbad; i++)
		if (d->bad[i] >= lba && d->bad[i] < lba + sectors)
			return d->err;
	return 0;
}

/* --surface-scan: classes by their bounds (Victoria's), blocks in a range, slow regions merged, the search. */
static void test_surface_scan(void)
{
	static const struct { double ms; enum scan_class c; } bounds[] = {
		{ 0, SCAN_LT_5MS }, { 4.999, SCAN_LT_5MS }, { 5, SCAN_LT_20MS }, { 19.99, SCAN_LT_20MS },
		{ 20, SCAN_LT_50MS }, { 50, SCAN_LT_150MS }, { 149.9, SCAN_LT_150MS }, { 150, SCAN_LT_500MS },
		{ 499.9, SCAN_LT_500MS }, { 500, SCAN_GE_500MS }, { 1e6, SCAN_GE_500MS },
	};
	struct fake_disk d = { .bad = { 5, 6, 255 }, .nbad = 3, .err = EIO, .gone = UINT64_MAX };
	struct scan_result r;
	uint64_t at = 0;
	bool ok = true;

	for (size_t i = 0; i < sizeof(bounds) / sizeof(bounds[0]); i++)
		ok = ok && scan_class_of(bounds[i].ms) == bounds[i].c;
	result("surface scan: a block's class, each bound in the class above it", ok);
	ok = scan_blocks_in(0, 255) == 1 && scan_blocks_in(0, 256) == 2 && scan_blocks_in(10, 10) == 1 &&
	     scan_blocks_in(0, 131071) == 512 && scan_blocks_in(100, 399) == 2;
	result("surface scan: blocks of 256 sectors in a range, the last one shorter", ok);

	scan_result_init(&r, 0, 2047, 512);
	ok = !scan_note_block(&r, 0, 256, 1, false) && !scan_note_block(&r, 256, 256, 150, false) &&
	     !scan_note_block(&r, 512, 256, 700, false) && !scan_note_block(&r, 768, 256, 200, false) &&
	     !scan_note_block(&r, 1024, 256, 149, false) && !scan_note_block(&r, 1280, 256, 600, false) &&
	     !scan_note_block(&r, 1536, 256, 900, true) && !scan_note_block(&r, 1792, 256, 160, false);
	ok = ok && r.nslow == 3 && r.slow[0].first_lba == 256 && r.slow[0].last_lba == 1023 && r.slow[0].worst_ms == 700 &&
	     r.slow[1].first_lba == 1280 && r.slow[1].last_lba == 1535 && r.slow[1].worst_ms == 600 &&
	     r.slow[2].first_lba == 1792 && r.slow[2].last_lba == 2047;
	ok = ok && r.blocks_read == 8 && r.histogram[SCAN_LT_5MS] == 1 && r.histogram[SCAN_LT_500MS] == 3 &&
	     r.histogram[SCAN_GE_500MS] == 2 && r.histogram[SCAN_LT_150MS] == 1 && r.histogram[SCAN_UNREADABLE] == 1 &&
	     r.next_lba == 2048;
	result("surface scan: adjacent slow blocks one region (worst time kept), a fast or unreadable block parts them", ok);
	scan_result_free(&r);

	scan_result_init(&r, 0, 511, 512);
	ok = scan_search(&r, 0, 256, fake_read, &d, 0, &at) == 0 && r.nbad == 3 && r.bad[0] == 5 && r.bad[1] == 6 &&
	     r.bad[2] == 255 && d.reads == 256;
	d.err = ENODATA;
	ok = ok && scan_search(&r, 0, 256, fake_read, &d, 4, &at) == 0 && r.nbad == 4 && r.bad[3] == 5;
	result("surface scan: the search names each unreadable sector exactly, and stops at --scan-errors-max", ok);
	scan_result_free(&r);
	scan_result_init(&r, 0, 511, 512);
	d.gone = 7;
	ok = scan_search(&r, 0, 256, fake_read, &d, 0, &at) == ENODEV && at == 7 && r.nbad == 2;
	d.err = ETIMEDOUT;
	d.gone = UINT64_MAX;
	ok = ok && scan_search(&r, 0, 8, fake_read, &d, 0, &at) == ETIMEDOUT && at == 5 && r.nbad == 2;
	ok = ok && scan_unreadable_errno(EIO) && scan_unreadable_errno(ENODATA) && scan_unreadable_errno(EILSEQ) &&
	     !scan_unreadable_errno(ENODEV) && !scan_unreadable_errno(ENXIO) && !scan_unreadable_errno(ETIMEDOUT);
	result("surface scan: a disk gone or timing out ends the search where it was read", ok);
	scan_result_free(&r);
}

/* --scan-picture: a cell covers ceil(blocks / 4096) blocks (the rule), keeps its worst class, and the SVG escapes the device's strings. */
static void test_scan_picture(void)
{
	/* 20 TB of 512-byte sectors: 152587891 blocks, 37253 a cell: 4096 cells; 1 GiB: 8192 blocks, two a cell. */
	static const struct { uint64_t first, last, cell_sectors; size_t n; } sizes[] = {
		{ 0, 2097151, 512, 4096 }, { 0, 39062499999ull, 37253ull * 256, 4096 }, { 0, 8191, 256, 32 },
		{ 10, 10, 256, 1 }, { 1000, 1000 + 1048837 - 1, 512, 2049 }, { 0, 4096ull * 256, 512, 2049 },
	};
	uint64_t hist[SCAN_CLASSES] = { 1, 0, 0, 0, 0, 0, 1 };
	struct scan_picture_facts f = { .path = "/dev/x&y", .model = "A<B&\"'\x01\xc3\xa9", .serial = "", .sector_bytes = 512,
					.histogram = hist, .blocks = 4, .blocks_read = 2, .completed = false, .when = 0 };
	struct scan_cells c;
	size_t len = 0;
	char *svg;
	bool ok = true;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		ok = ok && scan_cells_init(&c, sizes[i].first, sizes[i].last, SCAN_CELLS_MAX) == 0 &&
		     c.cell_sectors == sizes[i].cell_sectors && c.n == sizes[i].n;
		scan_cells_free(&c);
	}
	result("scan picture: a cell covers ceil(blocks / 4096) whole blocks, at most 4096 cells", ok);

	/* Four blocks (0 to 1023) in at most two cells: two blocks a cell. */
	ok = scan_cells_init(&c, 0, 1023, 2) == 0 && c.n == 2 && c.cell_sectors == 512;
	scan_cells_note(&c, 0, 256, SCAN_UNREADABLE);
	scan_cells_note(&c, 256, 256, SCAN_LT_5MS);
	ok = ok && !strcmp(scan_cell_key(&c, 0), "unreadable") && !strcmp(scan_cell_key(&c, 1), "not_read");
	scan_cells_note(&c, 500, 30, SCAN_LT_150MS);	/* a map's run across the two cells */
	scan_cells_note(&c, 1000, 256, SCAN_GE_500MS);	/* past the range: clipped to it */
	ok = ok && !strcmp(scan_cell_key(&c, 0), "unreadable") && !strcmp(scan_cell_key(&c, 1), "ge_500ms");
	scan_cells_note(&c, 2000, 256, SCAN_UNREADABLE);	/* wholly past the range: nothing */
	ok = ok && !strcmp(scan_cell_key(&c, 1), "ge_500ms");
	result("scan picture: a cell keeps the worst class noted in it; a run across cells marks each, clipped to the range", ok);
	scan_cells_free(&c);
	/* A range from LBA 1000: runs before it, or across its start, or past 2^64, clipped to it. */
	ok = scan_cells_init(&c, 1000, 1000 + 4 * 256 - 1, 2) == 0 && c.n == 2;
	scan_cells_note(&c, 0, 256, SCAN_UNREADABLE);
	ok = ok && !strcmp(scan_cell_key(&c, 0), "not_read") && !strcmp(scan_cell_key(&c, 1), "not_read");
	scan_cells_note(&c, 900, 200, SCAN_LT_20MS);
	scan_cells_note(&c, UINT64_MAX - 10, 256, SCAN_UNREADABLE);
	ok = ok && !strcmp(scan_cell_key(&c, 0), "lt_20ms") && !strcmp(scan_cell_key(&c, 1), "not_read");
	scan_cells_note(&c, 1600, UINT32_MAX, SCAN_LT_50MS);
	ok = ok && !strcmp(scan_cell_key(&c, 0), "lt_20ms") && !strcmp(scan_cell_key(&c, 1), "lt_50ms");
	result("scan picture: a run before the range, across its start or past its end touches only its own cells", ok);
	scan_cells_free(&c);
	ok = scan_cells_init(&c, 0, 1023, 2) == 0;
	scan_cells_note(&c, 0, 256, SCAN_UNREADABLE);
	scan_cells_note(&c, 1000, 256, SCAN_GE_500MS);

	svg = scan_picture_svg(&c, &f, &len);
	ok = svg && strlen(svg) == len && strstr(svg, "model: A&lt;B&amp;&quot;&apos;???, serial: not shown by the kernel") &&
	     strstr(svg, "of /dev/x&amp;y</title>") && strstr(svg, "1970-01-01 00:00:00 UTC, 2 of 4 blocks read: the scan stopped early") &&
	     strstr(svg, "data-lba=\"0\" data-class=\"unreadable\"/>") && strstr(svg, "data-lba=\"512\" data-class=\"ge_500ms\"/>") &&
	     strstr(svg, "data-class=\"lt_5ms\" data-count=\"1\"") && strstr(svg, "data-class=\"not_read\" data-count=\"2\"") &&
	     strstr(svg, "&lt; 5 ms: 1 block<") && !strstr(svg, "< 5 ms");
	result("scan picture: the SVG escapes the device's strings, names each cell's first LBA and class, the legend's counts", ok);
	/* SPC-4 7.8.19: byte 1 the page code 80h, bytes 2-3 the page length, the serial from byte 4. */
	{
		static const unsigned char pg80[] = { 0, 0x80, 0, 12, ' ', ' ', 'W', 'D', '-', 'W', 'X', '1', '2', ' ', ' ', ' ' };
		static const unsigned char pg83[] = { 0, 0x83, 0, 4, 'A', 'B', 'C', 'D' };
		char serial[32] = "x";

		ok = scan_picture_vpd_serial(pg80, sizeof(pg80), serial, sizeof(serial)) == 7 && !strcmp(serial, "WD-WX12");
		ok = ok && scan_picture_vpd_serial(pg80, 9, serial, sizeof(serial)) == 3 && !strcmp(serial, "WD-");
		ok = ok && scan_picture_vpd_serial(pg80, sizeof(pg80), serial, 4) == 3 && !strcmp(serial, "WD-");
		ok = ok && scan_picture_vpd_serial(pg83, sizeof(pg83), serial, sizeof(serial)) == 0 && !*serial;
		ok = ok && scan_picture_vpd_serial(pg80, 2, serial, sizeof(serial)) == 0 && !*serial;
		result("scan picture: the serial of VPD page 80h, its blanks dropped, cut to the page and the buffer", ok);
	}
	free(svg);
	scan_cells_free(&c);
}

/* Many disks scanned at once: each disk's last status line (as surface_scan.c draws it), one line for all. */
static void test_scan_line(void)
{
	struct member m[3] = { { .stage = RUNNING }, { .stage = ENDED }, { .stage = RUNNING } };
	char line[200];
	bool ok;

	scan_status_take(&m[0].scan, "scan: 12.5% done, LBA 8192, 180 MB/s, 0:01:10 left, 2 unreadable");
	scan_status_take(&m[1].scan, "scan: 99.0% done, LBA 65280, 200 MB/s, 0:00:01 left, 1 unreadable");
	scan_status_take(&m[2].scan, "scan: 40.0% done, LBA 5000000000, 360 MB/s, 1:02:03 left, 0 unreadable");
	/* Not a scan's line: the last one is kept. */
	scan_status_take(&m[2].scan, "erasing: 3 min 02 s");
	scan_status_take(&m[2].scan, "scan: 41.0% done, LBA 5000000000, 360 MB/s, 1:02:03 left");
	scan_line(m, 3, line, sizeof(line));
	ok = strcmp(line, "scan of 3 disks: 12.5-100.0% done, 540 MB/s, 1:02:03 left, 3 unreadable") == 0;
	if (!ok)
		printf("  got %s\n", line);
	m[0].stage = m[2].stage = ENDED;
	scan_line(m, 3, line, sizeof(line));
	ok = ok && strcmp(line, "scan of 3 disks: 100.0% done, 0 MB/s, 0:00:00 left, 3 unreadable") == 0;
	m[0].stage = m[1].stage = m[2].stage = CHECKING;
	scan_line(m, 2, line, sizeof(line));
	ok = ok && strcmp(line, "scan of 2 disks: 0.0% done, 0 MB/s, 0:00:00 left, 3 unreadable") == 0;
	/* A disk refused (--continue-on-refusal) or whose process was killed holds no share back. */
	m[0].stage = REFUSED, m[1].stage = RUNNING, m[2].stage = KILLED;
	scan_line(m, 3, line, sizeof(line));
	ok = ok && strcmp(line, "scan of 1 disk: 99.0% done, 200 MB/s, 0:00:01 left, 3 unreadable") == 0;
	result("many disks scanned: one status line, the least and most done, rates added, the longest left", ok);
}

/* Lines of /proc/locks from proc_locks(5)'s example and Red Hat's deployment guide (major and minor in hex). */
static void test_disk_lock(void)
{
	static const struct {
		const char *line;
		unsigned int maj, min;
		unsigned long ino;
		bool found;
		int pid;
		bool shared;
	} cases[] = {
		{ "2: FLOCK  ADVISORY  WRITE 2001 08:01:7864554 0 EOF\n", 8, 1, 7864554, true, 2001, false },
		{ "2: FLOCK  ADVISORY  WRITE 3517 fd:00:2531448 0 EOF\n", 253, 0, 2531448, true, 3517, false },
		{ "3: FLOCK ADVISORY READ 1568 00:2f:32388 0 EOF\n", 0, 0x2f, 32388, true, 1568, true },
		{ "2: FLOCK  ADVISORY  WRITE 2001 08:01:7864554 0 EOF\n", 8, 1, 7864555, false, 0, false },
		{ "2: FLOCK  ADVISORY  WRITE 2001 08:01:7864554 0 EOF\n", 8, 2, 7864554, false, 0, false },
		{ "1: POSIX ADVISORY READ 5433 08:01:7864448 128 128\n", 8, 1, 7864448, false, 0, false },
		{ "1: -> FLOCK  ADVISORY  WRITE 4567 08:01:7864554 0 EOF\n", 8, 1, 7864554, false, 0, false },
		{ "", 0, 0, 0, false, 0, false },
	};
	bool ok = true;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		pid_t pid = 0;
		bool shared = false;
		bool found = disk_lock_line(cases[i].line, makedev(cases[i].maj, cases[i].min), (ino_t)cases[i].ino, &pid,
					    &shared);

		if (found != cases[i].found || (found && (pid != cases[i].pid || shared != cases[i].shared))) {
			printf("  /proc/locks case %zu: found %d pid %d shared %d\n", i, found, (int)pid, shared);
			ok = false;
		}
	}
	result("/proc/locks: the flock of one file, its holder and whether it is shared; a waiter or a POSIX lock is not", ok);
}

int main(void)
{
	test_sat();
	test_sense();
	test_ranges();
	test_scsi_pages();
	test_tcg_level0();
	test_tcg_session();
	test_tcg_methods();
	test_temperature_page();
	test_power_on_page();
	test_sysfs();
	test_erase_sample();
	test_epc();
	test_surface_scan();
	test_scan_picture();
	test_scan_line();
	test_disk_lock();
	printf("end of suite\n");
	return failures != 0;
}
