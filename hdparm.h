/* State shared by the parts of hdparm: the open device and global switches. */
#ifndef HDPARM_H
#define HDPARM_H

#include <stdbool.h>
#include <stdint.h>

#include "identify.h"

#define HDPARM_NAME "hdparm"
#define HDPARM_VERSION "v9.65-c1"

/* Switches that apply to every device of one run. */
struct run_flags {
	bool verbose;		/* --verbose: raw sense bytes, register dumps */
	bool prefer_ata12;	/* --prefer-ata12 */
	bool quiet;		/* -q was given: no "/dev/x:" headers */
	bool json;		/* --json: one JSON document instead of the text */
};

extern struct run_flags run;

/* One device, open for the duration of its processing. */
struct device {
	const char *path;
	int fd;
	bool id_valid;		/* id[] holds the drive's IDENTIFY page */
	bool id_failed;		/* IDENTIFY was tried and failed: do not retry */
	int id_error;		/* ... with this errno */
	char id_cause[160];	/* ... and this explanation */
	uint8_t identify_op;	/* 0xec (ATA) or 0xa1 (ATAPI) */
	uint16_t id[IDENTIFY_WORDS];
	uint32_t nvme_nsid;	/* NVMe: the namespace (0: not NVMe, ~0: controller without one) */
	bool nvme_ctrl;		/* NVMe: opened as the controller, /dev/nvmeX */
	struct timing_result {
		bool valid;
		unsigned int mib;
		double seconds;
		bool direct;
		bool has_offset;
		unsigned long long offset_gib;
		unsigned int iodepth;	/* 0: one read at a time, as 9.65 */
		unsigned int block_kib;
	} cached_reads, disk_reads;	/* -T and -t, for --json */
	bool refused;		/* a dangerous option lacked its confirmation flag */
	bool log_dir_valid;	/* log_dir holds the General Purpose Log directory */
	bool log_dir_failed;
	uint16_t log_dir[256];
};

#endif
