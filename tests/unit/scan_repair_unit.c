/*
 * --scan-repair's decisions (ops/scan/scan_repair.c) against a disk in
 * memory: sectors of 16 bytes, each filled with its LBA; bad sectors that
 * fail every read, or the first few, or heal when written whole.  What is
 * expected is the rule (issue 61 item 9), not the code's reading:
 * a sector that reads on a retry is never written; one that fails has its
 * whole physical sector written once, the readable neighbours with their
 * own bytes, zeros where a sector cannot be read; then read back.
 * Prints "ok unit: NAME" / "FAIL unit: NAME" lines and "end of suite".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "scan_repair.h"
#include "scsi_pages.h"

#define SB 16u
#define DISK 64u

struct mem_disk {
	unsigned char bytes[DISK * SB];
	int fails_left[DISK];	/* reads that fail still; -1: every read */
	bool heals;		/* a write makes a sector good */
	uint64_t gone_at;	/* a read here: ENXIO (the disk gone) */
	int reads[DISK];
	int writes;
	uint64_t write_lba;
	uint32_t write_count;
	bool stop;
	bool dead;		/* every read and write fails with EIO (a disk gone from its bus) */
};

static int failures;

static void result(const char *name, bool ok)
{
	printf("%s unit: %s\n", ok ? "ok" : "FAIL", name);
	failures += !ok;
}

static int mem_read(void *ctx, uint64_t lba, uint32_t n, unsigned char *buf)
{
	struct mem_disk *d = ctx;

	if (d->dead)
		return EIO;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t s = lba + i;

		if (s == d->gone_at)
			return ENXIO;
		d->reads[s]++;
		if (d->fails_left[s]) {
			if (d->fails_left[s] > 0)
				d->fails_left[s]--;
			return EIO;
		}
	}
	memcpy(buf, d->bytes + lba * SB, (size_t)n * SB);
	return 0;
}

static int mem_write(void *ctx, uint64_t lba, uint32_t n, unsigned char *buf)
{
	struct mem_disk *d = ctx;

	if (d->dead)
		return EIO;
	d->writes++;
	d->write_lba = lba;
	d->write_count = n;
	memcpy(d->bytes + lba * SB, buf, (size_t)n * SB);
	for (uint32_t i = 0; i < n && d->heals; i++)
		d->fails_left[lba + i] = 0;
	return 0;
}

static struct mem_disk disk;

static bool stop_now(void)
{
	return disk.stop;
}

static void disk_init(bool heals)
{
	memset(&disk, 0, sizeof(disk));
	for (unsigned int s = 0; s < DISK; s++)
		memset(disk.bytes + s * SB, (int)(0x40 + s), SB);
	disk.heals = heals;
	disk.gone_at = UINT64_MAX;
}

/* Sector s holds what it held (0x40 + s in every byte), or zeros. */
static bool holds(unsigned int s, bool zeros)
{
	for (unsigned int i = 0; i < SB; i++)
		if (disk.bytes[s * SB + i] != (zeros ? 0 : 0x40 + s))
			return false;
	return true;
}

/* The repair of bad[0..n) after a scan that read first..last; good: a sector it read (UINT64_MAX: none). */
static int run_scoped(uint32_t per, uint64_t sectors, uint64_t first, uint64_t last, uint64_t good, const uint64_t *bad,
		      size_t n, struct repair_result *res)
{
	static unsigned char buf[9 * SB];
	struct repair_io io = { .read = mem_read, .write = mem_write, .ctx = &disk, .sector_bytes = SB,
				.per_physical = per, .sectors = sectors, .buf = buf, .stop = stop_now,
				.scanned_first = first, .scanned_last = last, .have_good = good != UINT64_MAX,
				.good_lba = good };

	memset(res, 0, sizeof(*res));
	return scan_repair_run(&io, bad, n, res);
}

static int run(uint32_t per, uint64_t sectors, const uint64_t *bad, size_t n, struct repair_result *res)
{
	return run_scoped(per, sectors, 0, sectors - 1, UINT64_MAX, bad, n, res);
}

int main(void)
{
	struct repair_result res;
	bool ok;

	/* 4096-byte physical sectors of 512-byte logical ones: 8 to one. */
	ok = repair_physical_first(9, 8) == 8 && repair_physical_first(8, 8) == 8 && repair_physical_first(7, 8) == 0 &&
	     repair_physical_first(9, 1) == 9 && repair_physical_count(56, 8, 61) == 5 && repair_physical_count(8, 8, 64) == 8;
	result("scan repair: the physical sector of an LBA, cut at the device's end", ok);

	disk_init(false);
	disk.fails_left[9] = 2;
	ok = run(8, DISK, (const uint64_t[]){ 9 }, 1, &res) == 0 && res.done == 1 &&
	     res.e[0].outcome == REPAIR_READS_NOW && disk.writes == 0 && disk.reads[9] == 3 && res.writes == 0;
	result("scan repair: a sector that reads on a retry is never written", ok);
	repair_result_free(&res);

	disk_init(true);
	disk.fails_left[9] = -1;
	ok = run(8, DISK, (const uint64_t[]){ 9 }, 1, &res) == 0 && res.e[0].outcome == REPAIR_REWRITTEN &&
	     disk.writes == 1 && disk.write_lba == 8 && disk.write_count == 8 && holds(9, true) && disk.reads[9] == 4;
	for (unsigned int s = 8; s < 16; s++)
		ok = ok && (s == 9 || holds(s, false));
	result("scan repair: the whole physical sector written once, its readable sectors with their bytes, zeros where unreadable; read back", ok);
	repair_result_free(&res);

	disk_init(false);
	disk.fails_left[9] = -1;
	ok = run(8, DISK, (const uint64_t[]){ 9 }, 1, &res) == 0 && res.e[0].outcome == REPAIR_STILL_UNREADABLE &&
	     disk.writes == 1 && disk.reads[9] == 4;
	result("scan repair: a sector that does not heal: still unreadable after one write", ok);
	repair_result_free(&res);

	/* 9 and 12 listed, 14 reads on a retry: one write, zeros at 9 and 12 alone, each named in res.w. */
	disk_init(true);
	disk.fails_left[9] = disk.fails_left[12] = -1;
	disk.fails_left[14] = 1;
	ok = run(8, DISK, (const uint64_t[]){ 9, 12, 40 }, 3, &res) == 0 && res.done == 3 && disk.writes == 1 &&
	     disk.write_lba == 8 && res.e[0].outcome == REPAIR_REWRITTEN && res.e[1].outcome == REPAIR_REWRITTEN &&
	     res.e[2].outcome == REPAIR_READS_NOW && holds(9, true) && holds(12, true) && res.writes == 1 &&
	     res.w[0].first == 8 && res.w[0].count == 8 && res.w[0].from == 0 && res.w[0].to == 2;
	for (unsigned int s = 8; s < 16; s++)
		ok = ok && (s == 9 || s == 12 || holds(s, false));
	result("scan repair: two listed sectors of one physical sector: one write, named; a neighbour that reads on a retry kept", ok);
	repair_result_free(&res);

	/* Issue 65 item 16: an unreadable sector the scan did not name (outside its range, past its limit) is never zeroed. */
	disk_init(true);
	disk.fails_left[9] = disk.fails_left[11] = -1;
	ok = run(8, DISK, (const uint64_t[]){ 9 }, 1, &res) == 0 && res.done == 1 && disk.writes == 0 && res.writes == 0 &&
	     res.e[0].outcome == REPAIR_NOT_WRITTEN && res.e[0].why == REPAIR_UNNAMED && res.e[0].unnamed == 11 &&
	     res.e[0].phys_first == 8 && res.e[0].phys_count == 8;
	result("scan repair: a neighbour that cannot be read and is not listed: the physical sector not written, that LBA said", ok);
	repair_result_free(&res);

	/* --scan-range 9-9 (the 1001-1001): 8..15 reaches outside it, 10 fails its retries too. */
	disk_init(true);
	disk.fails_left[9] = -1;
	disk.fails_left[10] = 4;
	ok = run_scoped(8, DISK, 9, 9, UINT64_MAX, (const uint64_t[]){ 9 }, 1, &res) == 0 && disk.writes == 0 &&
	     res.e[0].outcome == REPAIR_NOT_WRITTEN && res.e[0].why == REPAIR_OUTSIDE && holds(10, false) &&
	     res.scanned_first == 9 && res.scanned_last == 9;
	result("scan repair: a physical sector reaching outside the LBAs scanned: not written", ok);
	repair_result_free(&res);

	/* --scan-errors-max: the scan stopped after 9; 12 (a later bad sector) was never read, so 8..15 is not written. */
	disk_init(true);
	disk.fails_left[9] = disk.fails_left[12] = -1;
	ok = run_scoped(8, DISK, 0, 9, 0, (const uint64_t[]){ 9 }, 1, &res) == 0 && disk.writes == 0 &&
	     res.e[0].outcome == REPAIR_NOT_WRITTEN && res.e[0].why == REPAIR_OUTSIDE && holds(12, false);
	result("scan repair: past --scan-errors-max's last sector: not written", ok);
	repair_result_free(&res);

	/* A disk gone from its bus fails every read with EIO: the sector the scan read (30) fails too; nothing written. */
	disk_init(true);
	disk.fails_left[3] = -1;
	disk.dead = true;
	ok = run_scoped(1, DISK, 0, DISK - 1, 30, (const uint64_t[]){ 3, 5 }, 2, &res) == ENXIO && res.done == 0 &&
	     disk.writes == 0 && res.writes == 0;
	result("scan repair: a disk gone (a sector the scan read fails too): ENXIO, nothing written", ok);
	repair_result_free(&res);

	disk_init(true);
	disk.fails_left[60] = -1;
	ok = run(8, 61, (const uint64_t[]){ 60 }, 1, &res) == 0 && disk.write_lba == 56 && disk.write_count == 5 &&
	     res.e[0].outcome == REPAIR_REWRITTEN && holds(59, false) && holds(60, true);
	result("scan repair: the last physical sector, cut short by the device's end, written to the end only", ok);
	repair_result_free(&res);

	disk_init(true);
	disk.fails_left[1] = -1;
	ok = run(1, DISK, (const uint64_t[]){ 1 }, 1, &res) == 0 && disk.write_lba == 1 && disk.write_count == 1 &&
	     holds(0, false) && holds(2, false);
	result("scan repair: physical sector of one logical sector: that sector alone written", ok);
	repair_result_free(&res);

	disk_init(true);
	disk.fails_left[3] = disk.fails_left[20] = -1;
	disk.gone_at = 20;
	ok = run(8, DISK, (const uint64_t[]){ 3, 20 }, 2, &res) == ENXIO && res.done == 1 && disk.writes == 1;
	result("scan repair: a disk gone ends the repair where it was, nothing written there", ok);
	repair_result_free(&res);

	disk_init(true);
	disk.fails_left[3] = -1;
	disk.stop = true;
	ok = run(8, DISK, (const uint64_t[]){ 3 }, 1, &res) == EINTR && res.done == 0 && disk.writes == 0;
	result("scan repair: a signal before a sector: nothing written", ok);
	repair_result_free(&res);

	/*
	 * SCSI's counts, from SPC-4's log page layout (page code, subpage, length; then each
	 * parameter: code, control, length, value) and SBC-3's READ DEFECT DATA (10) header.
	 */
	{
		static const uint8_t page03[] = { 0x03, 0, 0, 0x15,
			0x00, 0x00, 0x02, 0x02, 0x00, 0x09,	/* 0000h: corrected without delay, 9 */
			0x00, 0x05, 0x02, 0x04, 0x00, 0x10, 0x00, 0x00,	/* 0005h: bytes processed */
			0x00, 0x06, 0x02, 0x03, 0x01, 0x00, 0x02 };	/* 0006h: total uncorrected, 3 bytes: 65538 */
		static const uint8_t other[] = { 0x0d, 0, 0, 0x06, 0x00, 0x06, 0x02, 0x02, 0x00, 0x01 };
		static const uint8_t glist_bfi[] = { 0, 0x0c, 0x00, 0x28 };	/* GLISTV, bytes from index: 40 bytes, 5 */
		static const uint8_t glist_short[] = { 0, 0x08, 0x00, 0x0c };	/* short block: 12 bytes, 3 */
		static const uint8_t no_glist[] = { 0, 0x04, 0x00, 0x28 };
		uint64_t n = 0, m = 0, k = 0;

		ok = scsi_decode_uncorrected_errors(page03, sizeof(page03), &n) && n == 65538 &&
		     !scsi_decode_uncorrected_errors(other, sizeof(other), &n) &&
		     !scsi_decode_uncorrected_errors(page03, 18, &n);
		result("scan repair: SCSI log page 03h's total uncorrected errors (0006h), a page cut short refused", ok);
		ok = scsi_decode_grown_defects(glist_bfi, 4, &m) && m == 5 && scsi_decode_grown_defects(glist_short, 4, &k) &&
		     k == 3 && !scsi_decode_grown_defects(no_glist, 4, &n) && !scsi_decode_grown_defects(glist_bfi, 3, &n);
		result("scan repair: READ DEFECT DATA's grown list length in descriptors, by its format; no GLISTV: none", ok);
	}

	printf("end of suite\n");
	return failures != 0;
}
