/*
 * LD_PRELOAD test double for ioctl(): records every SG_IO request and
 * answers it like a SAT layer would, so the exact command bytes hdparm
 * sends can be checked without a drive.
 *
 *   SHIM_LOG=FILE       append "cdb: .." (and "data: .." for writes) per request
 *   SHIM_IDENTIFY=FILE  IDENTIFY page (--Istdout hex) returned for ECh/A1h
 *   SHIM_SENSE=fixed|late|descriptor   format of the sense data (default descriptor);
 *                       "late" is the fixed format of older kernels, registers from byte 8
 *   SHIM_REPLY=ok|abort|medium|short|nosense|timeout   how commands end (default ok)
 *   SHIM_REPLY=sense    CHECK CONDITION with SHIM_KEY, SHIM_ASC, SHIM_ASCQ,
 *                       SHIM_STATUS, SHIM_ERROR; SHIM_SENSE_LEN cuts the sense short
 *   SHIM_COUNT=N, SHIM_LBA=N   registers returned when asked (CK_COND)
 * Other ioctls on the device fail with ENOTTY, as on a plain SCSI disk.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <linux/fs.h>
#include <scsi/sg.h>

static void log_bytes(FILE *f, const char *what, const unsigned char *p, unsigned int n)
{
	fprintf(f, "%s:", what);
	for (unsigned int i = 0; i < n; i++)
		fprintf(f, " %02x", p[i]);
	fputc('\n', f);
}

static void load_identify(unsigned char *buf, unsigned int len)
{
	const char *path = getenv("SHIM_IDENTIFY");
	FILE *f = path ? fopen(path, "r") : NULL;
	unsigned int w;

	memset(buf, 0, len);
	if (!f)
		return;
	for (unsigned int i = 0; i < 256 && 2 * i + 1 < len && fscanf(f, "%4x", &w) == 1; i++) {
		buf[2 * i] = (unsigned char)w;
		buf[2 * i + 1] = (unsigned char)(w >> 8);
	}
	fclose(f);
}

static unsigned long long env_num(const char *name, unsigned long long dflt)
{
	const char *v = getenv(name);

	return v ? strtoull(v, NULL, 0) : dflt;
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

static int fake_sg_io(struct sg_io_hdr *io)
{
	const unsigned char *cdb = io->cmdp;
	const char *logpath = getenv("SHIM_LOG");
	const char *reply = getenv("SHIM_REPLY");
	int twelve = cdb[0] == 0xa1, ext = !twelve && (cdb[1] & 1);
	unsigned char command = twelve ? cdb[9] : cdb[14];
	int ck_cond = cdb[2] & 0x20;

	if (logpath) {
		FILE *f = fopen(logpath, "a");

		if (f) {
			log_bytes(f, "cdb", cdb, io->cmd_len);
			if (io->dxfer_direction == SG_DXFER_TO_DEV)
				log_bytes(f, "data", io->dxferp, io->dxfer_len > 64 ? 64 : io->dxfer_len);
			fclose(f);
		}
	}
	io->status = 0;
	io->masked_status = 0;
	io->host_status = 0;
	io->driver_status = 0;
	io->sb_len_wr = 0;
	io->resid = 0;
	if (!reply)
		reply = "ok";
	if (command == 0xec || command == 0xa1) {
		load_identify(io->dxferp, io->dxfer_len);
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
	if (ck_cond) {
		io->status = 0x02;
		io->masked_status = 0x01;
		io->driver_status = 0x08;
		io->sb_len_wr = (unsigned char)make_sense(io->sbp, io->mx_sb_len, 0x01, 0x00, 0x1d, 0x50, 0x00, ext);
	}
	return 0;
}

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
	if (request == SG_IO)
		return fake_sg_io(arg);
	if (request == BLKGETSIZE64 || request == BLKSSZGET || request == BLKFLSBUF)
		return real_ioctl(fd, request, arg);
	errno = ENOTTY;
	return -1;
}
