/*
 * Unit tests of --scan-map's pure parts (ops/scan/scan_map_format.c):
 * the header written and read back, a header not ours or edited refused,
 * another disk, size or range named, the checkpoint line's checksum (a
 * torn or edited line is not taken), and an earlier run's blocks, LBAs and
 * regions put back.  Built and run by tests/scan-map-tests.sh.  Prints
 * "ok unit: NAME" / "FAIL unit: NAME" lines; exit 1 on a failure.
 */
#include <stdio.h>
#include <string.h>

#include "scan_map_format.h"

static int failures;

static void result(const char *name, bool ok)
{
	printf("%s scan-map unit: %s\n", ok ? "ok" : "FAIL", name);
	failures += !ok;
}

static const struct scan_map_id disk = {
	.model = "WDC WD20EARS-00MVWB0", .serial = "WD-WCAZA1234567", .wwid = "naa.50014ee2b1234567", .backing = "",
	.sectors = 3907029168ull, .sector_bytes = 512, .first_lba = 0, .last_lba = 3907029167ull,
};

static void test_header(void)
{
	char buf[2048], why[600];
	struct scan_map_id back, other;
	size_t len = scan_map_header(&disk, buf, sizeof(buf)), at = 0;
	static const char want[] = "hdparm scan map 2\nmodel WDC WD20EARS-00MVWB0\nserial WD-WCAZA1234567\n"
				   "wwid naa.50014ee2b1234567\nbacking \nbacking_inode \npartition \nsample \nsectors 3907029168\nsector_bytes 512\n"
				   "first_lba 0\nlast_lba 3907029167\nblock_sectors 256\nblocks 15261833\nclasses\n";

	/* 3907029168 sectors / 256 = 15261832.69: 15261833 blocks, the last one shorter. */
	result("header: the text as hdparm.8 shows it", len == strlen(want) && strcmp(buf, want) == 0);
	result("header: read back whole, its length where the classes begin",
	       scan_map_parse_header(buf, len, &back, &at) && at == len && !scan_map_differs(&back, &disk, why, sizeof(why)));
	result("header: a file of someone else's is not a map", !scan_map_parse_header("hello\n", 6, &back, &at));
	result("header: cut short is not a map", !scan_map_parse_header(buf, len - 1, &back, &at));
	buf[strlen("hdparm scan map 2\nmodel WDC WD20EARS-00MVWB0\nserial WD-WCAZA1234567\nwwid naa.50014ee2b1234567\n"
		   "backing \nbacking_inode \npartition \nsample \nsectors 3907029168\nsector_bytes 512\nfirst_lba 0\nlast_lba 3907029167\nblock_sectors 256\n"
		   "blocks 1526183")] = '2';
	result("header: a block count that does not fit the range is not ours", !scan_map_parse_header(buf, len, &back, &at));
	other = disk;
	strcpy(other.serial, "WD-WCAZA7654321");
	result("differs: another serial is another disk",
	       scan_map_differs(&disk, &other, why, sizeof(why)) &&
		       strcmp(why, "a map of another disk (its serial is \"WD-WCAZA1234567\", this disk's \"WD-WCAZA7654321\")") == 0);
	other = disk;
	other.sectors--;
	result("differs: another size", scan_map_differs(&disk, &other, why, sizeof(why)) &&
						 strcmp(why, "a map of a disk of 3907029168 sectors of 512 bytes, not 3907029167 of 512") == 0);
	other = disk;
	other.last_lba = 999;
	result("differs: another range", scan_map_differs(&disk, &other, why, sizeof(why)) &&
						  strcmp(why, "a map of LBA 0 to 3907029167, not 0 to 999") == 0);
	other = disk;
	strcpy(other.backing, "/srv/a\nsectors 1");
	len = scan_map_header(&other, buf, sizeof(buf));
	result("header: a newline in a file name cannot forge a line",
	       strstr(buf, "backing /srv/a?sectors 1\n") && scan_map_parse_header(buf, len, &back, &at) &&
		       !scan_map_differs(&back, &other, why, sizeof(why)));
	/* A loop device's image replaced at its path (issue 65, item 20): the same path, another inode. */
	other = disk;
	strcpy(other.backing, "/srv/a.img");
	strcpy(other.backing_inode, "12+0");
	back = other;
	strcpy(back.backing_inode, "13+0");
	result("differs: the same backing path, another inode (an image replaced) is another disk",
	       scan_map_differs(&other, &back, why, sizeof(why)) && strstr(why, "\"/srv/a.img\" is another file now"));
	strcpy(back.backing_inode, "12+1048576");
	result("differs: the same file at another offset is another disk", scan_map_differs(&other, &back, why, sizeof(why)));
	/* A disk nothing names: its sample decides, and a sample of sectors all alike tells nothing. */
	memset(&other, 0, sizeof(other));
	other.sectors = 16384, other.sector_bytes = 512, other.last_lba = 16383;
	result("weak: no model, serial, WWID or backing inode", scan_map_id_weak(&other) && !scan_map_id_weak(&disk));
	strcpy(other.sample, "0123456789abcdef");
	back = other;
	result("weak: the same sample, the same disk", !scan_map_differs(&other, &back, why, sizeof(why)));
	strcpy(back.sample, "0123456789abcdee");
	result("weak: another sample, refused", scan_map_differs(&other, &back, why, sizeof(why)) &&
						     strstr(why, "written since"));
	strcpy(back.sample, SCAN_MAP_SAMPLE_ALIKE);
	strcpy(other.sample, SCAN_MAP_SAMPLE_ALIKE);
	result("weak: samples alike on both sides still refused (nothing tells the disks apart)",
	       scan_map_differs(&other, &back, why, sizeof(why)) && strstr(why, "nothing tells this disk"));
	len = scan_map_header(&other, buf, sizeof(buf));
	result("header: the sample read back", scan_map_parse_header(buf, len, &back, &at) &&
						   strcmp(back.sample, SCAN_MAP_SAMPLE_ALIKE) == 0);
	result("header: a map of format 1 is not parsed as format 2",
	       !scan_map_parse_header("hdparm scan map 1\nmodel \n", 26, &back, &at));
}

static void test_lines(void)
{
	struct scan_map_checkpoint cp = { .next_lba = 4096, .bytes_read = 1966080, .seconds = 12.5, .nbad = 3, .nslow = 1 }, got;
	struct scan_region slow;
	char line[SCAN_MAP_LINE_MAX];
	size_t n = scan_map_checkpoint_line(&cp, line, sizeof(line));
	uint64_t bad;

	result("checkpoint: one line, ending in its newline", n && line[n - 1] == '\n' && !memchr(line, '\n', n - 1));
	line[n - 1] = '\0';
	result("checkpoint: read back", scan_map_parse_line(line, &bad, &slow, &got) == MAP_LINE_CHECKPOINT &&
						got.next_lba == 4096 && got.bytes_read == 1966080 && got.seconds == 12.5 &&
						got.nbad == 3 && got.nslow == 1);
	line[strlen("checkpoint 40")] = '7';	/* 4096 made 4076 */
	result("checkpoint: an edited number fails its checksum", scan_map_parse_line(line, &bad, &slow, &got) == MAP_LINE_DAMAGED);
	result("checkpoint: torn (its end cut) is not taken",
	       scan_map_parse_line("checkpoint 4096 1966080 12.500000 3 1 #1", &bad, &slow, &got) == MAP_LINE_DAMAGED &&
		       scan_map_parse_line("checkpoint 40", &bad, &slow, &got) == MAP_LINE_DAMAGED);
	result("bad and slow lines", scan_map_parse_line("bad 8191", &bad, &slow, &got) == MAP_LINE_BAD && bad == 8191 &&
					     scan_map_parse_line("slow 768 1791 201.5", &bad, &slow, &got) == MAP_LINE_SLOW &&
					     slow.first_lba == 768 && slow.last_lba == 1791 && slow.worst_ms == 201.5);
	result("lines not ours", scan_map_parse_line("bad 81x", &bad, &slow, &got) == MAP_LINE_DAMAGED &&
					 scan_map_parse_line("slow 1791 768 1", &bad, &slow, &got) == MAP_LINE_DAMAGED &&
					 scan_map_parse_line("", &bad, &slow, &got) == MAP_LINE_DAMAGED);
	result("classes: a character each, '.' not read, others not ours",
	       scan_map_class_char(SCAN_LT_5MS) == '0' && scan_map_class_char(SCAN_UNREADABLE) == '6' &&
		       scan_map_char_class('3') == SCAN_LT_150MS && scan_map_char_class('.') == -1 &&
		       scan_map_char_class('7') == -2 && scan_map_char_class('\0') == -2);
}

static void test_restore(void)
{
	struct scan_result r;
	struct scan_region a = { 768, 1023, 160 }, grown = { 768, 1791, 210 }, b = { 4096, 4351, 900 };
	bool ok;

	scan_result_init(&r, 0, 8191, 512);
	scan_restore_block(&r, 0, 256, SCAN_UNREADABLE);
	scan_restore_block(&r, 256, 256, SCAN_LT_5MS);
	scan_restore_block(&r, 512, 256, SCAN_LT_500MS);
	ok = r.blocks_read == 3 && r.next_lba == 768 && r.histogram[SCAN_UNREADABLE] == 1 && r.histogram[SCAN_LT_5MS] == 1 &&
	     r.histogram[SCAN_LT_500MS] == 1 && r.bytes_read == 2 * 256 * 512;
	result("restore: blocks counted in their classes, the unreadable one's bytes not read", ok);
	ok = !scan_restore_bad(&r, 0) && !scan_restore_bad(&r, 255) && r.nbad == 2 && r.bad[1] == 255;
	ok = ok && !scan_restore_slow(&r, &a) && !scan_restore_slow(&r, &grown) && !scan_restore_slow(&r, &b);
	result("restore: LBAs listed; a region logged again as it grew replaces itself",
	       ok && r.nslow == 2 && r.slow[0].last_lba == 1791 && r.slow[0].worst_ms == 210 && r.slow[1].first_lba == 4096);
	/* A block read after a restored slow region, slow too: merged into it, as one scan would. */
	ok = scan_note_block(&r, 4352, 256, 300, false) == 0 && r.nslow == 2 && r.slow[1].last_lba == 4607 &&
	     r.slow[1].worst_ms == 900;
	result("restore: a slow block after a restored region joins it", ok);
	scan_result_free(&r);
}

int main(void)
{
	test_header();
	test_lines();
	test_restore();
	return failures != 0;
}
