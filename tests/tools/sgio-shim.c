/*
 * LD_PRELOAD test double for ioctl(): records every SG_IO request and
 * answers it like a SAT layer would, so the exact command bytes hdparm
 * sends can be checked without a drive.
 *
 *   SHIM_LOG=FILE       append "cdb: .." (and "data: .." for writes) per request
 *   SHIM_IDENTIFY=FILE  IDENTIFY page (--Istdout hex) returned for ECh/A1h
 *   SHIM_SENSE=fixed|late|descriptor   format of the sense data (default descriptor);
 *                       "late" is the fixed format of older kernels, registers from byte 8
 *   SHIM_REPLY=ok|abort|medium|short|nosense|timeout   how commands end (default ok);
 *                       abort@XX: ATA command XX (hex) alone ends ABRT
 *   SHIM_REPLY=sense    CHECK CONDITION with SHIM_KEY, SHIM_ASC, SHIM_ASCQ,
 *                       SHIM_STATUS, SHIM_ERROR; SHIM_SENSE_LEN cuts the sense short
 *   SHIM_COUNT=N, SHIM_LBA=N   registers returned when asked (CK_COND)
 *   SHIM_LOGS=DIR       READ LOG (DMA) EXT and SMART READ LOG of log XX answer DIR/XX.hex (bytes in
 *                       hex, pages one after another); other logs read as 5Ah bytes; SMART READ
 *                       DATA answers DIR/smart.hex.  NVMe Get Log Page of log XX answers
 *                       DIR/nvme-XX.hex, SCSI LOG SENSE of page XX DIR/scsi-XX.hex (subpage YY:
 *                       DIR/scsi-XX-YY.hex; as long as the
 *                       file: a short page is short), READ DEFECT DATA (10) DIR/scsi-defects.hex,
 *                       where the file is there (DIR/zero/NAME.hex first for /dev/zero's, and so on;
 *                       DIR/zero/identify.hex its IDENTIFY, where SHIM_IDENTIFY is set).
 *                       SMART READ ATTRIBUTE THRESHOLDS answers DIR/thresholds.hex; SMART RETURN
 *                       STATUS says passed (LBA 23:8 C24Fh), or a threshold exceeded (2CF4h) where
 *                       DIR/smart-failing is there; with DIR/selftest-status (hex bytes), successive
 *                       SMART READ DATA answers say those self-test execution statuses (byte 363:
 *                       F3h running, 30% left; 00h done), the checksum made good, the last one repeating
 *                       SET FEATURES EPC (4Ah) changes DIR/08.hex, the Power Conditions log,
 *                       as a drive would (timers, enabled and saved bits, restore), and
 *                       enable/disable word 120 bit 7 of the SHIM_IDENTIFY file;
 *                       SHIM_EPC_IDLE=1: an IDLE's timer (1-240: 5 s units) sets Standby_z;
 *                       with EPC enabled, SET FEATURES enable APM (05h) is aborted
 *   SHIM_LOG_DEVICE=1   start each logged line with the device it went to
 *   (SHIM_LOG=FILE also writes FILE.kernel: "ioctl: BLKRRPART", "sysfs write: PATH", in order)
 *   SHIM_NVME=CTRL.hex,NS.hex   answer as an NVMe controller with one namespace:
 *                       Identify from those pages (SHIM_NVME_NSZE=N overrides the
 *                       namespace size), I/O commands logged as "nvme-io: OPC NSID
 *                       CDW10 CDW11" and, for writes, "data:" with every byte sent;
 *                       NVME_IOCTL_ID says namespace 1.  Admin commands other than Identify
 *                       are logged as "nvme-admin: OPC NSID CDW10 CDW11" (dwords little-endian);
 *                       after a Firmware Commit (10h) to slot S, the Firmware Slot log (03h)
 *                       says S holds 8.0.1 and runs after the next reset (AFI bits 6:4)
 *   SHIM_NVME_SANICAP=X, SHIM_NVME_OACS=X, SHIM_NVME_FNA=X   Identify Controller's SANICAP,
 *                       OACS and FNA (hex) instead of the page's; SHIM_NVME_FLBAS=X and
 *                       SHIM_NVME_DPS=X, SHIM_NVME_DPC=X: Identify Namespace's FLBAS, DPS and DPC
 *   SHIM_NVME_SANITIZE=P:S,P:S   successive Sanitize Status logs (81h): SPROG P and SSTAT S
 *                       (hex); the last one repeats; SCDW10 the last Sanitize's (02h before
 *                       any), estimates: overwrite none (FFFFFFFFh), block erase 120 s,
 *                       crypto erase 5 s
 *   SHIM_NVME_TEMP=K    the SMART / Health log (02h) says composite temperature K kelvin
 *                       (the log's other bytes, and a USB bridge tunnelling NVMe: sgio-shim-snt.c)
 *   SHIM_NVME_FAIL=XX   admin opcode XX (hex) ends with NVMe status 0002h, invalid field;
 *                       io:XX the same for I/O opcode XX
 *   SHIM_NVME_DELAY=XX  admin opcode XX (hex) takes SHIM_DELAY_MS ms
 *                       A Format NVM (80h) changes what Identify Namespace says after it (FLBAS, DPS,
 *                       the sizes in the new blocks), and BLKSSZGET answers the new block size (512
 *                       before; SHIM_NVME_KERNEL_STALE=1: 512 after too, a kernel that did not see it)
 *   SHIM_NVME_PS=N      Get Features Power Management says power state N
 *   SHIM_NVME_APST=T:S,T:S   Get Features APST says enabled, with these entries from PS0 on
 *                       (idle time T ms, then state S); without it, disabled
 *   SHIM_DISK_IMAGE=FILE   an O_DIRECT open of /dev/null opens FILE (read-only), a block device
 *                       for fstat (SHIM_BLOCK_DEV) with BLKGETSIZE64 its size and BLKSSZGET 512;
 *                       SHIM_DISK_IMAGE_AFTER=FILE: what it opens once an erase was accepted (NVMe
 *                       Format NVM or Sanitize, ATA SANITIZE erase or SECURITY ERASE UNIT, SCSI
 *                       SANITIZE): the erase's work
 *   SHIM_NVME_NSID=N    NVME_IOCTL_ID says namespace N (default 1)
 *   SHIM_SANITIZE=C:L,C:L,abort:R   successive SANITIZE STATUS EXT answers: COUNT C and
 *                       LBA L (hex), or ABRT with LBA 7:0 = R; the last one repeats
 *   SHIM_DELAY_MS=N, SHIM_DELAY_CMD=XX   ATA command XX (hex) takes N ms; XX@PATH: only on the
 *                       device PATH (many disks at once: one disk slower than the others);
 *                       SHIM_DELAY_MS=until:FILE: it is held until FILE exists (a gate the test opens)
 *   SHIM_KEEP_FEATURES=1   a SET FEATURES that succeeds is written into the SHIM_IDENTIFY
 *                       file (APM, write cache, look-ahead, acoustic level), so IDENTIFY
 *                       after it, in this process or a later one, says what was set
 *   SHIM_BOOTTIME_JUMP=S[,J]   CLOCK_BOOTTIME leaps J seconds (default an hour) ahead S seconds
 *                       after it is first read (CLOCK_MONOTONIC does not): a suspend and resume;
 *                       the disk then keeps its power state as a real one: STANDBY IMMEDIATE
 *                       puts it in standby, CHECK POWER MODE says so (COUNT 00h, else FFh), and
 *                       the resume spins it up
 *   SHIM_REAL_BLOCK=1   the block layer's read-ahead and read-only ioctls go to the kernel
 *                       (a loop device keeps them), where others fail with ENOTTY
 *   SHIM_GEO_START=N    HDIO_GETGEO answers with start N (the partition's first
 *                       sector, as sd and virtio-blk say it); without it, ENOTTY
 *   SHIM_REPLY=noregs   a USB bridge that ignores CK_COND: GOOD status and no sense
 *   SHIM_SCSI=1         a SCSI disk without a SAT layer (a SAS drive): SG_GET_VERSION_NUM
 *                       answers, ATA_16 and ATA_12 are refused (ILLEGAL REQUEST, invalid
 *                       command operation code), and it answers INQUIRY (VPD 00h, 80h, 83h,
 *                       B0h, B1h, B2h), READ CAPACITY (16), MODE SENSE (10) of the caching
 *                       page and the Read-Write Error Recovery page (RECOVERY TIME LIMIT 7000 ms,
 *                       changeable; MODE SELECT sets it for the process), REQUEST SENSE; other
 *                       commands end GOOD.  Answers follow SPC-4
 *                       and SBC-3 (an 8 TB SAS disk, 512-byte logical and 4096-byte physical
 *                       blocks, 7200 rpm, 3.5 inch, thin provisioned).
 *   SHIM_SCSI=sat       the same SCSI face, but a USB bridge's with a SAT layer: ATA PASS-THROUGH reaches
 *                       the ATA double behind it (SHIM_IDENTIFY, ...); more words, comma-separated:
 *                       "nolbpu" VPD B2h says LBPU 0, "nolbpme" READ CAPACITY (16) says LBPME 0,
 *                       "hang16" READ CAPACITY (16) times out, "hangata" ATA PASS-THROUGH (85h, A1h) does,
 *                       "hangb2" INQUIRY of VPD page B2h does
 *   SHIM_REPLY=zeros|nosense|aborted   with SHIM_SCSI: a USB bridge whose SAT layer answers
 *                       ATA PASS-THROUGH with nothing: GOOD and data of zeros, CHECK CONDITION
 *                       without sense data, or ABORTED COMMAND without ATA registers
 *   SHIM_SCSI_LACK=80,b1   VPD pages it does not have (also left out of page 00h)
 *   SHIM_SCSI_PROT=T    READ CAPACITY (16) says formatted with protection information type T (1-3);
 *                       SHIM_SCSI_PI_EXP=E its P_I_EXPONENT
 *   SHIM_SCSI_NOTHIN=1  not thin provisioned (LBPME 0, no VPD B2h)
 *   SHIM_SCSI_POWER=1   it has the power condition mode page (1Ah); =epc: the whole page
 *                       of a disk with five conditions (see power_model()); SHIM_SCSI_BMS=1:
 *                       the Background Control page (1Ch/01h) as well
 *   SHIM_SCSI_FIXED_DRA=1  its caching page's changeable values leave DRA out (as QEMU's scsi-hd)
 *   SHIM_SCSI_NO_CHANGEABLE=1  MODE SENSE of the changeable values is refused (invalid field in CDB)
 *   SHIM_SCSI_STATE=ASCQ   REQUEST SENSE answers NO SENSE, "low power condition on" (5Eh) and
 *                       this ASCQ; "stopped": NOT READY, initializing command required (also
 *                       without SHIM_SCSI: a SAT layer answers REQUEST SENSE)
 *   SHIM_SCSI_SERIAL=TEXT  the unit serial number (VPD 80h); SHIM_SCSI_SERIAL_LEN=N: its PAGE
 *                       LENGTH byte says N whatever the text (the page is padded with 'S')
 *   SHIM_SCSI_B0_LONG=1 Block Limits says PAGE LENGTH 0100h (bytes 2-3), and is that long
 *   SHIM_SCSI_UNMAP=L,D Block Limits' MAXIMUM UNMAP LBA COUNT L (400000h) and MAXIMUM UNMAP
 *                       BLOCK DESCRIPTOR COUNT D (2); either may be left out ("4", ",0")
 *   SHIM_SCSI_DEVSPEC=N the mode parameter header's DEVICE-SPECIFIC PARAMETER (WP 80h, DPOFUA 10h)
 *   SHIM_SCSI_CACHING_CUT=N  only the first N bytes of the caching page arrive (the resid says
 *                       so), though its header and PAGE LENGTH claim all 20
 *   SHIM_SCSI_READ_RESID=N  READ (16) ends GOOD with N bytes not transferred
 *   SHIM_SCSI_TEMPERATURE=C,R  LOG SENSE answers the supported pages (00h: 00h, 0Dh) and the
 *                       Temperature page (0Dh): temperature C, reference R (255: no reading);
 *                       without it LOG SENSE ends ILLEGAL REQUEST, invalid field in CDB
 *   SHIM_SCSI_SANITIZE=1,2,3  the SANITIZE service actions it has (hex; 1Fh exit failure mode);
 *                       others end ILLEGAL REQUEST, invalid field in CDB; without it SANITIZE
 *                       is an invalid opcode.  REPORT SUPPORTED OPERATION CODES (one command)
 *                       says so (SUPPORT 011b or 001b); SHIM_SCSI_NO_RSOC=1 refuses that command
 *   SHIM_SCSI_CONTROL=B2,B5  MODE SENSE answers the Control mode page (0Ah, SPC-4 7.5.8) with
 *                       bytes 2 and 5 (hex), the same for current, changeable, default, saved
 *   SHIM_SCSI_FORMAT=S  a disk that formats (SBC-3 FORMAT UNIT) in S seconds, see format_model();
 *                       SHIM_SCSI_BLOCK_LEN=N its block length before (512); SHIM_SCSI_PROTECT=1
 *                       INQUIRY's PROTECT bit; SHIM_SCSI_FORMAT_FAIL=1 the format fails half way;
 *                       SHIM_SCSI_LENGTHS=512,4096 MODE SELECT refuses other block lengths;
 *                       SHIM_SCSI_B4=LEN:M,...  VPD B4h lists those lengths, M the T3PS..T0PS bits (hex);
 *                       SHIM_SCSI_SPT=N  the Extended INQUIRY Data page (86h) is listed, SPT N (0-7)
 *   SHIM_TCG=FILE       the disk answers IF-RECV (ATA TRUSTED RECEIVE 5Ch/5Dh, SCSI SECURITY PROTOCOL
 *                       IN A2h, NVMe Security Receive 82h): protocol 00h its list (00h, 01h), protocol
 *                       01h ComID 0001h FILE, a Level 0 Discovery dump as sedutil's hexDump prints it
 *                       ("0000 000000a0 00000001 ..."); SHIM_TCG_REFUSE=1: the ATA forms end as libata
 *                       ends them without libata.allow_tpm (ILLEGAL REQUEST, invalid field in CDB)
 *   SHIM_SCSI_READ_DENIED=1  READ (16) ends DATA PROTECT, ACCESS DENIED - NO ACCESS RIGHTS
 *                       (20h/02h), as a locked range does
 *   SHIM_SCSI_SANITIZING=P,P,done   successive REQUEST SENSE answers: NOT READY, sanitize in
 *                       progress (04h/1Bh) with PROGRESS INDICATION P (hex, of 10000h); "done":
 *                       no sense; "failed": MEDIUM ERROR, sanitize command failed (31h/03h)
 *   READ CAPACITY (10) answers FFFFFFFFh where the disk has more blocks than it can say;
 *   MODE SENSE of all pages (3Fh) answers the caching page (and the power condition page)
 *   SHIM_BLKSIZE=N      BLKGETSIZE64 answers N (the kernel's size of the disk), BLKSSZGET 512
 *   SHIM_SYSFS=DIR, SHIM_BLOCK_DEV=MAJ:MIN   /dev/null is that block device (fstat), and the
 *                       paths /sys/... that hdparm opens, lists or reads links of are DIR/sys/...
 *                       (without SHIM_BLOCK_DEV, /dev/null stays the character device 1:3);
 *                       /dev/zero and /dev/full are two more such disks, the next minors, each
 *                       with the same answers and disk image (many disks at once).  MIN is
 *                       900000 or more (a number no host holds; a smaller one ends hdparm, exit
 *                       121), and /sys/dev/block/MAJ:MIN and /sys/dev/char/MAJ:MIN of such
 *                       numbers are DIR's, or not there without SHIM_SYSFS, never the host's
 *                       (fopen, open, opendir, readlink, stat, lstat, access)
 * flock() on /dev/null, /dev/zero, /dev/full or the disk image succeeds and holds nothing (they are
 * every suite's disks at once); on other files it is the kernel's.
 * Other ioctls on the device fail with ENOTTY, as on a plain SCSI disk.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <linux/fiemap.h>
#include <linux/fs.h>
#include <linux/hdreg.h>
#include <linux/loop.h>
#include <linux/nvme_ioctl.h>
#include <time.h>
#include <unistd.h>
#include <scsi/sg.h>
#include <stdbool.h>

static int current_fd = -1;
/* SHIM_BOOTTIME_JUMP: the disk was put in standby and has not been woken since. */
static int disk_in_standby;
/* An erase was accepted: the disk image is SHIM_DISK_IMAGE_AFTER's from now on. */
static int erased;

/* The path the command goes to (current_fd's). */
static void current_path(char *target, size_t size)
{
	char link[64];
	ssize_t len;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", current_fd);
	len = readlink(link, target, size - 1);
	target[len > 0 ? len : 0] = '\0';
}

/* SHIM_DELAY_CMD names command, on every device or ("XX@PATH") on this one. */
static bool delayed(unsigned int command)
{
	const char *spec = getenv("SHIM_DELAY_CMD"), *at;
	char target[256];

	if (!spec || strtoul(spec, NULL, 16) != command)
		return false;
	if (!(at = strchr(spec, '@')))
		return true;
	current_path(target, sizeof(target));
	return strcmp(at + 1, target) == 0;
}

static void log_bytes(FILE *f, const char *what, const unsigned char *p, unsigned int n)
{
	if (getenv("SHIM_LOG_DEVICE")) {
		char target[256];

		current_path(target, sizeof(target));
		fprintf(f, "%s ", target);
	}
	fprintf(f, "%s:", what);
	for (unsigned int i = 0; i < n; i++)
		fprintf(f, " %02x", p[i]);
	fputc('\n', f);
}

static void load_identify(unsigned char *buf, unsigned int len)
{
	const char *path = getenv("SHIM_IDENTIFY");
	FILE *f = NULL;
	unsigned int w;

	/* Many disks: SHIM_LOGS's DIR/zero/identify.hex is /dev/zero's own, where there. */
	if (path && getenv("SHIM_LOGS")) {
		char own[4096], node[256];

		current_path(node, sizeof(node));
		snprintf(own, sizeof(own), "%.3000s/%.64s/identify.hex", getenv("SHIM_LOGS"),
			 strrchr(node, '/') ? strrchr(node, '/') + 1 : node);
		f = fopen(own, "r");
	}
	if (!f && path)
		f = fopen(path, "r");

	memset(buf, 0, len);
	if (!f)
		return;
	for (unsigned int i = 0; i < 256 && 2 * i + 1 < len && fscanf(f, "%4x", &w) == 1; i++) {
		buf[2 * i] = (unsigned char)w;
		buf[2 * i + 1] = (unsigned char)(w >> 8);
	}
	fclose(f);
}

/* Bytes in hex from a file ("od -An -tx1" style), skipping the first skip; the rest of buf is zeroed. */
static int load_bytes(const char *path, unsigned long skip, unsigned char *buf, unsigned int len)
{
	FILE *f = fopen(path, "r");
	unsigned int v;
	unsigned long i = 0;

	if (!f)
		return -1;
	memset(buf, 0, len);
	while (fscanf(f, "%2x", &v) == 1) {
		if (i >= skip && i - skip < len)
			buf[i - skip] = (unsigned char)v;
		i++;
	}
	fclose(f);
	return 0;
}

/* SHIM_LOGS's DIR/NAME.hex into buf (len bytes; the rest zero): 0, or -1 where there is no such file. */
static int log_file(const char *name, unsigned char *buf, unsigned int len, unsigned int *got)
{
	char path[4096], node[256];
	FILE *f;
	unsigned int v, i = 0;

	if (!getenv("SHIM_LOGS"))
		return -1;
	/* Many disks: DIR/zero/NAME.hex is /dev/zero's own, where there. */
	current_path(node, sizeof(node));
	snprintf(path, sizeof(path), "%.3000s/%.64s/%.64s.hex", getenv("SHIM_LOGS"),
		 strrchr(node, '/') ? strrchr(node, '/') + 1 : node, name);
	if (!(f = fopen(path, "r"))) {
		snprintf(path, sizeof(path), "%s/%s.hex", getenv("SHIM_LOGS"), name);
		f = fopen(path, "r");
	}
	if (!f)
		return -1;
	memset(buf, 0, len);
	while (fscanf(f, "%2x", &v) == 1) {
		if (i < len)
			buf[i] = (unsigned char)v;
		i++;
	}
	fclose(f);
	if (got)
		*got = i;
	return 0;
}

static unsigned long long env_num(const char *name, unsigned long long dflt)
{
	const char *v = getenv(name);

	return v ? strtoull(v, NULL, 0) : dflt;
}

/* A delayed command's time: SHIM_DELAY_MS ms, or ("until:FILE") until FILE exists. */
static void hold(void)
{
	const char *ms = getenv("SHIM_DELAY_MS");

	if (ms && strncmp(ms, "until:", 6) == 0) {
		while (access(ms + 6, F_OK) != 0)
			usleep(10000);
		return;
	}
	usleep((useconds_t)env_num("SHIM_DELAY_MS", 0) * 1000);
}

/* ---- EPC: SET FEATURES 4Ah changes the Power Conditions log (SHIM_LOGS/08.hex) and IDENTIFY ---- */

/* The descriptor of a power condition id in the 1024 bytes of log 08h, or -1. */
static int epc_descriptor(unsigned int id)
{
	switch (id) {
	case 0x81: case 0x82: case 0x83: return (int)(id - 0x81) * 64;	/* page 0: Idle_a, _b, _c */
	case 0x01: return 512 + 384;					/* page 1: Standby_y */
	case 0x00: return 512 + 448;					/* Standby_z */
	default: return -1;
	}
}

static void put_le32(unsigned char *p, unsigned int v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static unsigned int get_le32(const unsigned char *p)
{
	return (unsigned int)p[0] | (unsigned int)p[1] << 8 | (unsigned int)p[2] << 16 | (unsigned int)p[3] << 24;
}

/* IDENTIFY word n: its bits in clear cleared, those in set set, in the SHIM_IDENTIFY file, 8 words a line. */
static void identify_word_update(unsigned int n, unsigned int clear, unsigned int set)
{
	const char *path = getenv("SHIM_IDENTIFY");
	unsigned char page[512];
	unsigned int w;
	FILE *f;

	if (!path)
		return;
	load_identify(page, sizeof(page));
	w = (unsigned int)(page[2 * n] | page[2 * n + 1] << 8);
	w = (w & ~clear) | set;
	page[2 * n] = (unsigned char)w, page[2 * n + 1] = (unsigned char)(w >> 8);
	if (!(f = fopen(path, "w")))
		return;
	for (int i = 0; i < 256; i++)
		fprintf(f, "%04x%c", page[2 * i] | page[2 * i + 1] << 8, i % 8 == 7 ? '\n' : ' ');
	fclose(f);
}

/* IDENTIFY word 120 bit 7 (EPC enabled) set or cleared. */
static void epc_identify_enabled(int on)
{
	identify_word_update(120, 0x80, on ? 0x80 : 0);
}

/*
 * SHIM_KEEP_FEATURES=1: a SET FEATURES that succeeds changes what IDENTIFY says
 * after it, as a drive's does (ACS-3 7.45): APM (05h/85h: word 86 bit 3, word 91),
 * write cache (02h/82h: word 85 bit 5), look-ahead (AAh/55h: word 85 bit 6),
 * acoustic level (42h: word 94 bits 7:0).
 */
static void keep_feature(unsigned int feature, unsigned int count)
{
	switch (feature) {
	case 0x05: identify_word_update(86, 0, 0x08); identify_word_update(91, 0xff, count); break;
	case 0x85: identify_word_update(86, 0x08, 0); break;
	case 0x02: identify_word_update(85, 0, 0x20); break;
	case 0x82: identify_word_update(85, 0x20, 0); break;
	case 0xaa: identify_word_update(85, 0, 0x40); break;
	case 0x55: identify_word_update(85, 0x40, 0); break;
	case 0x42: identify_word_update(94, 0xff, count); break;
	default: break;
	}
}

/* What a SET FEATURES EPC (LBA: subcommand and bits, COUNT: the condition) or an IDLE with a timer does. */
static void epc_update(unsigned int lba, unsigned int count, int idle_timer)
{
	char path[512];
	unsigned char log[1024];
	unsigned int sub = lba & 0xf, flag_bit;
	FILE *f;

	if (!getenv("SHIM_LOGS"))
		return;
	if (!idle_timer && (sub == 4 || sub == 5)) {
		epc_identify_enabled(sub == 4);
		return;
	}
	snprintf(path, sizeof(path), "%s/08.hex", getenv("SHIM_LOGS"));
	if (load_bytes(path, 0, log, sizeof(log)))
		return;
	for (unsigned int id = 0; id < 0x100; id++) {
		int at = epc_descriptor(id);
		unsigned char *d;

		if (at < 0 || (count != 0xff && count != id))
			continue;
		d = log + at;
		if (idle_timer) {	/* an IDLE command's timer sets Standby_z (ACS-3 4.9.2) */
			put_le32(d + 12, lba);
			d[1] |= 0x04;
		} else if (sub == 2 || sub == 3) {	/* set timer, set state: ENABLE bit 5, SAVE bit 4 */
			if (sub == 2)
				put_le32(d + 12, (lba >> 8 & 0xffff) * ((lba & 0x80) ? 600 : 1));
			d[1] = (unsigned char)((lba & 0x20) ? d[1] | 0x04 : d[1] & ~0x04);
			if (lba & 0x10) {
				put_le32(d + 8, get_le32(d + 12));
				d[1] = (unsigned char)((d[1] & 0x04) ? d[1] | 0x08 : d[1] & ~0x08);
			}
		} else if (sub == 0) {	/* restore: DEFAULT bit 6, SAVE bit 4 */
			int from = (lba & 0x40) ? 4 : 8;

			flag_bit = (lba & 0x40) ? 0x10 : 0x08;
			put_le32(d + 12, get_le32(d + from));
			d[1] = (unsigned char)((d[1] & flag_bit) ? d[1] | 0x04 : d[1] & ~0x04);
			if (lba & 0x10) {
				put_le32(d + 8, get_le32(d + 12));
				d[1] = (unsigned char)((d[1] & 0x04) ? d[1] | 0x08 : d[1] & ~0x08);
			}
		}
	}
	if (!(f = fopen(path, "w")))
		return;
	for (unsigned int i = 0; i < sizeof(log); i++)
		fprintf(f, "%02x%c", log[i], i % 16 == 15 ? '\n' : ' ');
	fclose(f);
}

/* Sense data carrying the ATA registers, in the format asked for. */
static unsigned int make_sense(unsigned char *s, unsigned int max, unsigned char key, unsigned char asc,
			       unsigned char ascq, unsigned char status, unsigned char error, int ext)
{
	unsigned long long lba = env_num("SHIM_LBA", 0);
	unsigned int count = (unsigned int)env_num("SHIM_COUNT", 0);
	const char *fmt = getenv("SHIM_SENSE");
	unsigned char b[32];

	memset(b, 0, sizeof(b));
	if (fmt && strcmp(fmt, "late") == 0) {
		b[0] = 0x70;
		b[2] = key;
		b[7] = 10;
		b[8] = error;
		b[9] = status;
		b[10] = 0x40;
		b[11] = (unsigned char)count;
		b[12] = asc;
		b[13] = ascq;
		b[17] = (unsigned char)lba;
	} else if (fmt && strcmp(fmt, "fixed") == 0) {
		b[0] = 0x70;
		b[2] = key;
		b[3] = error;
		b[4] = status;
		b[5] = 0x40;
		b[6] = (unsigned char)count;
		b[7] = 10;
		b[8] = (unsigned char)((ext ? 0x80 : 0) | ((count >> 8) ? 0x40 : 0) | ((lba >> 24) ? 0x20 : 0));
		b[9] = (unsigned char)lba;
		b[10] = (unsigned char)(lba >> 8);
		b[11] = (unsigned char)(lba >> 16);
		b[12] = asc;
		b[13] = ascq;
	} else {
		b[0] = 0x72;
		b[1] = key;
		b[2] = asc;
		b[3] = ascq;
		b[7] = 14;
		b[8] = 0x09;
		b[9] = 0x0c;
		b[10] = ext ? 1 : 0;
		b[11] = error;
		b[12] = (unsigned char)(count >> 8);
		b[13] = (unsigned char)count;
		b[14] = (unsigned char)(lba >> 24);
		b[15] = (unsigned char)lba;
		b[16] = (unsigned char)(lba >> 32);
		b[17] = (unsigned char)(lba >> 8);
		b[18] = (unsigned char)(lba >> 40);
		b[19] = (unsigned char)(lba >> 16);
		b[20] = 0x40;
		b[21] = status;
	}
	if (max > sizeof(b))
		max = sizeof(b);
	memcpy(s, b, max);
	return b[0] == 0x70 ? 18 : 22;
}

static void check_condition(struct sg_io_hdr *io, unsigned char key, unsigned char asc, unsigned char ascq)
{
	unsigned char b[18] = { 0x70, 0, key, 0, 0, 0, 0, 10, 0, 0, 0, 0, asc, ascq };

	io->status = 0x02;
	io->masked_status = 0x01;
	io->driver_status = 0x08;
	memcpy(io->sbp, b, io->mx_sb_len < sizeof(b) ? io->mx_sb_len : sizeof(b));
	io->sb_len_wr = (unsigned char)(io->mx_sb_len < sizeof(b) ? io->mx_sb_len : sizeof(b));
}

/* SHIM_REPLY on the SCSI disk: ATA PASS-THROUGH answered with nothing, as a poor bridge does; 0: refused instead. */
static int scsi_ata_nothing(struct sg_io_hdr *io)
{
	const char *how = getenv("SHIM_REPLY");

	if (how && strcmp(how, "zeros") == 0) {
		if (io->dxfer_direction == SG_DXFER_FROM_DEV)
			memset(io->dxferp, 0, io->dxfer_len);
		return 1;
	}
	if (how && strcmp(how, "nosense") == 0) {
		io->status = 0x02;
		io->masked_status = 0x01;
		io->driver_status = 0x08;
		return 1;
	}
	if (how && strcmp(how, "aborted") == 0) {
		check_condition(io, 0x0b, 0x00, 0x00);
		return 1;
	}
	return 0;
}

static int scsi_lacks(unsigned int page)
{
	const char *lack = getenv("SHIM_SCSI_LACK");
	char want[8];

	if (page == 0xb2 && getenv("SHIM_SCSI_NOTHIN"))
		return 1;
	snprintf(want, sizeof(want), "%02x", page);
	return lack && strstr(lack, want) != NULL;
}

static void put_be(unsigned char *p, unsigned long long v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * (bytes - 1 - i)));
}

/* Block Limits' MAXIMUM UNMAP LBA COUNT and ... BLOCK DESCRIPTOR COUNT: SHIM_SCSI_UNMAP=L,D (either may be left empty). */
static void unmap_limits(unsigned char *page)
{
	const char *v = getenv("SHIM_SCSI_UNMAP");
	const char *comma = v ? strchr(v, ',') : NULL;

	put_be(page + 20, v && *v && *v != ',' ? strtoull(v, NULL, 0) : 0x400000, 4);
	put_be(page + 24, comma && comma[1] ? strtoull(comma + 1, NULL, 0) : 2, 4);
}

/* SANITIZE's service action sa is one SHIM_SCSI_SANITIZE lists (hex, comma-separated). */
static int sanitize_action_supported(unsigned int sa)
{
	const char *list = getenv("SHIM_SCSI_SANITIZE");
	char copy[64], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", list ? list : "");
	for (char *e = strtok_r(copy, ",", &save); e; e = strtok_r(NULL, ",", &save))
		if (strtoul(e, NULL, 16) == sa)
			return 1;
	return 0;
}

/* The next REQUEST SENSE state of SHIM_SCSI_SANITIZING (the last repeats), or NULL. */
static char *next_sanitizing_state(void)
{
	static unsigned int polls;
	static char seq[256], *entries[32];
	static unsigned int n;
	char *save = NULL;

	if (!getenv("SHIM_SCSI_SANITIZING"))
		return NULL;
	if (!n) {
		snprintf(seq, sizeof(seq), "%s", getenv("SHIM_SCSI_SANITIZING"));
		for (char *e = strtok_r(seq, ",", &save); e && n < 32; e = strtok_r(NULL, ",", &save))
			entries[n++] = e;
	}
	if (!n)
		return NULL;
	return entries[polls < n ? polls++ : n - 1];
}

/*
 * SHIM_SCSI_POWER=epc: the power condition mode page (1Ah, SPC-4 7.5.13) of a disk with
 * all five conditions, as current, changeable, default and saved values (MODE SENSE's PC
 * 0-3).  Byte 2 bit 0 STANDBY_Y; byte 3 bit 3 IDLE_C, 2 IDLE_B, 1 IDLE_A, 0 STANDBY_Z;
 * timers (100 ms, big-endian) IDLE_A at 4, STANDBY_Z at 8, IDLE_B at 12, IDLE_C at 16,
 * STANDBY_Y at 20.  Now: Idle_a 2 s and Standby_z 15 min enabled, Idle_b 10 min not
 * enabled, Standby_y 1 h enabled but fixed (not changeable), Idle_c absent (zeros, fixed).
 * Saveable (PS).  MODE SELECT of the page changes the current values, and the saved ones
 * with SP.  SHIM_SCSI_BMS=1: the Background Control page (1Ch/01h, SBC-3 6.4.3) too:
 * EN_BMS on (changeable), EN_PS off, a scan every 24 h, after 500 ms idle, suspended in
 * 100 ms; MODE SELECT changes it.
 */
static unsigned char power_pages[4][40], control_pages[4][16];

static void put_be32_at(unsigned char *p, unsigned long v)
{
	p[0] = (unsigned char)(v >> 24); p[1] = (unsigned char)(v >> 16); p[2] = (unsigned char)(v >> 8); p[3] = (unsigned char)v;
}

static void power_model(void)
{
	/* byte 2, byte 3, then the timers of Idle_a, Standby_z, Idle_b, Idle_c, Standby_y */
	static const unsigned long values[4][7] = {
		{ 0x01, 0x03, 20, 9000, 6000, 0, 36000 },		/* current */
		{ 0x00, 0x07, 0xffffffff, 0xffffffff, 0xffffffff, 0, 0 },	/* changeable */
		{ 0x01, 0x01, 20, 18000, 6000, 0, 36000 },		/* default */
		{ 0x01, 0x03, 20, 12000, 6000, 0, 36000 },		/* saved */
	};
	static int done;

	if (done++)
		return;
	for (int pc = 0; pc < 4; pc++) {
		unsigned char *p = power_pages[pc], *c = control_pages[pc];

		p[0] = 0x9a; p[1] = 0x26;
		p[2] = (unsigned char)values[pc][0]; p[3] = (unsigned char)values[pc][1];
		for (int t = 0; t < 5; t++)
			put_be32_at(p + 4 + 4 * t, values[pc][2 + t]);
		c[0] = 0xdc; c[1] = 0x01; c[3] = 0x0c;
		if (pc == 1) {
			c[4] = 0x01;
			continue;
		}
		c[4] = 0x01;
		c[7] = 24;
		c[10] = 0x01; c[11] = 0xf4;
		c[13] = 100;
	}
}

/* The Read-Write Error Recovery page's RECOVERY TIME LIMIT (ms), which MODE SELECT changes. */
static unsigned int recovery_ms = 7000;

/* MODE SELECT (10) of the power condition, background control or error recovery page: the model takes it. */
static void power_model_select(const unsigned char *cdb, const unsigned char *data, unsigned int len)
{
	unsigned int at = 8 + (data[6] << 8 | data[7]);

	power_model();
	if (at + 2 > len)
		return;
	if ((data[at] & 0x3f) == 0x01 && at + 12 <= len) {
		recovery_ms = (unsigned int)(data[at + 10] << 8 | data[at + 11]);
	} else if ((data[at] & 0x3f) == 0x1a && at + 40 <= len) {
		memcpy(power_pages[0] + 2, data + at + 2, 38);
		if (cdb[1] & 1)
			memcpy(power_pages[3] + 2, data + at + 2, 38);
	} else if ((data[at] & 0x3f) == 0x1c && data[at + 1] == 0x01 && at + 16 <= len) {
		memcpy(control_pages[0] + 4, data + at + 4, 12);
		if (cdb[1] & 1)
			memcpy(control_pages[3] + 4, data + at + 4, 12);
	}
}

/*
 * SHIM_SCSI_FORMAT=S: the disk's format (SBC-3 5.3, 6.4.2).  MODE SELECT's
 * block descriptor names the next block length; FORMAT UNIT takes it, with
 * the protection type FMTPINFO and PROTECTION FIELD USAGE give (SBC-3
 * table 38: 10b type 1, 11b with PFU 0 type 2, with PFU 1 type 3), and runs
 * S seconds (with IMMED in the background).  Meanwhile REQUEST SENSE says
 * NOT READY, FORMAT IN PROGRESS (04h/04h) with the progress, and other
 * commands but INQUIRY end so.  The medium keeps its bytes: blocks =
 * SHIM_SCSI_BLOCKS x 512 / length.  SHIM_SCSI_FORMAT_FAIL=1: it fails at
 * S/2, and then REQUEST SENSE says MEDIUM ERROR, FORMAT COMMAND FAILED
 * (31h/01h), reads MEDIUM FORMAT CORRUPTED (31h/00h).
 */
static struct {
	int ready, failed;
	unsigned long len, next_len;
	unsigned int prot, next_prot;
	double started;	/* 0: none running */
} fmt;

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void format_model(void)
{
	if (fmt.ready++)
		return;
	fmt.len = fmt.next_len = env_num("SHIM_SCSI_BLOCK_LEN", 512);
	fmt.prot = (unsigned int)env_num("SHIM_SCSI_PROT", 0);
}

/* 1: a format runs now, *progress of 65536 done. */
static int format_running(unsigned int *progress)
{
	double s = (double)env_num("SHIM_SCSI_FORMAT", 0), t;

	format_model();
	if (!fmt.started)
		return 0;
	if (getenv("SHIM_SCSI_FORMAT_FAIL"))
		s /= 2;
	t = now_s() - fmt.started;
	if (t < s) {
		*progress = (unsigned int)(t / s * 65536);
		return 1;
	}
	fmt.started = 0;
	if (getenv("SHIM_SCSI_FORMAT_FAIL")) {
		fmt.failed = 1;
	} else {
		fmt.len = fmt.next_len;
		fmt.prot = fmt.next_prot;
	}
	return 0;
}

static void not_ready_formatting(struct sg_io_hdr *io, unsigned int progress)
{
	unsigned char *b = io->sbp;

	check_condition(io, 0x02, 0x04, 0x04);
	/* SKSV and the PROGRESS INDICATION, where the sense buffer has room for them. */
	if (io->sb_len_wr >= 18) {
		b[15] = 0x80;
		b[16] = (unsigned char)(progress >> 8);
		b[17] = (unsigned char)progress;
	}
}

/* SHIM_SCSI_LENGTHS lists len (or is not set). */
static int length_allowed(unsigned long len)
{
	const char *list = getenv("SHIM_SCSI_LENGTHS");
	char copy[128], *save = NULL;

	if (!list)
		return 1;
	snprintf(copy, sizeof(copy), "%s", list);
	for (char *e = strtok_r(copy, ",", &save); e; e = strtok_r(NULL, ",", &save))
		if (strtoul(e, NULL, 10) == len)
			return 1;
	return 0;
}

/* MODE SELECT's block descriptor (short, or long with LONGLBA): the length the next format takes. */
static int format_select(const unsigned char *data, unsigned int len)
{
	unsigned int bdlen = len >= 8 ? (unsigned int)(data[6] << 8 | data[7]) : 0;
	unsigned long want;

	format_model();
	if (bdlen < 8 || len < 8 + bdlen)
		return 1;
	if (data[4] & 1)
		want = (unsigned long)data[8 + 12] << 24 | (unsigned long)data[8 + 13] << 16 | data[8 + 14] << 8 | data[8 + 15];
	else
		want = (unsigned long)data[8 + 5] << 16 | data[8 + 6] << 8 | data[8 + 7];
	if (!length_allowed(want))
		return 0;
	fmt.next_len = want;
	return 1;
}

/* FORMAT UNIT: 1 started (or done), 0 refused (a protection type without PROTECT). */
static int format_start(const unsigned char *cdb, const unsigned char *data, unsigned int len)
{
	unsigned int fpi = cdb[1] >> 6, pfu = 0, immed = 0;

	format_model();
	if ((cdb[1] & 0x10) && data && len >= 4) {
		pfu = data[0] & 7;
		immed = data[1] & 0x02;
	}
	if (fpi && !getenv("SHIM_SCSI_PROTECT"))
		return 0;
	fmt.next_prot = fpi < 2 ? 0 : fpi == 2 ? 1 : pfu == 0 ? 2 : 3;
	fmt.failed = 0;
	fmt.started = now_s();
	if (!immed) {
		unsigned int p;

		while (format_running(&p))
			usleep(100000);
	}
	return 1;
}

/*
 * The drive's side of a TCG session (SHIM_TCG): IF-SEND of a ComPacket to
 * protocol 01h, a ComID other than 0001h, is read for its method (the
 * SubPacket's first tokens: CALL, the invoking UID, the method UID) and
 * the answer is kept for the next IF-RECV there:
 *   Properties      CALL SM Properties [ [ {MaxComPacketSize 2048} ] ] and status 0
 *   StartSession    SyncSession [ HSN TSN ], where its HostChallenge is SHIM_TCG_PSID; else
 *                   status NOT_AUTHORIZED (SHIM_TCG_START_STATUS=X: that status instead)
 *   Revert          in the session: status SHIM_TCG_REVERT_STATUS (0); on success the disk
 *                   reads as erased (SHIM_DISK_IMAGE_AFTER) unless SHIM_TCG_REVERT_KEEPS=1, and
 *                   Level 0 Discovery is SHIM_TCG_AFTER where set
 *   END OF SESSION  nothing to answer
 * The TPer session number is 0x1001.  SHIM_TCG_SILENT=Properties, StartSession
 * or Revert: that call is taken and never answered (IF-RECV keeps saying
 * nothing is outstanding), and the wait for it is played in no time: from
 * then on usleep() returns at once and moves CLOCK_MONOTONIC on by as much.
 */
static unsigned char tcg_reply[2048];
static unsigned int tcg_reply_len;
static unsigned long long silent_us;	/* CLOCK_MONOTONIC's lead, once a call went unanswered */
static int tcg_unanswered;

/* SHIM_TCG_SILENT names this call: no answer is kept, and the clock runs in usleep(). */
static int tcg_silent(const char *method)
{
	const char *silent = getenv("SHIM_TCG_SILENT");

	if (!silent || strcmp(silent, method) != 0)
		return 0;
	tcg_unanswered = 1;
	tcg_reply_len = 0;
	return 1;
}
static int tcg_reverted;
static const unsigned char tcg_sm_uid[8] = { 0, 0, 0, 0, 0, 0, 0, 0xff };

static void tcg_reply_set(unsigned int comid, unsigned int tsn, unsigned int hsn, const unsigned char *data, unsigned int n)
{
	unsigned int sub = n, pkt = 12 + ((n + 3) & ~3u), com = 24 + pkt;

	memset(tcg_reply, 0, sizeof(tcg_reply));
	tcg_reply[4] = (unsigned char)(comid >> 8);
	tcg_reply[5] = (unsigned char)comid;
	for (int b = 0; b < 4; b++) {
		tcg_reply[16 + b] = (unsigned char)(com >> (24 - 8 * b));
		tcg_reply[20 + b] = (unsigned char)(tsn >> (24 - 8 * b));
		tcg_reply[24 + b] = (unsigned char)(hsn >> (24 - 8 * b));
		tcg_reply[40 + b] = (unsigned char)(pkt >> (24 - 8 * b));
		tcg_reply[52 + b] = (unsigned char)(sub >> (24 - 8 * b));
	}
	memcpy(tcg_reply + 56, data, n);
	tcg_reply_len = 20 + com;
}

/* An atom of bytes at p (short or medium): its data and length; 0 where p holds none. */
static const unsigned char *tcg_atom(const unsigned char *p, const unsigned char *end, unsigned int *n)
{
	if (p < end && (*p & 0xf0) == 0xa0) {
		*n = *p & 0x0f;
		p += 1;
	} else if (p + 1 < end && (*p & 0xf8) == 0xd0) {
		*n = (unsigned int)((*p & 7) << 8 | p[1]);
		p += 2;
	} else {
		return NULL;
	}
	return p + *n <= end ? p : NULL;
}

/* A method's answer closed at r[k]: its results list ended, END OF DATA, the status list [ status 0 0 ]. */
static unsigned int tcg_results_end(unsigned char *r, unsigned int k, unsigned int status)
{
	static const unsigned char tail[] = { 0xf1, 0xf9, 0xf0, 0x00, 0x00, 0x00, 0xf1 };

	memcpy(r + k, tail, sizeof(tail));
	r[k + 3] = (unsigned char)status;
	return k + (unsigned int)sizeof(tail);
}

static int tcg_send(unsigned int protocol, unsigned int comid, const unsigned char *buf, unsigned int len)
{
	const unsigned char *d = buf + 56, *end;
	unsigned int hsn = 0, n, status;
	unsigned char r[64];
	unsigned int k = 0;
	const char *psid = getenv("SHIM_TCG_PSID");

	if (!getenv("SHIM_TCG") || protocol != 1 || comid == 1 || len < 56)
		return 0;
	n = (unsigned int)(buf[52] << 24 | buf[53] << 16 | buf[54] << 8 | buf[55]);
	end = d + (n < len - 56 ? n : len - 56);
	tcg_reply_len = 0;
	if (d < end && *d == 0xfa)	/* END OF SESSION */
		return 1;
	if (end - d < 19 || d[0] != 0xf8 || d[1] != 0xa8 || d[10] != 0xa8)
		return 1;
	if (memcmp(d + 2, tcg_sm_uid, 8) == 0 && d[18] == 0x01 && tcg_silent("Properties"))
		return 1;
	if (memcmp(d + 2, tcg_sm_uid, 8) == 0 && d[18] == 0x02 && tcg_silent("StartSession"))
		return 1;
	if (d[18] == 0x02 && d[17] == 0x02 && d[14] == 0x06 && tcg_silent("Revert"))
		return 1;
	if (memcmp(d + 2, tcg_sm_uid, 8) == 0 && d[18] == 0x01) {	/* Properties */
		static const unsigned char props[] = { 0xf8, 0xa8, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xa8, 0, 0, 0, 0, 0, 0, 0xff, 0x01,
						       0xf0, 0xf0, 0xf2, 0xd0, 0x10, 'M', 'a', 'x', 'C', 'o', 'm', 'P', 'a', 'c',
						       'k', 'e', 't', 'S', 'i', 'z', 'e', 0x82, 0x08, 0x00, 0xf3, 0xf1, 0xf1,
						       0xf9, 0xf0, 0, 0, 0, 0xf1 };

		tcg_reply_set(comid, 0, 0, props, sizeof(props));
		return 1;
	}
	if (memcmp(d + 2, tcg_sm_uid, 8) == 0 && d[18] == 0x02) {	/* StartSession */
		const unsigned char *p = d + 20, *challenge = NULL;
		unsigned int clen = 0;

		/* HostSessionID: a tiny or short atom. */
		if (p < end && *p < 0x40)
			hsn = *p;
		else if (p < end && (*p & 0xf0) == 0x80)
			for (unsigned int i = 0; i < (*p & 0x0f); i++)
				hsn = hsn << 8 | p[1 + i];
		for (; p + 2 < end; p++)
			if (p[0] == 0xf2 && p[1] == 0x00 && (challenge = tcg_atom(p + 2, end, &clen)))
				break;
		status = getenv("SHIM_TCG_START_STATUS") ? (unsigned int)strtoul(getenv("SHIM_TCG_START_STATUS"), NULL, 16)
			 : psid && challenge && clen == strlen(psid) && memcmp(challenge, psid, clen) == 0 ? 0 : 0x01;
		memcpy(r, d, 19);	/* CALL SM ... */
		r[18] = 0x03;		/* SyncSession */
		k = 19;
		r[k++] = 0xf0;
		if (status == 0) {
			r[k++] = 0x84;
			for (int b = 0; b < 4; b++)
				r[k++] = (unsigned char)(hsn >> (24 - 8 * b));
			r[k++] = 0x82;
			r[k++] = 0x10;
			r[k++] = 0x01;
		}
		k = tcg_results_end(r, k, status);
		tcg_reply_set(comid, 0, 0, r, k);
		return 1;
	}
	if (d[18] == 0x02 && d[17] == 0x02 && d[14] == 0x06) {	/* Revert (0000000600000202) */
		status = (unsigned int)env_num("SHIM_TCG_REVERT_STATUS", 0);
		hsn = (unsigned int)(buf[24] << 24 | buf[25] << 16 | buf[26] << 8 | buf[27]);
		r[k++] = 0xf0;	/* no results */
		k = tcg_results_end(r, k, status);
		tcg_reply_set(comid, 0x1001, hsn, r, k);
		if (status == 0) {
			tcg_reverted = 1;
			if (!getenv("SHIM_TCG_REVERT_KEEPS"))
				erased = 1;
		}
	}
	return 1;
}

/*
 * IF-RECV of protocol and its SP SPECIFIC field (SHIM_TCG): into buf, the
 * rest zero; 0 where the disk has nothing there.  The dump's lines are an
 * offset and up to four groups of 8 hex digits; the text after them is left.
 */
static int tcg_answer(unsigned int protocol, unsigned int sp, unsigned char *buf, unsigned int len)
{
	FILE *f;
	char line[256];

	if (!getenv("SHIM_TCG"))
		return 0;
	memset(buf, 0, len);
	if (protocol == 0 && sp == 0) {
		/* SPC-4 7.7.1: 6 reserved bytes, the list's length, the protocols. */
		unsigned char list[10] = { 0, 0, 0, 0, 0, 0, 0, 2, 0x00, 0x01 };

		memcpy(buf, list, len < sizeof(list) ? len : sizeof(list));
		return 1;
	}
	if (protocol == 1 && sp != 1) {
		/* A session's answer, once; then an empty ComPacket (nothing outstanding). */
		if (tcg_reply_len)
			memcpy(buf, tcg_reply, tcg_reply_len < len ? tcg_reply_len : len);
		else if (len >= 6) {
			buf[4] = (unsigned char)(sp >> 8);
			buf[5] = (unsigned char)sp;
		}
		tcg_reply_len = 0;
		return 1;
	}
	if (protocol != 1 || !(f = fopen(tcg_reverted && getenv("SHIM_TCG_AFTER") ? getenv("SHIM_TCG_AFTER")
								 : getenv("SHIM_TCG"), "r")))
		return protocol == 1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end;
		unsigned long at = strtoul(p, &end, 16);

		if (end == p || *end != ' ')
			continue;
		p = end;
		for (int g = 0; g < 4; g++) {
			unsigned long word;

			while (*p == ' ')
				p++;
			word = strtoul(p, &end, 16);
			if (end - p != 8)
				break;
			for (int b = 0; b < 4; b++)
				if (at + 4 * g + b < len)
					buf[at + 4 * g + b] = (unsigned char)(word >> (24 - 8 * b));
			p = end;
		}
	}
	fclose(f);
	return 1;
}

/* The answers of a SAS disk (SPC-4, SBC-3) to what it is asked; 0: answered. */
static void fake_scsi_disk(struct sg_io_hdr *io, const unsigned char *cdb)
{
	unsigned char *buf = io->dxferp, page[512];
	unsigned int len = io->dxfer_len, n = 0;
	unsigned long long blocks = env_num("SHIM_SCSI_BLOCKS", 15628053168ULL);

	memset(page, 0, sizeof(page));
	format_model();
	blocks = blocks * 512 / fmt.len;
	if (getenv("SHIM_SCSI_FORMAT") && cdb[0] != 0x12 && cdb[0] != 0x03) {
		unsigned int progress;

		if (format_running(&progress)) {
			not_ready_formatting(io, progress);
			return;
		}
		if (fmt.failed && (cdb[0] == 0x88 || cdb[0] == 0x28 || cdb[0] == 0x9e || cdb[0] == 0x25)) {
			check_condition(io, 0x03, 0x31, 0x00);
			return;
		}
	}
	if (cdb[0] == 0x4d || cdb[0] == 0x37) {	/* LOG SENSE, READ DEFECT DATA (10): SHIM_LOGS's file, where there */
		char name[32];
		unsigned int got = 0;

		if (cdb[0] == 0x4d && cdb[3])	/* a subpage: DIR/scsi-XX-YY.hex */
			snprintf(name, sizeof(name), "scsi-%02x-%02x", cdb[2] & 0x3f, cdb[3]);
		else
			snprintf(name, sizeof(name), cdb[0] == 0x37 ? "scsi-defects" : "scsi-%02x", cdb[2] & 0x3f);
		if (log_file(name, buf, len, &got) == 0) {
			io->resid = got < len ? (int)(len - got) : 0;
			return;
		}
	}
	switch (cdb[0]) {
	case 0x85: case 0xa1:	/* ATA PASS-THROUGH: no SAT layer here, or one that gives nothing */
		if (!scsi_ata_nothing(io))
			check_condition(io, 0x05, 0x20, 0x00);
		return;
	case 0x12:
		if (!(cdb[1] & 1)) {
			static const char id[] = "SEAGATE ST8000NM0075    E004";

			page[0] = 0x00;
			page[2] = 0x06;	/* SPC-4 */
			page[3] = 0x12;
			page[4] = 31;
			page[5] = getenv("SHIM_SCSI_PROTECT") ? 0x01 : 0x00;	/* PROTECT */
			memcpy(page + 8, id, 28);
			n = 36;
			break;
		}
		if (scsi_lacks(cdb[2])) {
			check_condition(io, 0x05, 0x24, 0x00);
			return;
		}
		page[1] = cdb[2];
		switch (cdb[2]) {
		case 0x00: {
			static const unsigned char pages[] = { 0x00, 0x80, 0x83, 0x86, 0xb0, 0xb1, 0xb2 };

			for (unsigned int i = 0; i < sizeof(pages); i++)
				if (!scsi_lacks(pages[i]) && (pages[i] != 0x86 || getenv("SHIM_SCSI_SPT")))
					page[4 + page[3]++] = pages[i];
			if (getenv("SHIM_SCSI_B4"))
				page[4 + page[3]++] = 0xb4;
			break;
		}
		case 0x86:	/* Extended INQUIRY Data (SPC-4 7.8.7): 60 bytes, SPT in byte 4 bits 5:3 */
			if (!getenv("SHIM_SCSI_SPT")) {
				check_condition(io, 0x05, 0x24, 0x00);
				return;
			}
			page[3] = 60;
			page[4] = (unsigned char)((env_num("SHIM_SCSI_SPT", 0) & 7) << 3);
			break;
		case 0xb4: {	/* Supported Block Lengths and Protection Types (SBC-4 6.6.7): 8 bytes a length */
			char copy[256], *save = NULL;

			if (!getenv("SHIM_SCSI_B4")) {
				check_condition(io, 0x05, 0x24, 0x00);
				return;
			}
			snprintf(copy, sizeof(copy), "%s", getenv("SHIM_SCSI_B4"));
			for (char *e = strtok_r(copy, ",", &save); e && page[3] < 240; e = strtok_r(NULL, ",", &save)) {
				put_be(page + 4 + page[3], strtoul(e, NULL, 10), 4);
				page[4 + page[3] + 5] = (unsigned char)(strchr(e, ':') ? strtoul(strchr(e, ':') + 1, NULL, 16) : 1);
				page[3] += 8;
			}
			break;
		}
		case 0x80: {
			const char *serial = getenv("SHIM_SCSI_SERIAL") ? getenv("SHIM_SCSI_SERIAL") : "ZA1B2C3D";
			size_t sn = strlen(serial) > 200 ? 200 : strlen(serial);

			page[3] = (unsigned char)env_num("SHIM_SCSI_SERIAL_LEN", sn);
			memset(page + 4, 'S', page[3]);
			memcpy(page + 4, serial, sn);
			break;
		}
		case 0x83:
			/* The logical unit's NAA 5 name, then the SAS target port's (PIV, association 1). */
			page[3] = 24;
			page[4] = 0x01; page[5] = 0x03; page[7] = 8;
			put_be(page + 8, 0x5000c500a1b2c3d4ULL, 8);
			page[16] = 0x61; page[17] = 0x93; page[19] = 8;
			put_be(page + 20, 0x5000c500a1b2c3d5ULL, 8);
			break;
		case 0xb0:
			page[3] = 0x3c;
			if (getenv("SHIM_SCSI_B0_LONG")) {
				page[2] = 0x01;
				page[3] = 0x00;
			}
			unmap_limits(page);
			break;
		case 0xb1:
			page[3] = 0x3c;
			put_be(page + 4, 7200, 2);
			page[7] = 0x02;	/* 3.5 inch */
			break;
		case 0xb2:
			page[3] = 4;
			page[5] = 0x80;	/* LBPU: UNMAP */
			break;
		default:
			check_condition(io, 0x05, 0x24, 0x00);
			return;
		}
		n = 4u + (unsigned int)(page[2] << 8 | page[3]);
		break;
	case 0x25:	/* READ CAPACITY (10) */
		put_be(page, blocks - 1 > 0xffffffffULL ? 0xffffffffULL : blocks - 1, 4);
		put_be(page + 4, fmt.len, 4);
		n = 8;
		break;
	case 0x9e:	/* READ CAPACITY (16) */
		put_be(page, blocks - 1, 8);
		put_be(page + 8, fmt.len, 4);
		/* SHIM_SCSI_PROT=T (or a format): protection type T (1-3): P_TYPE T-1 (bits 3:1), PROT_EN (bit 0). */
		if (fmt.prot)
			page[12] = (unsigned char)((fmt.prot - 1) << 1 | 1);
		page[13] = 3;	/* 8 logical blocks per physical block */
		/* SHIM_SCSI_PI_EXP=E: P_I_EXPONENT (bits 7:4): 2^E protection information intervals a block. */
		page[13] |= (unsigned char)(env_num("SHIM_SCSI_PI_EXP", 0) << 4);
		page[14] = getenv("SHIM_SCSI_NOTHIN") ? 0 : 0x80;
		n = 32;
		break;
	case 0x5a: {	/* MODE SENSE (10) */
		unsigned int code = cdb[2] & 0x3f, pc = cdb[2] & 0xc0, p = 8;

		/* A disk that formats: a block descriptor unless DBD, long where LLBAA asks (SPC-4 7.5.5). */
		if (getenv("SHIM_SCSI_FORMAT") && !(cdb[1] & 0x08)) {
			unsigned int bd = cdb[1] & 0x10 ? 16 : 8;

			if (bd == 16) {
				page[4] = 0x01;	/* LONGLBA */
				put_be(page + 8, blocks, 8);
				put_be(page + 8 + 12, fmt.len, 4);
			} else {
				put_be(page + 8, blocks > 0xffffffffULL ? 0xffffffffULL : blocks, 4);
				put_be(page + 8 + 5, fmt.len, 3);
			}
			page[7] = (unsigned char)bd;
			p += bd;
		}
		if (code == 0x0a && getenv("SHIM_SCSI_CONTROL")) {
			unsigned int b2 = 0, b5 = 0;

			sscanf(getenv("SHIM_SCSI_CONTROL"), "%x,%x", &b2, &b5);
			page[p] = 0x0a; page[p + 1] = 0x0a;
			page[p + 2] = (unsigned char)b2;
			page[p + 5] = (unsigned char)b5;
			page[p + 8] = 0xff; page[p + 9] = 0xff;	/* BUSY TIMEOUT PERIOD: unlimited */
			p += 12;
		} else if (code == 0x01 && (getenv("SHIM_SCSI_FORMAT") || getenv("SHIM_SCSI"))) {
			/* Read-Write Error Recovery (SBC-3 6.4.9): AWRE, ARRE, READ RETRY COUNT 0Bh, RECOVERY
			 * TIME LIMIT (bytes 10-11, ms); changeable AWRE, ARRE and the limit. */
			page[p] = 0x81; page[p + 1] = 0x0a;
			page[p + 2] = 0xc0;
			if (pc != 0x40) {
				page[p + 3] = 0x0b;
				page[p + 10] = (unsigned char)(recovery_ms >> 8);
				page[p + 11] = (unsigned char)recovery_ms;
			} else {
				page[p + 10] = page[p + 11] = 0xff;
			}
			p += 12;
		} else if (code == 0x1a && getenv("SHIM_SCSI_POWER") && strcmp(getenv("SHIM_SCSI_POWER"), "epc") == 0) {
			power_model();
			memcpy(page + p, power_pages[pc >> 6], 40);
			p += 40;
		} else if (code == 0x1c && cdb[3] == 0x01 && getenv("SHIM_SCSI_BMS")) {
			power_model();
			memcpy(page + p, control_pages[pc >> 6], 16);
			p += 16;
		} else if (code == 0x1a && getenv("SHIM_SCSI_POWER")) {
			page[p] = 0x1a; page[p + 1] = 0x26;
			page[p + 3] = 0x01;	/* STANDBY_Z */
			put_be(page + p + 8, 9000, 4);	/* 15 minutes */
			p += 0x28;
		} else if ((code == 0x08 || code == 0x3f) && pc == 0x40 && getenv("SHIM_SCSI_NO_CHANGEABLE")) {
			check_condition(io, 0x05, 0x24, 0x00);
			return;
		} else if (code == 0x08 || code == 0x3f) {
			page[p] = 0x08; page[p + 1] = 0x12;
			if (pc == 0x40) {	/* changeable values */
				page[p + 2] = 0x05;	/* WCE, RCD */
				page[p + 12] = getenv("SHIM_SCSI_FIXED_DRA") ? 0x00 : 0x20;
			} else {
				page[p + 2] = getenv("SHIM_SCSI_WCE") && atoi(getenv("SHIM_SCSI_WCE")) == 0 ? 0x00 : 0x04;
			}
			p += 0x14;
			if (code == 0x3f && getenv("SHIM_SCSI_POWER")) {
				page[p] = 0x1a; page[p + 1] = 0x26;
				p += 0x28;
			}
		} else {
			check_condition(io, 0x05, 0x24, 0x00);
			return;
		}
		page[1] = (unsigned char)(p - 2);
		page[3] = (unsigned char)env_num("SHIM_SCSI_DEVSPEC", 0);
		n = p;
		if (code == 0x08 && getenv("SHIM_SCSI_CACHING_CUT"))
			n = 8 + (unsigned int)env_num("SHIM_SCSI_CACHING_CUT", 20);
		break;
	}
	case 0x55:	/* MODE SELECT (10) */
		if (io->dxfer_direction == SG_DXFER_TO_DEV && io->dxferp) {
			if (getenv("SHIM_SCSI_FORMAT") && !format_select(io->dxferp, io->dxfer_len)) {
				check_condition(io, 0x05, 0x26, 0x00);	/* INVALID FIELD IN PARAMETER LIST */
				return;
			}
			power_model_select(cdb, io->dxferp, io->dxfer_len);
		}
		return;
	case 0xa2:	/* SECURITY PROTOCOL IN (SPC-4 6.30): protocol, SP SPECIFIC, allocation length */
		if (!tcg_answer(cdb[1], (unsigned int)(cdb[2] << 8 | cdb[3]), io->dxferp, io->dxfer_len)) {
			check_condition(io, 0x05, 0x24, 0x00);
			return;
		}
		return;
	case 0xb5:	/* SECURITY PROTOCOL OUT (SPC-4 6.31) */
		if (!tcg_send(cdb[1], (unsigned int)(cdb[2] << 8 | cdb[3]), io->dxferp, io->dxfer_len))
			check_condition(io, 0x05, 0x24, 0x00);
		return;
	case 0x04:	/* FORMAT UNIT */
		if (!getenv("SHIM_SCSI_FORMAT")) {
			check_condition(io, 0x05, 0x20, 0x00);
			return;
		}
		if (!format_start(cdb, io->dxfer_direction == SG_DXFER_TO_DEV ? io->dxferp : NULL, io->dxfer_len))
			check_condition(io, 0x05, 0x24, 0x00);
		return;
	case 0xa3:	/* MAINTENANCE IN: REPORT SUPPORTED OPERATION CODES, one command (SPC-4 6.35) */
		if ((cdb[1] & 0x1f) != 0x0c || getenv("SHIM_SCSI_NO_RSOC")) {
			check_condition(io, 0x05, 0x20, 0x00);
			return;
		}
		/* Only the one-command forms: "all commands" (REPORTING OPTIONS 000b) is an invalid field, not a short list. */
		if (!(cdb[2] & 7)) {
			check_condition(io, 0x05, 0x24, 0x00);
			return;
		}
		page[1] = cdb[3] != 0x48 || sanitize_action_supported(cdb[5]) ? 0x03 : 0x01;	/* SUPPORT */
		page[3] = 10;	/* CDB SIZE */
		n = 14;
		break;
	case 0x4d: {	/* LOG SENSE: the supported pages (00h) and the Temperature page (0Dh), SPC-4 */
		const char *temps = getenv("SHIM_SCSI_TEMPERATURE");
		unsigned int now = 0, ref = 0;

		if (!temps || sscanf(temps, "%u,%u", &now, &ref) != 2 || ((cdb[2] & 0x3f) != 0x00 && (cdb[2] & 0x3f) != 0x0d)) {
			check_condition(io, 0x05, 0x24, 0x00);
			return;
		}
		page[0] = cdb[2] & 0x3f;
		if (page[0] == 0x00) {
			page[3] = 2;
			page[4] = 0x00;
			page[5] = 0x0d;
			n = 6;
		} else {
			/* Parameter 0000h, the temperature, and 0001h, the reference: control 03h, length 2. */
			static const unsigned char params[] = { 0, 0, 3, 2, 0, 0, 0, 1, 3, 2, 0, 0 };

			page[3] = sizeof(params);
			memcpy(page + 4, params, sizeof(params));
			page[9] = (unsigned char)now;
			page[15] = (unsigned char)ref;
			n = 4 + sizeof(params);
		}
		break;
	}
	case 0x48:	/* SANITIZE */
		if (!getenv("SHIM_SCSI_SANITIZE"))
			check_condition(io, 0x05, 0x20, 0x00);
		else if (!sanitize_action_supported(cdb[1] & 0x1f))
			check_condition(io, 0x05, 0x24, 0x00);
		else if ((cdb[1] & 0x1f) != 0x1f)
			erased = 1;
		return;
	case 0x03: {	/* REQUEST SENSE */
		const char *state = getenv("SHIM_SCSI_STATE");
		char *step = next_sanitizing_state();
		unsigned int progress;

		page[0] = 0x70;
		page[7] = 10;
		if (getenv("SHIM_SCSI_FORMAT") && format_running(&progress)) {
			page[2] = 0x02; page[12] = 0x04; page[13] = 0x04;	/* format in progress */
			page[15] = 0x80;
			put_be(page + 16, progress, 2);
		} else if (getenv("SHIM_SCSI_FORMAT") && fmt.failed) {
			page[2] = 0x03; page[12] = 0x31; page[13] = 0x01;	/* format command failed */
		} else if (step && strcmp(step, "failed") == 0) {
			page[2] = 0x03; page[12] = 0x31; page[13] = 0x03;	/* sanitize command failed */
		} else if (step && strcmp(step, "done") != 0) {
			page[2] = 0x02; page[12] = 0x04; page[13] = 0x1b;	/* sanitize in progress */
			page[15] = 0x80;	/* SKSV: the PROGRESS INDICATION follows */
			put_be(page + 16, strtoul(step, NULL, 16), 2);
		} else if (state && strcmp(state, "stopped") == 0) {
			page[2] = 0x02; page[12] = 0x04; page[13] = 0x02;
		} else if (state) {
			page[12] = 0x5e; page[13] = (unsigned char)strtoul(state, NULL, 0);
		}
		n = 18;
		break;
	}
	case 0x88:	/* READ (16): the 5Ah filler, short by SHIM_SCSI_READ_RESID */
		if (getenv("SHIM_SCSI_READ_DENIED")) {
			check_condition(io, 0x07, 0x20, 0x02);
			return;
		}
		io->resid = (int)env_num("SHIM_SCSI_READ_RESID", 0);
		return;
	default:
		return;	/* GOOD; a read gets the 5Ah filler */
	}
	memset(buf, 0, len);
	memcpy(buf, page, n < len ? n : len);
	io->resid = n < len ? (int)(len - n) : 0;
}

/* sgio-shim-snt.c's: a bridge tunnelling NVMe is asked for, its vendor CDB answered, the health log's bytes. */
static int snt_bridge(void);
static int fake_snt(struct sg_io_hdr *io);
static int snt_health(unsigned char *buf, unsigned int len, unsigned int *kelvin);

/* ---- a USB bridge with a SAT layer (issue 66, TRIM over USB): SHIM_SCSI=sat[,nolbpu][,nolbpme][,hang16] ---- */

/* SHIM_SCSI lists word (comma-separated). */
static int usb_bridge_word(const char *word)
{
	char copy[64], *save = NULL;

	snprintf(copy, sizeof(copy), "%s", getenv("SHIM_SCSI") ? getenv("SHIM_SCSI") : "");
	for (char *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save))
		if (strcmp(w, word) == 0)
			return 1;
	return 0;
}

/* "sat": ATA PASS-THROUGH (85h, A1h) goes on to the ATA double behind the bridge; the rest the bridge answers. */
static int usb_bridge_passes(const unsigned char *cdb)
{
	return (cdb[0] == 0x85 || cdb[0] == 0xa1) && usb_bridge_word("sat");
}

/*
 * What the bridge says of itself, over the SAS disk's answers: "nolbpu", its Logical Block Provisioning page
 * (VPD B2h) says LBPU 0 (byte 5 bit 7, SBC-3 6.6.4); "nolbpme", READ CAPACITY (16) says LBPME 0 (byte 14 bit 7);
 * "hang16", READ CAPACITY (16) times out.
 */
static void usb_bridge_answer(struct sg_io_hdr *io, const unsigned char *cdb)
{
	unsigned char *buf = io->dxferp;

	if (cdb[0] == 0x12 && (cdb[1] & 1) && cdb[2] == 0xb2 && io->dxfer_len > 5 && usb_bridge_word("nolbpu"))
		buf[5] &= 0x7f;
	if (cdb[0] == 0x9e && io->dxfer_len > 14 && usb_bridge_word("nolbpme"))
		buf[14] &= 0x7f;
	if (cdb[0] == 0x12 && (cdb[1] & 1) && cdb[2] == 0xb2 && usb_bridge_word("hangb2"))
		io->host_status = 0x03;	/* DID_TIME_OUT */
	if (cdb[0] == 0x9e && usb_bridge_word("hang16"))
		io->host_status = 0x03;	/* DID_TIME_OUT */
}

/* SHIM_LOGS/selftest-status: the next self-test execution status of the sequence into SMART READ DATA, its checksum made good. */
static void self_test_status(unsigned char *data, unsigned int len)
{
	static unsigned int polls;
	unsigned char seq[32];
	char path[512];
	unsigned int n = 0;
	unsigned char sum = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/selftest-status", getenv("SHIM_LOGS"));
	if (len < 512 || !(f = fopen(path, "r")))
		return;
	while (n < sizeof(seq) && fscanf(f, "%2hhx", &seq[n]) == 1)
		n++;
	fclose(f);
	if (!n)
		return;
	data[363] = seq[polls < n ? polls : n - 1];
	polls++;
	for (int i = 0; i < 511; i++)
		sum = (unsigned char)(sum + data[i]);
	data[511] = (unsigned char)(0x100 - sum);
}

static int fake_sg_io(struct sg_io_hdr *io)
{
	const unsigned char *cdb = io->cmdp;
	const char *logpath = getenv("SHIM_LOG");
	const char *reply = getenv("SHIM_REPLY");
	int twelve = cdb[0] == 0xa1, ext = !twelve && (cdb[1] & 1);
	unsigned char command = twelve ? cdb[9] : cdb[14];
	int ck_cond = cdb[2] & 0x20, rc;

	if (logpath) {
		FILE *f = fopen(logpath, "a");

		if (f) {
			log_bytes(f, "cdb", cdb, io->cmd_len);
			/* SHIM_LOG_FULL=1: the whole of what goes out (a TCG ComPacket), else its first 64 bytes. */
			if (io->dxfer_direction == SG_DXFER_TO_DEV)
				log_bytes(f, "data", io->dxferp,
					  io->dxfer_len > 64 && !getenv("SHIM_LOG_FULL") ? 64 : io->dxfer_len);
			fclose(f);
		}
	}
	if (snt_bridge() && (rc = fake_snt(io)))
		return rc > 0 ? 0 : -1;
	if (((command == 0xb4 && (cdb[4] == 0x11 || cdb[4] == 0x12 || cdb[4] == 0x14)) || command == 0xf4) &&
	    (!getenv("SHIM_REPLY") || strcmp(getenv("SHIM_REPLY"), "ok") == 0))
		erased = 1;
	if (command == 0xb4 && cdb[3] == 0 && cdb[4] == 0 && getenv("SHIM_SANITIZE")) {
		/* The next answer of the sequence, kept in a static: one process polls. */
		static unsigned int polls;
		char seq[512], *entries[32], *save = NULL, *entry, num[32];
		unsigned int n = 0;

		snprintf(seq, sizeof(seq), "%s", getenv("SHIM_SANITIZE"));
		for (entry = strtok_r(seq, ",", &save); entry && n < 32; entry = strtok_r(NULL, ",", &save))
			entries[n++] = entry;
		entry = n ? entries[polls < n ? polls : n - 1] : NULL;
		polls++;
		if (entry && strncmp(entry, "abort:", 6) == 0) {
			setenv("SHIM_LBA", entry + 6, 1);
			setenv("SHIM_REPLY", "abort", 1);
		} else if (entry && strchr(entry, ':')) {
			snprintf(num, sizeof(num), "0x%.*s", (int)(strchr(entry, ':') - entry), entry);
			setenv("SHIM_COUNT", num, 1);
			snprintf(num, sizeof(num), "0x%s", strchr(entry, ':') + 1);
			setenv("SHIM_LBA", num, 1);
		}
		reply = getenv("SHIM_REPLY");
	}
	/* "hangata": the bridge lets ATA PASS-THROUGH time out (a bridge that hangs on what it does not know). */
	if ((cdb[0] == 0x85 || cdb[0] == 0xa1) && usb_bridge_word("hangata")) {
		io->status = io->masked_status = io->driver_status = 0;
		io->sb_len_wr = 0;
		io->host_status = 0x03;	/* DID_TIME_OUT */
		return 0;
	}
	/* REQUEST SENSE is a SAT layer's too: it answers as the SCSI disk (SHIM_SCSI_STATE). */
	if ((getenv("SHIM_SCSI") && !usb_bridge_passes(cdb)) || cdb[0] == 0x03) {
		io->status = io->masked_status = io->host_status = io->driver_status = 0;
		io->sb_len_wr = 0;
		io->resid = 0;
		if (io->dxfer_direction == SG_DXFER_FROM_DEV)
			memset(io->dxferp, 0x5a, io->dxfer_len);
		fake_scsi_disk(io, cdb);
		usb_bridge_answer(io, cdb);
		return 0;
	}
	if (delayed(command))
		hold();
	if (getenv("SHIM_BOOTTIME_JUMP") && command == 0xe0)
		disk_in_standby = 1;
	if (getenv("SHIM_BOOTTIME_JUMP") && command == 0xe5)
		setenv("SHIM_COUNT", disk_in_standby ? "0" : "0xff", 1);
	io->status = 0;
	io->masked_status = 0;
	io->host_status = 0;
	io->driver_status = 0;
	io->sb_len_wr = 0;
	io->resid = 0;
	if (!reply)
		reply = "ok";
	/* "abort@XX": command XX alone ends ABRT. */
	if (strncmp(reply, "abort@", 6) == 0)
		reply = strtoul(reply + 6, NULL, 16) == command ? "abort" : "ok";
	if (command == 0xec || command == 0xa1) {
		load_identify(io->dxferp, io->dxfer_len);
		return 0;
	}
	if (command >= 0x5c && command <= 0x5f && getenv("SHIM_TCG")) {
		/*
		 * TRUSTED RECEIVE 5Ch/5Dh and SEND 5Eh/5Fh (ACS-3 7.57, 7.59): the protocol in
		 * FEATURE, SP SPECIFIC in LBA 23:8.
		 */
		unsigned int protocol = twelve ? cdb[3] : cdb[4], sp = twelve ? (cdb[6] | cdb[7] << 8) : (cdb[10] | cdb[12] << 8);
		int done = !getenv("SHIM_TCG_REFUSE") && (command >= 0x5e ? tcg_send(protocol, sp, io->dxferp, io->dxfer_len)
									  : tcg_answer(protocol, sp, io->dxferp, io->dxfer_len));

		if (!done)
			reply = "illegal";
		else
			return 0;
	}
	if (command == 0xef && cdb[4] == 0x05 && !twelve && getenv("SHIM_LOGS")) {
		unsigned char page[512];

		/* With EPC enabled (word 120 bit 7), enabling APM is aborted (ACS-3 4.9.1). */
		load_identify(page, sizeof(page));
		if (page[240] & 0x80)
			reply = "abort";
	}
	if (command == 0xef && !twelve && getenv("SHIM_KEEP_FEATURES") && strcmp(reply, "ok") == 0)
		keep_feature(cdb[4], cdb[6]);
	if (command == 0xef && cdb[4] == 0x4a && !twelve && strcmp(reply ? reply : "ok", "ok") == 0)
		epc_update((unsigned int)(cdb[8] | cdb[10] << 8 | cdb[12] << 16), cdb[6], 0);
	if (command == 0xe3 && !twelve && cdb[6] >= 1 && cdb[6] <= 240 && getenv("SHIM_EPC_IDLE"))
		epc_update(cdb[6] * 50u, 0x00, 1);
	if (command == 0xb0 && cdb[4] == 0xd5 && getenv("SHIM_LOGS") && !twelve) {
		/* SMART READ LOG: the log address in LBA 7:0. */
		char path[512];

		snprintf(path, sizeof(path), "%s/%02x.hex", getenv("SHIM_LOGS"), cdb[8]);
		if (load_bytes(path, 0, io->dxferp, io->dxfer_len) == 0)
			return 0;
	}
	if (command == 0xb0 && (cdb[4] == 0xd0 || cdb[4] == 0xd1) && getenv("SHIM_LOGS") && !twelve) {
		/* SMART READ DATA: the attribute table; READ ATTRIBUTE THRESHOLDS: theirs. */
		char path[512];

		snprintf(path, sizeof(path), "%s/%s.hex", getenv("SHIM_LOGS"), cdb[4] == 0xd0 ? "smart" : "thresholds");
		if (load_bytes(path, 0, io->dxferp, io->dxfer_len) == 0) {
			if (cdb[4] == 0xd0)
				self_test_status(io->dxferp, io->dxfer_len);
			return 0;
		}
	}
	if (command == 0xb0 && cdb[4] == 0xda && getenv("SHIM_LOGS") && !twelve) {
		/* SMART RETURN STATUS: its verdict in LBA 23:8, the registers CK_COND brings back. */
		char path[512];

		snprintf(path, sizeof(path), "%s/smart-failing", getenv("SHIM_LOGS"));
		setenv("SHIM_LBA", access(path, F_OK) == 0 ? "0x2cf400" : "0xc24f00", 1);
	}
	if ((command == 0x2f || command == 0x47) && getenv("SHIM_LOGS") && !twelve) {
		/* READ LOG (DMA) EXT: log address in LBA 7:0, page in LBA 15:8 and 23:16. */
		char path[512];
		unsigned int page = cdb[10] | cdb[12] << 8;

		snprintf(path, sizeof(path), "%s/%02x.hex", getenv("SHIM_LOGS"), cdb[8]);
		if (load_bytes(path, 512UL * page, io->dxferp, io->dxfer_len) == 0)
			return 0;
	}
	if (strcmp(reply, "timeout") == 0) {
		io->host_status = 0x03;
		return 0;
	}
	if (strcmp(reply, "short") == 0 && io->dxfer_direction == SG_DXFER_FROM_DEV) {
		io->resid = (int)io->dxfer_len / 2;
		return 0;
	}
	if (strcmp(reply, "nosense") == 0) {
		io->status = 0x02;
		io->masked_status = 0x01;
		io->driver_status = 0x08;
		return 0;
	}
	if (strcmp(reply, "sense") == 0) {
		unsigned int len;

		io->status = 0x02;
		io->masked_status = 0x01;
		io->driver_status = 0x08;
		len = make_sense(io->sbp, io->mx_sb_len, (unsigned char)env_num("SHIM_KEY", 0x0b),
				 (unsigned char)env_num("SHIM_ASC", 0), (unsigned char)env_num("SHIM_ASCQ", 0),
				 (unsigned char)env_num("SHIM_STATUS", 0x51), (unsigned char)env_num("SHIM_ERROR", 0x04), ext);
		io->sb_len_wr = (unsigned char)(getenv("SHIM_SENSE_LEN") ? env_num("SHIM_SENSE_LEN", len) : len);
		return 0;
	}
	if (strcmp(reply, "illegal") == 0) {	/* the SAT layer's refusal: ILLEGAL REQUEST, invalid field in CDB */
		check_condition(io, 0x05, 0x24, 0x00);
		return 0;
	}
	if (strcmp(reply, "abort") == 0 || strcmp(reply, "medium") == 0) {
		int medium = reply[0] == 'm';

		io->status = 0x02;
		io->masked_status = 0x01;
		io->driver_status = 0x08;
		io->sb_len_wr = (unsigned char)make_sense(io->sbp, io->mx_sb_len, medium ? 0x03 : 0x0b,
							  medium ? 0x11 : 0x00, medium ? 0x04 : 0x00,
							  0x51, medium ? 0x40 : 0x04, ext);
		return 0;
	}
	if (io->dxfer_direction == SG_DXFER_FROM_DEV)
		memset(io->dxferp, 0x5a, io->dxfer_len);
	if (ck_cond && strcmp(reply, "noregs") != 0) {
		io->status = 0x02;
		io->masked_status = 0x01;
		io->driver_status = 0x08;
		io->sb_len_wr = (unsigned char)make_sense(io->sbp, io->mx_sb_len, 0x01, 0x00, 0x1d, 0x50, 0x00, ext);
	}
	return 0;
}

/* Identify Controller's fields the test asks for, over the page's. */
static void override_ctrl(unsigned char *buf)
{
	static const struct { const char *env; unsigned int offset, bytes; } fields[] = {
		{ "SHIM_NVME_OACS", 256, 2 }, { "SHIM_NVME_SANICAP", 328, 4 }, { "SHIM_NVME_FNA", 524, 1 },
	};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const char *v = getenv(fields[i].env);
		unsigned long long n;

		if (!v)
			continue;
		n = strtoull(v, NULL, 16);
		for (unsigned int b = 0; b < fields[i].bytes; b++)
			buf[fields[i].offset + b] = (unsigned char)(n >> (8 * b));
	}
}

/* The Sanitize Status log: the next entry of SHIM_NVME_SANITIZE (one process polls). */
static void sanitize_log(unsigned char *buf, unsigned int len, unsigned int last_cdw10)
{
	static unsigned int polls;
	char seq[512], *entries[32] = { NULL }, *save = NULL, *entry;
	unsigned int n = 0, sprog = 0, sstat = 0;
	const unsigned int fields[] = { last_cdw10, 0xffffffffu, 120, 5, 0xffffffffu, 0xffffffffu, 0xffffffffu };

	memset(buf, 0, len);
	snprintf(seq, sizeof(seq), "%s", getenv("SHIM_NVME_SANITIZE") ? getenv("SHIM_NVME_SANITIZE") : "0:0");
	for (entry = strtok_r(seq, ",", &save); entry && n < 32; entry = strtok_r(NULL, ",", &save))
		entries[n++] = entry;
	entry = n ? entries[polls < n ? polls : n - 1] : NULL;
	polls++;
	if (entry)
		sscanf(entry, "%x:%x", &sprog, &sstat);
	if (len < 32)
		return;
	buf[0] = (unsigned char)sprog, buf[1] = (unsigned char)(sprog >> 8);
	buf[2] = (unsigned char)sstat, buf[3] = (unsigned char)(sstat >> 8);
	for (unsigned int f = 0; f < 7; f++)
		for (int b = 0; b < 4; b++)
			buf[4 + 4 * f + b] = (unsigned char)(fields[f] >> (8 * b));
}

/*
 * What the kernel is asked outside the commands (BLKRRPART, a sysfs write),
 * a line each in SHIM_LOG's file with ".kernel" after its name.
 */
static void log_text(const char *what, const char *text)
{
	const char *logpath = getenv("SHIM_LOG");
	char path[1024];
	FILE *f;

	if (!logpath)
		return;
	snprintf(path, sizeof(path), "%s.kernel", logpath);
	if (!(f = fopen(path, "a")))
		return;
	fprintf(f, "%s: %s\n", what, text);
	fclose(f);
}

/* "WHAT: OPC NSID CDW10 CDW11", dwords little-endian as in the submission queue entry. */
static void log_nvme(const char *what, const struct nvme_passthru_cmd *cmd)
{
	const char *logpath = getenv("SHIM_LOG");
	FILE *f = logpath ? fopen(logpath, "a") : NULL;
	unsigned char words[13];

	if (!f)
		return;
	words[0] = cmd->opcode;
	for (int b = 0; b < 4; b++) {
		words[1 + b] = (unsigned char)(cmd->nsid >> (8 * b));
		words[5 + b] = (unsigned char)(cmd->cdw10 >> (8 * b));
		words[9 + b] = (unsigned char)(cmd->cdw11 >> (8 * b));
	}
	log_bytes(f, what, words, 13);
	if ((cmd->opcode & 1) && cmd->data_len)	/* a data-out command */
		log_bytes(f, "data", (unsigned char *)(uintptr_t)cmd->addr, cmd->data_len);
	fclose(f);
}

/* Get Features APST: enabled where SHIM_NVME_APST is set, its entries ("ITPT:ITPS,..." from PS0) in the data. */
static void apst_table(struct nvme_passthru_cmd *cmd)
{
	unsigned char *buf = (unsigned char *)(uintptr_t)cmd->addr;
	const char *spec = getenv("SHIM_NVME_APST");
	char copy[512], *save = NULL;
	unsigned int i = 0;

	cmd->result = spec ? 1 : 0;
	if (!spec || !buf)
		return;
	memset(buf, 0, cmd->data_len);
	snprintf(copy, sizeof(copy), "%s", spec);
	for (char *e = strtok_r(copy, ",", &save); e && 8 * (i + 1) <= cmd->data_len; e = strtok_r(NULL, ",", &save), i++) {
		unsigned int itpt = 0, itps = 0;
		unsigned long long v;

		sscanf(e, "%u:%u", &itpt, &itps);
		v = (unsigned long long)itpt << 8 | (itps & 0x1f) << 3;
		for (int b = 0; b < 8; b++)
			buf[8 * i + b] = (unsigned char)(v >> (8 * b));
	}
}

/* A Format NVM's LBA format (-1: none yet) and protection type: Identify Namespace says them afterwards. */
static int formatted_lbaf = -1, formatted_pi;
/* The block size the kernel has (BLKSSZGET): 512 until a format, then the format's (unless SHIM_NVME_KERNEL_STALE). */
static int kernel_block = 512;

/* Identify Namespace after a Format NVM: FLBAS and DPS, and the sizes in the new blocks. */
static void apply_format(unsigned char *buf)
{
	unsigned int old = buf[128 + 4 * (buf[26] & 0x0f) + 2], now = buf[128 + 4 * formatted_lbaf + 2];

	for (int field = 0; field < 3; field++) {
		unsigned long long v = 0;

		for (int b = 0; b < 8; b++)
			v |= (unsigned long long)buf[8 * field + b] << (8 * b);
		v = now >= old ? v >> (now - old) : v << (old - now);
		for (int b = 0; b < 8; b++)
			buf[8 * field + b] = (unsigned char)(v >> (8 * b));
	}
	buf[26] = (unsigned char)((formatted_lbaf & 0x0f) | ((formatted_lbaf >> 4) & 3) << 5);
	buf[29] = (unsigned char)formatted_pi;
}

/* The admin commands: Identify from the pages, the sanitize log, the rest logged. */
static int fake_nvme_admin(struct nvme_passthru_cmd *cmd, const char *ctrl_page, const char *ns_page)
{
	static unsigned int last_sanitize = 0x2, committed_slot;
	unsigned char *buf = (unsigned char *)(uintptr_t)cmd->addr;
	const char *fail = getenv("SHIM_NVME_FAIL");

	if (cmd->opcode == 0x06) {	/* Identify */
		if (load_bytes((cmd->cdw10 & 0xff) == 1 ? ctrl_page : ns_page, 0, buf, cmd->data_len))
			return -1;
		if ((cmd->cdw10 & 0xff) == 1)
			override_ctrl(buf);
		if ((cmd->cdw10 & 0xff) == 0 && getenv("SHIM_NVME_FLBAS"))
			buf[26] = (unsigned char)strtoul(getenv("SHIM_NVME_FLBAS"), NULL, 16);
		if ((cmd->cdw10 & 0xff) == 0 && getenv("SHIM_NVME_DPS"))
			buf[29] = (unsigned char)strtoul(getenv("SHIM_NVME_DPS"), NULL, 16);
		if ((cmd->cdw10 & 0xff) == 0 && getenv("SHIM_NVME_DPC"))
			buf[28] = (unsigned char)strtoul(getenv("SHIM_NVME_DPC"), NULL, 16);
		if ((cmd->cdw10 & 0xff) == 0 && getenv("SHIM_NVME_NSZE")) {
			unsigned long long nsze = env_num("SHIM_NVME_NSZE", 0);

			for (int b = 0; b < 8; b++)
				buf[b] = buf[8 + b] = buf[16 + b] = (unsigned char)(nsze >> (8 * b));
		}
		if ((cmd->cdw10 & 0xff) == 0 && formatted_lbaf >= 0)
			apply_format(buf);
		return 0;
	}
	log_nvme("nvme-admin", cmd);
	if (getenv("SHIM_NVME_DELAY") && strtoul(getenv("SHIM_NVME_DELAY"), NULL, 16) == cmd->opcode)
		hold();
	if (fail && strtoul(fail, NULL, 16) == cmd->opcode)
		return 0x0002;	/* NVMe status: invalid field in command */
	if (cmd->opcode == 0x84)
		last_sanitize = cmd->cdw10;
	if ((cmd->opcode == 0x84 && (cmd->cdw10 & 7) != 1) || cmd->opcode == 0x80)
		erased = 1;
	if (cmd->opcode == 0x80) {
		unsigned char ns[4096];

		formatted_lbaf = (int)((cmd->cdw10 & 0x0f) | ((cmd->cdw10 >> 12) & 3) << 4);
		formatted_pi = (int)((cmd->cdw10 >> 5) & 7);
		if (!getenv("SHIM_NVME_KERNEL_STALE") && load_bytes(ns_page, 0, ns, sizeof(ns)) == 0)
			kernel_block = 1 << ns[128 + 4 * formatted_lbaf + 2];
	}
	if (cmd->opcode == 0x81) {	/* Security Send: as Security Receive */
		if (!tcg_send(cmd->cdw10 >> 24, (cmd->cdw10 >> 8) & 0xffff, buf, cmd->data_len))
			return 0x0002;
		return 0;
	}
	if (cmd->opcode == 0x82) {	/* Security Receive: SECP 31:24, SPSP 23:8 */
		if (!tcg_answer(cmd->cdw10 >> 24, (cmd->cdw10 >> 8) & 0xffff, buf, cmd->data_len))
			return 0x0002;
		return 0;
	}
	if (cmd->opcode == 0x0a && (cmd->cdw10 & 0xff) == 0x02)	/* Get Features, Power Management */
		cmd->result = (unsigned int)env_num("SHIM_NVME_PS", 0);
	if (cmd->opcode == 0x0a && (cmd->cdw10 & 0xff) == 0x0c)	/* Get Features, APST */
		apst_table(cmd);
	if (cmd->opcode == 0x02) {	/* Get Log Page: SHIM_LOGS's nvme-XX.hex where it has the log */
		char name[16];

		snprintf(name, sizeof(name), "nvme-%02x", cmd->cdw10 & 0xff);
		if (log_file(name, buf, cmd->data_len, NULL) == 0)
			return 0;
	}
	if (cmd->opcode == 0x02 && (cmd->cdw10 & 0xff) == 0x02 && cmd->data_len >= 3) {
		/* SMART / Health log: the composite temperature (kelvin) in bytes 2:1. */
		unsigned int kelvin = (unsigned int)env_num("SHIM_NVME_TEMP", 0);

		if (snt_health(buf, cmd->data_len, &kelvin))
			return 0x0006;
		((unsigned char *)buf)[1] = (unsigned char)kelvin;
		((unsigned char *)buf)[2] = (unsigned char)(kelvin >> 8);
	}
	if (cmd->opcode == 0x02 && (cmd->cdw10 & 0xff) == 0x81)
		sanitize_log(buf, cmd->data_len, last_sanitize);
	if (cmd->opcode == 0x10)	/* Firmware Commit: the slot in CDW10 2:0 */
		committed_slot = cmd->cdw10 & 7;
	if (cmd->opcode == 0x02 && (cmd->cdw10 & 0xff) == 0x03 && committed_slot && cmd->data_len >= 64) {
		buf[0] = (unsigned char)(committed_slot << 4);	/* AFI: the slot after the next reset */
		memcpy(buf + 8 * committed_slot, "8.0.1   ", 8);	/* FRS of the slot: bytes 8 * slot on */
	}
	return 0;
}

static int is_disk_image(int fd);

/* The NVMe pass-through ioctls of a controller with one namespace. */
static int fake_nvme(unsigned long request, struct nvme_passthru_cmd *cmd)
{
	char pages[1024], *comma;

	snprintf(pages, sizeof(pages), "%s", getenv("SHIM_NVME"));
	comma = strchr(pages, ',');
	if (!comma) {
		errno = EINVAL;
		return -1;
	}
	*comma = '\0';
	cmd->result = 0;
	if (request == NVME_IOCTL_ADMIN_CMD)
		return fake_nvme_admin(cmd, pages, comma + 1);
	log_nvme("nvme-io", cmd);
	if (getenv("SHIM_NVME_FAIL") && strncmp(getenv("SHIM_NVME_FAIL"), "io:", 3) == 0 &&
	    strtoul(getenv("SHIM_NVME_FAIL") + 3, NULL, 16) == cmd->opcode)
		return 0x0002;
	return 0;
}

#include "sgio-shim-snt.c"

int ioctl(int fd, unsigned long request, ...)
{
	static int (*real_ioctl)(int, unsigned long, ...);
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!real_ioctl)
		real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	current_fd = fd;
	if (request == SG_GET_VERSION_NUM && getenv("SHIM_SCSI")) {
		*(int *)arg = 30527;
		return 0;
	}
	if (request == SG_IO)
		return fake_sg_io(arg);
	if (getenv("SHIM_NVME") && !snt_bridge() && request == NVME_IOCTL_ID)
		return (int)env_num("SHIM_NVME_NSID", 1);	/* the namespace this node is */
	if (getenv("SHIM_NVME") && !snt_bridge() && (request == NVME_IOCTL_ADMIN_CMD || request == NVME_IOCTL_IO_CMD))
		return fake_nvme(request, arg);
	if (request == HDIO_GETGEO && getenv("SHIM_GEO_START")) {
		struct hd_geometry *g = arg;

		memset(g, 0, sizeof(*g));
		g->start = (unsigned long)env_num("SHIM_GEO_START", 0);
		return 0;
	}
	if (is_disk_image(fd) && (request == BLKGETSIZE64 || request == BLKSSZGET)) {
		struct stat st;

		if (fstat(fd, &st))
			return -1;
		if (request == BLKGETSIZE64)
			*(unsigned long long *)arg = (unsigned long long)st.st_size;
		else
			*(int *)arg = 512;
		return 0;
	}
	if (request == BLKSSZGET && getenv("SHIM_SCSI_FORMAT")) {
		/* The kernel's block size follows the format (SHIM_SCSI_KERNEL_STALE=1: it stays as before). */
		format_model();
		*(int *)arg = (int)(getenv("SHIM_SCSI_KERNEL_STALE") ? env_num("SHIM_SCSI_BLOCK_LEN", 512) : fmt.len);
		return 0;
	}
	if (request == BLKSSZGET && getenv("SHIM_NVME")) {
		*(int *)arg = kernel_block;
		return 0;
	}
	if (request == BLKGETSIZE64 && getenv("SHIM_BLKSIZE")) {
		*(unsigned long long *)arg = env_num("SHIM_BLKSIZE", 0);
		return 0;
	}
	if (request == BLKSSZGET && getenv("SHIM_BLKSIZE")) {
		*(int *)arg = 512;
		return 0;
	}
	/* A loop device is the machine's: what it writes, the kernel says. */
	if (request == BLKGETSIZE64 || request == BLKSSZGET || request == BLKFLSBUF || request == FS_IOC_FIEMAP ||
	    request == LOOP_GET_STATUS64)
		return real_ioctl(fd, request, arg);
	if (getenv("SHIM_REAL_BLOCK") &&
	    (request == BLKRAGET || request == BLKRASET || request == BLKROGET || request == BLKROSET))
		return real_ioctl(fd, request, arg);
	if (request == BLKRRPART)
		log_text("ioctl", "BLKRRPART");
	errno = ENOTTY;
	return -1;
}

/* SHIM_TCG_SILENT: once a call went unanswered, a pause takes no time, but the clock moves as if it had. */
int usleep(useconds_t us)
{
	static int (*real_usleep)(useconds_t);

	if (tcg_unanswered) {
		silent_us += us;
		return 0;
	}
	if (!real_usleep)
		real_usleep = (int (*)(useconds_t))dlsym(RTLD_NEXT, "usleep");
	return real_usleep(us);
}

/* ---- SHIM_BOOTTIME_JUMP=S[,J]: a suspend of J seconds, S seconds after the first look at the clock ---- */
int clock_gettime(clockid_t which, struct timespec *ts)
{
	const char *jump = getenv("SHIM_BOOTTIME_JUMP");
	static int (*real_clock_gettime)(clockid_t, struct timespec *);
	static time_t first = -1;
	int rc;

	if (!real_clock_gettime)
		real_clock_gettime = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
	rc = real_clock_gettime(which, ts);
	if (!rc && which == CLOCK_MONOTONIC && silent_us) {
		unsigned long long ns = (unsigned long long)ts->tv_nsec + silent_us % 1000000ULL * 1000ULL;

		ts->tv_sec += (time_t)(silent_us / 1000000ULL + ns / 1000000000ULL);
		ts->tv_nsec = (long)(ns % 1000000000ULL);
	}
	if (rc || which != CLOCK_BOOTTIME || !getenv("SHIM_BOOTTIME_JUMP"))
		return rc;
	if (first < 0)
		first = ts->tv_sec;
	if (ts->tv_sec - first >= (time_t)env_num("SHIM_BOOTTIME_JUMP", 0)) {
		ts->tv_sec += strchr(jump, ',') ? (time_t)strtoul(strchr(jump, ',') + 1, NULL, 10) : 3600;
		static int resumed;

		/* The resume spins the disk up, once (its IDENTIFY and SET FEATURES pass no I/O counter). */
		if (!resumed)
			disk_in_standby = 0;
		resumed = 1;
	}
	return rc;
}

/* ---- a sysfs of one disk, and /dev/null as its block device ---- */

/*
 * The double's disks have device numbers no host holds: minors from DOUBLE_MINOR up (minors are
 * 20 bits; the kernel hands out extended minors, a loop or NVMe partition's 259:N, from 0 up).
 * A host's 259:0 is its first NVMe namespace or a loop device's partition, and answered for the
 * double's disk when the double used that number.
 */
#define DOUBLE_MINOR 900000u

/* /sys/dev/block/MAJ:MIN or /sys/dev/char/MAJ:MIN (and what is under it) of one of the double's numbers. */
static int double_sysfs_path(const char *path)
{
	unsigned int maj, min;
	int end = 0;

	if (strncmp(path, "/sys/dev/block/", 15) == 0)
		path += 15;
	else if (strncmp(path, "/sys/dev/char/", 14) == 0)
		path += 14;
	else
		return 0;
	return sscanf(path, "%u:%u%n", &maj, &min, &end) == 2 && end > 0 && (path[end] == '\0' || path[end] == '/') &&
	       min >= DOUBLE_MINOR;
}

/*
 * path, or SHIM_SYSFS's copy of it where path is under /sys.  The sysfs paths of the double's own
 * numbers are never the host's: without SHIM_SYSFS they are under a folder that is not there.
 */
static const char *sysfs_redirect(const char *path, char *buf, size_t size)
{
	const char *root = getenv("SHIM_SYSFS");

	if (!root && double_sysfs_path(path))
		root = "/nonexistent/sgio-shim-sysfs";
	if (!root || strncmp(path, "/sys/", 5) != 0)
		return path;
	snprintf(buf, size, "%s%s", root, path);
	return buf;
}

/* path, or its copy in the double's tree where it is a sysfs path of the double's own numbers. */
static const char *double_sysfs_redirect(const char *path, char *buf, size_t size)
{
	return path && double_sysfs_path(path) ? sysfs_redirect(path, buf, size) : path;
}

#define REDIRECTED_FOPEN(name)                                                             \
	FILE *name(const char *path, const char *mode)                                     \
	{                                                                                  \
		static FILE *(*real)(const char *, const char *);                          \
		char buf[1024];                                                            \
		if (!real)                                                                 \
			real = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, #name); \
		if (strncmp(path, "/sys/", 5) == 0 && mode[0] == 'w')                      \
			log_text("sysfs write", path);                                     \
		return real(sysfs_redirect(path, buf, sizeof(buf)), mode);                 \
	}
REDIRECTED_FOPEN(fopen)
REDIRECTED_FOPEN(fopen64)

DIR *opendir(const char *path)
{
	static DIR *(*real)(const char *);
	char buf[1024];

	if (!real)
		real = (DIR * (*)(const char *)) dlsym(RTLD_NEXT, "opendir");
	return real(sysfs_redirect(path, buf, sizeof(buf)));
}

ssize_t readlink(const char *path, char *out, size_t size)
{
	static ssize_t (*real)(const char *, char *, size_t);
	char buf[1024];

	if (!real)
		real = (ssize_t(*)(const char *, char *, size_t))dlsym(RTLD_NEXT, "readlink");
	return real(sysfs_redirect(path, buf, sizeof(buf)), out, size);
}

static ssize_t syscall_readlink(const char *path, char *out, size_t size)
{
	return readlink(path, out, size);
}

/* The path fd is open on, into target; false where /proc does not say. */
static int fd_target(int fd, char *target, size_t size)
{
	char link[64];
	ssize_t len;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	len = syscall_readlink(link, target, size - 1);
	if (len <= 0)
		return 0;
	target[len] = '\0';
	return 1;
}

/* The disk's blocks now: SHIM_DISK_IMAGE, or SHIM_DISK_IMAGE_AFTER once an erase went out. */
static const char *disk_image(void)
{
	return erased && getenv("SHIM_DISK_IMAGE_AFTER") ? getenv("SHIM_DISK_IMAGE_AFTER") : getenv("SHIM_DISK_IMAGE");
}

/*
 * The nodes that are disks: /dev/null, and where one command names several
 * (many disks at once), /dev/zero and /dev/full, SHIM_BLOCK_DEV's next two
 * minors; -1 for any other path.
 */
static int disk_index(const char *path)
{
	static const char *const nodes[] = { "/dev/null", "/dev/zero", "/dev/full" };

	for (int i = 0; i < 3; i++)
		if (strcmp(path, nodes[i]) == 0)
			return i;
	return -1;
}

/* Which of them the disk image was opened for (each disk's process opens its own). */
static int image_index;

/* fd is open on the disk image (what an O_DIRECT open of /dev/null gave). */
static int is_disk_image(int fd)
{
	const char *image = disk_image();
	char target[1024], want[1024];

	return image && realpath(image, want) && fd_target(fd, target, sizeof(target)) && strcmp(target, want) == 0;
}

/* /dev/null (or the disk image) seen as the block device SHIM_BLOCK_DEV: its mode and number, else false. */
static int fake_block_device(int fd, unsigned int *maj, unsigned int *min)
{
	const char *num = getenv("SHIM_BLOCK_DEV");
	char target[64];

	if (!num || sscanf(num, "%u:%u", maj, min) != 2 || !fd_target(fd, target, sizeof(target)))
		return 0;
	if (*min < DOUBLE_MINOR) {
		/* A test that would pass or fail by what the machine it runs on has. */
		fprintf(stderr, "sgio-shim: SHIM_BLOCK_DEV=%s is a number a host may hold: use minors %u and up\n", num,
			DOUBLE_MINOR);
		_exit(121);
	}
	if (disk_index(target) >= 0) {
		*min += (unsigned int)disk_index(target);
		return 1;
	}
	*min += (unsigned int)image_index;
	return is_disk_image(fd);
}

/* An O_DIRECT open of /dev/null reads SHIM_DISK_IMAGE instead: the blocks an erase left. */
#define REDIRECTED_OPEN(name)                                                                   \
	int name(const char *path, int flags, ...)                                              \
	{                                                                                       \
		static int (*real)(const char *, int, ...);                                     \
		const char *image = disk_image();                                               \
		char buf[1024];                                                                 \
		mode_t mode = 0;                                                                \
		va_list ap;                                                                     \
		if (!real)                                                                      \
			real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name);        \
		va_start(ap, flags);                                                            \
		if (flags & O_CREAT)                                                            \
			mode = va_arg(ap, mode_t);                                              \
		va_end(ap);                                                                     \
		if (image && (flags & O_DIRECT) && disk_index(path) >= 0) {                     \
			image_index = disk_index(path);                                         \
			return real(image, O_RDONLY | O_CLOEXEC);                               \
		}                                                                               \
		return real(double_sysfs_redirect(path, buf, sizeof(buf)), flags, mode);        \
	}
REDIRECTED_OPEN(open)
REDIRECTED_OPEN(open64)

/* Each stat type gets its own fields set: on 32-bit systems the two differ. */
#define FAKE_FSTAT(name, type)                                              \
	int name(int fd, type *st)                                          \
	{                                                                   \
		static int (*real)(int, type *);                             \
		unsigned int maj, min;                                      \
		int rc;                                                     \
		if (!real)                                                  \
			real = (int (*)(int, type *))dlsym(RTLD_NEXT, #name); \
		rc = real(fd, st);                                          \
		if (rc == 0 && fake_block_device(fd, &maj, &min)) {         \
			st->st_mode = S_IFBLK | 0660;                       \
			st->st_rdev = makedev(maj, min);                    \
		}                                                           \
		return rc;                                                  \
	}
FAKE_FSTAT(fstat, struct stat)
FAKE_FSTAT(fstat64, struct stat64)

/*
 * The double's disks are /dev/null and its two sisters, one inode each for
 * every suite and every run on this machine: hdparm's lock on a disk it
 * changes (flock) is taken and nothing held, or one suite's run would refuse
 * another's.  The lock itself is tested on loop devices.
 */
int flock(int fd, int op)
{
	static int (*real)(int, int);
	char target[1024];

	if (!real)
		real = (int (*)(int, int))dlsym(RTLD_NEXT, "flock");
	if ((fd_target(fd, target, sizeof(target)) && disk_index(target) >= 0) || is_disk_image(fd))
		return 0;
	return real(fd, op);
}

/* stat(), lstat() and access() of the double's own numbers' sysfs paths: its tree, not the host's. */
#define REDIRECTED_STAT(name, type)                                                     \
	int name(const char *path, type *st)                                            \
	{                                                                               \
		static int (*real)(const char *, type *);                               \
		char buf[1024];                                                         \
		if (!real)                                                              \
			real = (int (*)(const char *, type *))dlsym(RTLD_NEXT, #name);  \
		return real(double_sysfs_redirect(path, buf, sizeof(buf)), st);          \
	}
REDIRECTED_STAT(stat, struct stat)
REDIRECTED_STAT(stat64, struct stat64)
REDIRECTED_STAT(lstat, struct stat)
REDIRECTED_STAT(lstat64, struct stat64)

int access(const char *path, int how)
{
	static int (*real)(const char *, int);
	char buf[1024];

	if (!real)
		real = (int (*)(const char *, int))dlsym(RTLD_NEXT, "access");
	return real(double_sysfs_redirect(path, buf, sizeof(buf)), how);
}
