/*
 * One device, open for the duration of its processing: what the runner
 * hands to every command, the kind of disk chosen for it (disk_ops.h), and
 * what this run keeps of it.  Transports take their switches from here
 * (dev->run), never from the command line.
 */
#ifndef HDPARM_DEVICE_H
#define HDPARM_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "disk_facts.h"
#include "disk_ops.h"
#include "reach.h"

/*
 * What a USB bridge passes on to the disk behind it, by smartctl's -d names:
 * ATA PASS-THROUGH (SAT), one of three vendors' NVMe tunnels, or SCSI alone.
 * BRIDGE_AUTO is --bridge's default: the bridge table decides.
 */
enum bridge_protocol { BRIDGE_AUTO, BRIDGE_NONE, BRIDGE_SAT, BRIDGE_SNTJMICRON, BRIDGE_SNTASMEDIA, BRIDGE_SNTREALTEK };

/* Switches that apply to every device of one run. */
struct run_flags {
	bool verbose;		/* --verbose: raw sense bytes, register dumps */
	bool prefer_ata12;	/* --prefer-ata12 */
	bool json;		/* --json: one JSON document instead of the text */
	bool why;		/* --why: the idle watcher says who woke a disk */
	bool settings_only;	/* --settings-only: --apply-config sends no command that acts once (standby, security) */
	const char *metrics_file;	/* --metrics-file with the idle watcher: its counters, rewritten as they change */
	bool metrics_tcg;	/* --metrics --tcg: each awake disk's TCG locking too */
	enum bridge_protocol bridge;	/* --bridge NAME (BRIDGE_AUTO: the bridge table's) */
};

struct ata_state;
struct nvme_node;
struct erase_run;
struct record_file;

struct device {
	const char *path;
	int fd;
	struct run_flags run;
	const struct disk_ops *disk;	/* the transport's commands */
	/* What the kind keeps of the disk between commands, its own struct, made by it on first use and
	   freed by the runner (disk_release()): ATA's IDENTIFY page and log directory (ata_commands.c). */
	struct ata_state *ata_state;
	struct nvme_node *nvme_node;	/* NVMe's: the namespace the node names (nvme.h) */
	const char *usb_driver;	/* behind a USB bridge: "usb-storage" or "uas" (NULL: none) */
	char usb_id[12];	/* ... the bridge's idVendor:idProduct ("": unread), for advice */
	enum bridge_protocol bridge;	/* ... what it passes, chosen once (BRIDGE_NONE where no bridge) */
	bool ata12_only;	/* ... its SAT layer passes the 12-byte ATA PASS-THROUGH only (smartctl's -d sat,12) */
	char bridge_nothing[200];	/* ... how it answered ATA PASS-THROUGH with nothing, its limit ("": it did not) */
	struct timing_result {
		bool valid;
		unsigned int mib;
		double seconds;
		bool direct;
		bool has_offset;
		unsigned long long offset_gib;
		unsigned int iodepth;	/* 0: one read at a time, as 9.65 */
		unsigned int block_kib;
		const char *engine;	/* --iodepth: "io_uring", "libaio" or "pread" */
	} cached_reads, disk_reads;	/* -T and -t, for --json */
	bool refused;		/* a dangerous option lacked its confirmation flag */
	bool record_unwritable;	/* --erase-record's folder cannot be written: no erase, and no record */
	bool sanitize_started;	/* this run started a sanitize (a SCSI disk keeps no record of one) */
	bool erc_set;		/* --erc's limits were set: its read-back must hold them */
	/* A format this run started in the background (--set-sector-size on SCSI): the disk before it, for old -> new. */
	bool format_started;
	bool formats_shown;	/* the formats on offer were listed (once a run) */
	/* --metrics: after one command timed out, none is sent (transport/sg.c), each failing at once as timed out */
	bool stop_at_timeout, timed_out;
	bool tcg_lock_asked;	/* after a failed read: whether TCG locks the drive was asked (once a run) */
	struct disk_format_summary {
		uint32_t block_bytes;
		uint16_t metadata_bytes;
		uint64_t blocks;
		unsigned int pi_type;
	} format_before, format_wanted;	/* wanted: block_bytes and pi_type */
	bool reach_valid;	/* reach holds the disks the erase asked for reaches */
	struct reach reach;
	/* A run that changes the disk: the nodes it holds locked until it ends (disk_lock.h), closed by disk_release(). */
	int held[REACH_MAX + 1];
	unsigned int n_held;
	bool together_member;	/* a disk's process of a many-disk run: its siblings' locks are its run's own */
	struct erase_run *erase;	/* the erase this run started and what it read (erasecheck.h) */
	struct record_file *record;	/* --erase-record's file, made before anything was sent (erase_record.h) */
};

#endif
