/*
 * One device, open for the duration of its processing: what the runner
 * hands to every command, and the transport chosen for it.  Transports
 * take their switches from here (dev->run), never from the command line.
 */
#ifndef HDPARM_DEVICE_H
#define HDPARM_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "reach.h"
#include "sector_range.h"

/* Switches that apply to every device of one run. */
struct run_flags {
	bool verbose;		/* --verbose: raw sense bytes, register dumps */
	bool prefer_ata12;	/* --prefer-ata12 */
	bool json;		/* --json: one JSON document instead of the text */
	bool why;		/* --why: the idle watcher says who woke a disk */
	bool settings_only;	/* --settings-only: --apply-config sends no command that acts once (standby, security) */
};

struct device;
struct erase_run;
struct record_file;

/*
 * Why a disk's command failed, for the operation to word once:
 * " WHAT failed: WHY" (WHY empty: the errno's text), or " WHY" alone where
 * no command is to blame.  All empty: nothing to say (said before).
 */
struct disk_cause {
	const char *what;	/* the command, as the failure line names it */
	char why[512];
	bool about_option;	/* why is about what the option asked: worded after it, as typed (" -W0: why") */
	bool whole_line;	/* why is the whole line, as 9.65 words it (no leading space) */
	unsigned int status;	/* the disk's own status, where it gave one (NVMe: SCT 10:8, SC 7:0); 0: none */
};

/* -W and -A: which of a disk's caches. */
enum disk_cache { DISK_WRITE_CACHE, DISK_LOOKAHEAD };

/* What a disk says of one of its caches. */
enum disk_cache_state { CACHE_UNKNOWN, CACHE_UNSUPPORTED, CACHE_OFF, CACHE_ON };

/* What a disk says of its temperature (-H): facts, worded by the operation (temperature.c). */
struct disk_temperature {
	enum temperature_source { TEMP_HITACHI, TEMP_SCT_STATUS, TEMP_SMART_ATTRIBUTE, TEMP_NVME_HEALTH, TEMP_SCSI_LOG } source;
	int celsius;
	uint8_t raw;		/* TEMP_HITACHI: the count register, which 9.65 decodes */
	bool in_range;		/* TEMP_HITACHI: the error register's bit 4 is clear */
	int warning, critical;	/* TEMP_NVME_HEALTH: WCTEMP and CCTEMP in Celsius; INT_MIN: not reported */
	int reference;		/* TEMP_SCSI_LOG: the reference temperature; INT_MIN: none */
	struct disk_cause cause;	/* on failure: what failed, and why */
};

/*
 * --erc: how long the drive may try to recover a sector before it reports
 * an error, in tenths of a second (0: no limit).  ATA keeps one for reads
 * and one for writes; NVMe and SCSI one for both (one_limit).
 */
struct disk_erc {
	unsigned int read_ds, write_ds;
	bool one_limit;
	const char *source;	/* where the disk keeps it, in the standard's words */
	struct disk_cause cause;	/* on failure: what failed, and why */
};

/* Where sector commands may reach: the sectors, their size, and what holds them. */
struct disk_geometry {
	uint64_t sectors;
	unsigned int sector_bytes;
	const char *space;	/* "drive" or "namespace": what an LBA beyond it is beyond */
};

/* What a disk's TRIM (DSM, Dataset Management, UNMAP) holds one command's ranges to. */
struct trim_limits {
	uint64_t capacity;		/* sectors: every range ends within */
	const char *space;		/* "drive" or "namespace": what a range beyond it is beyond */
	unsigned int max_ranges;	/* range entries in one command */
	uint64_t max_range_sectors;	/* sectors in one entry */
	uint64_t max_command_sectors;	/* sectors in one command (UINT64_MAX: no limit but the entries) */
	char none[160];			/* EOPNOTSUPP: why the disk has no TRIM */
};

/* How an erase option erases: the command it sends. */
enum erase_method { ERASE_BY_SANITIZE, ERASE_BY_FORMAT };

/* How the erase was done: what the sample is held against. */
enum erase_kind {
	ERASE_TO_ZEROS,		/* block erase, format with user-data erase */
	ERASE_TO_PATTERN,	/* overwrite with the pattern given */
	ERASE_TO_SOME_PATTERN,	/* not known here (a sanitize this run did not start): zeros or one repeated pattern */
	ERASE_CRYPTO,		/* cryptographic erase: anything but the old data */
};

/* A sanitize the command line asks for: the action and its switches. */
struct sanitize_request {
	enum sanitize_action {
		SANITIZE_BLOCK_ERASE, SANITIZE_CRYPTO_ERASE, SANITIZE_OVERWRITE, SANITIZE_EXIT_FAILURE,
		SANITIZE_STATUS		/* only asked: --sanitize-status */
	} action;
	bool ause;		/* --sanitize-ause: a failure may be left by exit failure mode */
	bool no_deallocate;	/* --sanitize-no-deallocate (NVMe) */
	unsigned int passes;	/* an overwrite's passes as given, 0-15 (0: 16) */
	uint32_t pattern;	/* an overwrite's pattern */
	char command[64];	/* filled by the disk's check: the command, as "Issuing ..." names it ("": not said) */
	enum erase_kind leaves;	/* filled by the disk's check: what the erase leaves */
};

/* --format-erase: a format with a secure erase, as the disk plans it. */
struct format_request {
	bool crypto;		/* a cryptographic erase, else a user-data erase */
	bool all_namespaces;	/* filled by the check: the format erases every namespace of the subsystem */
	uint32_t cdw10;		/* filled by the check: the command, keeping the namespace's format */
};

/* --sanitize-wait: where a sanitize stands, read once a second; facts, worded by sanitize_wait.c. */
struct sanitize_poll {
	enum sanitize_phase {
		SANITIZE_RUNNING, SANITIZE_COMPLETED, SANITIZE_COMPLETED_NO_DEALLOC, SANITIZE_FAILED, SANITIZE_NONE
	} phase;
	const char *status;	/* the disk's word for it, for the JSON ("completed", "in progress", ...) */
	bool has_progress;
	unsigned int progress;	/* of 65536 */
	uint32_t estimate_s;	/* the disk's estimate for the action running; 0: none */
	enum erase_kind left;	/* what the last erase leaves, where this run did not start it */
	bool no_record;		/* SANITIZE_NONE says nothing of one that ended (SCSI): ended, if it ran */
	char detail[256];	/* SANITIZE_FAILED, SANITIZE_NONE: the disk's words for why */
	bool has_log;		/* NVMe's Sanitize Status log, below, for the JSON */
	unsigned int passes;
	bool global_erased;
	uint32_t estimates[3];	/* overwrite, block erase, crypto erase; UINT32_MAX: none */
	/* --sanitize-status's lines besides: */
	const char *state_text;	/* the "State:" line */
	unsigned int percent;	/* the progress, as the disk's standard rounds it */
	bool last_ok;		/* ATA: the last sanitize completed without error */
	bool antifreeze;	/* ATA: the antifreeze lock is set */
	bool failed_advice;	/* how the failure state is left, said with it */
	struct disk_cause cause;
};

/*
 * -I and -i: a disk's own pages (IDENTIFY and its logs, Identify
 * Controller and Namespace, INQUIRY and VPD), each kind's own struct,
 * read by it and shown by its decoder.
 */
struct disk_pages;
enum pages_form {
	PAGES_TEXT,	/* -I */
	PAGES_JSON,	/* -I with --json */
	PAGES_BRIEF,	/* -i */
	PAGES_BRIEF_JSON,	/* -i with --json, and no -I for the "identify" object */
	PAGES_RAW,	/* --Istdout, --Iraw: the page as the drive sent it */
};

/* -C: where a disk's power stands, as facts; worded by power_mode.c. */
struct disk_power_mode {
	const char *state;	/* -C's word ("standby", "idle", "active/idle", "non-operational", ...); NULL: unknown */
	int power_state;	/* NVMe: the power state; -1: none */
	bool have_descriptor;	/* NVMe: the state's descriptor, below */
	bool operational;
	char max_power[24];	/* its maximum power, as nvme_power_text() writes it */
	double max_power_watts;
	enum apst_state { APST_NONE, APST_NOT_SUPPORTED, APST_UNKNOWN, APST_DISABLED, APST_ENABLED } apst;
	char latency_limit[32];	/* the kernel's APST latency limit ("": not said) */
	struct disk_cause cause;	/* on failure; or a lesser read that failed, said before the state */
};

/* -y: the standby a disk is put in, chosen before anything is sent. */
struct disk_standby {
	int nvme_state;		/* NVMe: the non-operational power state chosen; -1: the disk's one standby */
	char max_power[24];	/* its maximum power, as nvme_power_text() writes it */
	char note[256];		/* why not a deeper one, said first ("": nothing to say) */
};

/* Who a disk is, for an erase record: its own words, trimmed ("": it has none). */
struct disk_identity {
	char model[64];		/* SCSI: vendor and product */
	char serial[96];
	char firmware[16];
	char wwn[48];		/* "naa.5000c500a1b2c3d4", "eui.0025385b71b0e7c2", "nguid.<32 hex>"; "": none */
	uint64_t capacity_bytes;	/* the disk's (a namespace's) own, whatever the kernel sees */
	const char *media;	/* "hdd", "ssd", "nvme"; NULL: the disk does not say */
	struct disk_cause cause;
};

/*
 * What an ATA drive keeps beyond the host's reach, and its locks, read just
 * before an erase: a host protected area (the native max address above the
 * accessible one), a DCO that lowers the native max, and the security state.
 */
struct disk_hidden {
	uint64_t accessible;	/* sectors the host reaches (IDENTIFY) */
	uint64_t native;	/* sectors below the native max address; 0: not read */
	uint64_t dco;		/* sectors the DCO overlay says the drive has; 0: no DCO, or not read */
	bool amac;		/* ACCESSIBLE MAX ADDRESS CONFIGURATION (ACS-3) */
	bool security_supported, security_enabled, security_locked, security_frozen;
	bool sanitize_supported;
	struct disk_cause cause;	/* a read that failed (what it would have said stays 0) */
};

/* The power conditions of ATA's EPC feature set and of SCSI's power condition mode page, in --epc's order. */
enum disk_pc { DISK_PC_IDLE_A, DISK_PC_IDLE_B, DISK_PC_IDLE_C, DISK_PC_STANDBY_Y, DISK_PC_STANDBY_Z, DISK_PCS };

/* One power condition as the disk describes it; timers in 100 ms units, a limit of 0 one it does not say. */
struct disk_pc_state {
	bool supported, saveable, changeable;
	bool default_enabled, saved_enabled, current_enabled;
	uint32_t default_timer, saved_timer, current_timer, min_timer, max_timer;
};

/* --epc: a disk's power conditions. */
struct disk_epc {
	/* in: how much to read: all; the conditions only where in force; only whether the disk has them */
	enum epc_depth { EPC_READ_ALL, EPC_READ_IF_ENABLED, EPC_READ_PRESENCE } depth;
	bool switchable;	/* they are enabled and disabled as a whole (ATA's EPC feature set) */
	bool enabled;		/* they are in force (on SCSI, always) */
	bool conditions_read;	/* pc[] holds them (not so where depth let them be) */
	const char *source;	/* where the disk keeps them, in the standard's words */
	const char *timer_limit;	/* the longest timer it counts, in words */
	struct disk_pc_state pc[DISK_PCS];
	struct disk_cause cause;
};

/* What --epc-enable, --epc-disable, --epc-timer, --epc-goto and --epc-restore ask of a disk. */
struct disk_epc_change {
	enum { EPC_SWITCH, EPC_SET, EPC_GOTO, EPC_RESTORE } what;
	enum disk_pc pc;	/* EPC_SET, EPC_GOTO */
	bool on;		/* EPC_SWITCH: enable; EPC_SET: enable with the timer, or disable */
	uint64_t tenths;	/* EPC_SET: the timer, as epc_counts() gave it */
	bool save;		/* EPC_SET, EPC_RESTORE: saved as well */
	bool from_saved;	/* EPC_RESTORE: the saved settings (else the defaults) */
};

/* A SCSI disk's background medium scan (Background Control mode page): what keeps it from its timers. */
struct disk_background_scan {
	bool enabled;		/* EN_BMS */
	bool prescan;		/* EN_PS */
	bool changeable;	/* EN_BMS may be changed */
	bool saveable;
	unsigned int interval_hours;	/* between scans (0: the disk's choice) */
	unsigned int min_idle_ms;	/* idle time before a scan starts */
	struct disk_cause cause;
};

/*
 * --set-sector-size: the block formats a disk can be formatted to, and the
 * one in use (f[current]; a disk that lists none has only that one, and
 * any other length is the disk's to refuse).
 */
struct disk_block_formats {
	struct disk_block_format {
		uint32_t data_bytes;
		uint16_t metadata_bytes;
		unsigned int performance;	/* relative performance: 0 best ... 3 degraded */
		unsigned int pi_types;		/* the protection types it takes: bit t type t, bit 0 none */
	} f[64];
	unsigned int n, current;
	const char *command;		/* what formats it ("FORMAT UNIT"), for the record */
	bool rated;			/* performance is the disk's rating (NVMe) */
	bool unlisted;			/* the disk lists no lengths: any is tried (SCSI without VPD B4h) */
	uint64_t blocks;		/* in the format in use */
	unsigned int pi_type;		/* protection information in use: 1-3, 0 none */
	unsigned int pi_types;		/* those it can take: bit 0 type 1, bit 1 type 2, bit 2 type 3 */
	struct disk_cause cause;
};

/* A format to ask for: f[index] of disk_block_formats, or where the disk lists none, bytes. */
struct disk_format_request {
	unsigned int index;
	uint32_t bytes;
	unsigned int pi_type;		/* 0: none */
};

/* Where a format started in the background stands (FORMAT UNIT with IMMED). */
struct disk_format_poll {
	bool running;
	bool failed;			/* detail says how */
	bool has_progress;
	unsigned int progress;		/* of 65536 */
	char detail[160];
	struct disk_cause cause;
};

/* Where a disk's power stands, as the commands that do not wake it say. */
enum disk_power { DISK_POWER_UNKNOWN, DISK_POWER_ACTIVE, DISK_POWER_STANDBY };

/*
 * Those commands, each done the natural way for one transport (ATA, NVMe,
 * SCSI).  Chosen once per device (disk.c); a command calls through
 * dev->disk and never asks which transport it is on.  A NULL entry: the
 * disk has no such command, and the option is refused.
 */
struct disk_ops {
	const char *kind;	/* "ATA", "NVMe", "SCSI": for messages */
	bool ata;		/* ATA commands (SET FEATURES, security, ...) reach the drive */
	bool scsi;		/* a SCSI disk without ATA pass-through */
	/* --read-sector: the geometry, and one sector read into buf (bytes long); nothing said. */
	int (*geometry)(struct device *dev, struct disk_geometry *g, struct disk_cause *c);
	int (*sector_read)(struct device *dev, uint64_t lba, void *buf, unsigned int bytes, struct disk_cause *c);
	/* TRIM: the limits (EOPNOTSUPP with l->none: the disk has none), and one command's ranges sent; nothing said. */
	int (*trim_limits)(struct device *dev, struct trim_limits *l, struct disk_cause *c);
	int (*trim_send)(struct device *dev, const struct sector_range *pieces, unsigned int n, struct disk_cause *c);
	/*
	 * -I, -i, --Istdout, --Iraw: the pages read for a form (nothing said,
	 * but a lesser read that failed may leave *c set), shown by
	 * the kind's decoder (0, or EINVAL for a page it cannot decode), the page
	 * as the drive sent it (false: none, as on SCSI), and freed.
	 */
	int (*pages_read)(struct device *dev, enum pages_form form, struct disk_pages **p, struct disk_cause *c);
	int (*pages_show)(const struct disk_pages *p, enum pages_form form);
	bool (*pages_raw)(const struct disk_pages *p, const void **bytes, size_t *len, const char **name);
	void (*pages_free)(struct disk_pages *p);
	/* -W and -A, queried (a state, which may come with a cause and an errno) and set; nothing said. */
	int (*cache_get)(struct device *dev, enum disk_cache which, enum disk_cache_state *st, struct disk_cause *c);
	int (*cache_set)(struct device *dev, enum disk_cache which, bool on, struct disk_cause *c);
	bool lookahead;		/* the disk has a read look-ahead for -A */
	/* -F: the drive's write cache out to the medium; nothing said. */
	int (*flush)(struct device *dev, struct disk_cause *c);
	/* Write the drive's cache out before a timing; nothing said, whatever happens (may be NULL). */
	void (*flush_quietly)(struct device *dev);
	/* After an erase option this disk has no command for: which options do erase it, and what it supports ("": nothing to say). */
	void (*erase_choices)(struct device *dev, char *text, size_t size);
	/* A power option this disk has no command for: how its power is managed instead. */
	void (*power_managed)(struct device *dev, char *text, size_t size);
	/*
	 * --sanitize-block-erase, -crypto-scramble, -overwrite, -exit-failure-mode:
	 * refused before anything is sent where the disk cannot (EOPNOTSUPP, *c
	 * saying why), then started; nothing said.
	 */
	int (*sanitize_check)(struct device *dev, struct sanitize_request *r, struct disk_cause *c);
	int (*sanitize_start)(struct device *dev, const struct sanitize_request *r, struct disk_cause *c);
	/* --format-erase: refused before anything is sent where the disk cannot, then the format; nothing said. */
	int (*format_check)(struct device *dev, struct format_request *r, struct disk_cause *c);
	int (*format_start)(struct device *dev, const struct format_request *r, struct disk_cause *c);
	/* --sanitize-status (after sanitize_check of SANITIZE_STATUS): the state, with the lines it has; nothing said. */
	int (*sanitize_status)(struct device *dev, struct sanitize_poll *p);
	/* --sanitize-wait: where the sanitize stands now; nothing said. */
	int (*sanitize_poll)(struct device *dev, struct sanitize_poll *p);
	/* -C: the power mode and what goes with it; 0 or an errno, nothing said. */
	int (*power_mode)(struct device *dev, struct disk_power_mode *m);
	/* The power state by a command that does not wake the disk; 0 or an errno, nothing said. */
	int (*power_state)(struct device *dev, enum disk_power *state);
	/*
	 * -y: the standby chosen (NULL: the disk has one; EOPNOTSUPP with *c: none
	 * to be had), then entered: t from standby_target, or NULL for the disk's
	 * own choice (the idle watcher); nothing said.
	 */
	int (*standby_target)(struct device *dev, struct disk_standby *t, struct disk_cause *c);
	int (*standby_now)(struct device *dev, const struct disk_standby *t, struct disk_cause *c);
	/* -Y: asleep (a SCSI disk: stopped) now, and in advice what to know after it ("": nothing); nothing said. */
	int (*sleep_now)(struct device *dev, struct disk_cause *c, char *advice, size_t size);
	/* -S: the standby timer, in ATA's encoding of it (standby.h) and in seconds (-1: none); nothing said. */
	int (*standby_timer)(struct device *dev, unsigned int value, long seconds, struct disk_cause *c);
	/* The temperature (-H), by whatever the disk keeps it in; 0 or an errno, nothing said. */
	int (*temperature)(struct device *dev, struct disk_temperature *t);
	bool temperature_wakes_nothing;	/* reading it never wakes the disk (an NVMe admin command): no power check first */
	/* --erc: the error recovery time limits (NULL: the disk has none); 0 or an errno, nothing said. */
	int (*erc_get)(struct device *dev, struct disk_erc *e);
	/* --erc READ,WRITE: set them (e's read_ds and write_ds); 0 or an errno with e->cause, nothing said. */
	int (*erc_set)(struct device *dev, struct disk_erc *e);
	/* --epc: the power conditions (EOPNOTSUPP with a cause: none); 0 or an errno, nothing said. */
	int (*epc_read)(struct device *dev, struct disk_epc *e);
	/* The time in tenths the disk will count for tenths (rounded as it counts); 0: more than it can count. */
	uint64_t (*epc_counts)(uint64_t tenths);
	/* One change of the power conditions, allowed by what epc_read said; 0 or an errno with *c, nothing said. */
	int (*epc_change)(struct device *dev, const struct disk_epc_change *ch, struct disk_cause *c);
	/* --background-scan: the background medium scan, read and switched (NULL: none); nothing said. */
	int (*background_scan_get)(struct device *dev, struct disk_background_scan *b);
	int (*background_scan_set)(struct device *dev, bool on, bool save, struct disk_cause *c);
	/* --set-sector-size: the formats on offer (EOPNOTSUPP with a cause: it cannot format), and a format to f[index] with pi_type; nothing said. */
	int (*block_formats)(struct device *dev, struct disk_block_formats *b);
	int (*block_format_set)(struct device *dev, const struct disk_format_request *r, struct disk_cause *c);
	/* --format-wait: a format block_format_set started, as it stands (NULL: its command ends with it). */
	int (*block_format_poll)(struct device *dev, struct disk_format_poll *p);
	/*
	 * --tcg: IF-RECV of a security protocol and its SP SPECIFIC field into
	 * buf (len a multiple of 512), *got the bytes that came (NULL: the disk
	 * has no such command); 0, or an errno with *c (EOPNOTSUPP: it refuses
	 * the protocol; EACCES: the kernel would not send it), nothing said.
	 */
	int (*security_recv)(struct device *dev, uint8_t protocol, uint16_t sp_specific, uint8_t *buf, size_t len,
			     size_t *got, struct disk_cause *c);
	/* IF-SEND: len bytes of buf (a multiple of 512) to a security protocol; 0 or an errno with *c, nothing said. */
	int (*security_send)(struct device *dev, uint8_t protocol, uint16_t sp_specific, const uint8_t *buf, size_t len,
			     struct disk_cause *c);
	/* Before an erase: what the disk hides from the host (NULL: nothing it can hide); nothing said. */
	int (*hidden_areas)(struct device *dev, struct disk_hidden *h);
	/* Who the disk is (an erase record's device); 0 or an errno with id->cause, nothing said. */
	int (*identity)(struct device *dev, struct disk_identity *id);
	/* How far erase option opt reaches beyond the disk named (NULL: no further); nothing said. */
	enum reach_scope (*erase_scope)(struct device *dev, enum erase_method how);
};

struct device {
	const char *path;
	int fd;
	struct run_flags run;
	const struct disk_ops *disk;	/* the transport's commands */
	/* What an ATA drive's commands keep of it, read once (ata/ata_commands.c). */
	struct ata_cache {
		bool id_valid;		/* id[] holds the drive's IDENTIFY page */
		bool id_failed;		/* IDENTIFY was tried and failed: do not retry */
		int id_error;		/* ... with this errno */
		char id_cause[160];	/* ... and this explanation */
		uint8_t identify_op;	/* 0xec (ATA) or 0xa1 (ATAPI) */
		uint16_t id[256];	/* IDENTIFY_WORDS (identify.h) */
		bool log_dir_valid;	/* log_dir holds the General Purpose Log directory */
		bool log_dir_failed;
		uint16_t log_dir[256];
	} ata;
	uint32_t nvme_nsid;	/* NVMe: the namespace (0: not NVMe, NVME_NSID_ALL: a controller node, none) */
	bool scsi_cautious;	/* SCSI behind a USB bridge: only the commands the sd driver sends there */
	const char *usb_driver;	/* behind a USB bridge: "usb-storage" or "uas" (NULL: none) */
	char usb_id[12];	/* ... the bridge's idVendor:idProduct ("": unread), for advice */
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
	bool tcg_lock_asked;	/* after a failed read: whether TCG locks the drive was asked (once a run) */
	struct disk_format_summary {
		uint32_t block_bytes;
		uint16_t metadata_bytes;
		uint64_t blocks;
		unsigned int pi_type;
	} format_before, format_wanted;	/* wanted: block_bytes and pi_type */
	bool reach_valid;	/* reach holds the disks the erase asked for reaches */
	struct reach reach;
	struct erase_run *erase;	/* the erase this run started and what it read (erasecheck.h) */
	struct record_file *record;	/* --erase-record's file, made before anything was sent (erase_record.h) */
};

#endif
