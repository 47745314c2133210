/*
 * The facts a kind of disk returns to the operations, and the requests it
 * takes from them: plain structs that carry no state of the run (that is
 * in device.h) and name no kind.  Filled by the kinds' functions
 * (disk_ops.h), worded by the operations.
 */
#ifndef HDPARM_DISK_FACTS_H
#define HDPARM_DISK_FACTS_H

#include <stdbool.h>
#include <stdint.h>

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

/* What a disk says of its firmware (--fwdownload's plan, -I's slots): facts, worded by the operation. */
#define DISK_FW_SLOTS 7
struct disk_firmware {
	char revision[41];		/* the image running now ("": not said) */
	bool can_download;		/* the disk takes a download (else cause.why says why not) */
	unsigned int slots;		/* its slots (0: one image, no slots) */
	bool slot1_read_only, activate_now;	/* slot 1 is not written; an image can be activated without a reset */
	bool slots_read;		/* the slot log was read: active_slot, next_slot and slot_revision say what it said */
	unsigned int active_slot, next_slot;	/* the slot running, the one after the next reset (0: not said) */
	char slot_revision[DISK_FW_SLOTS + 1][9];	/* [1..slots]: each slot's image ("": empty) */
	uint32_t piece;			/* the bytes of each download piece the disk takes (the last may be shorter) */
	bool one_piece;			/* the disk takes no offsets: the whole image in one piece of at most piece bytes */
	bool saved_as_sent;		/* the last piece saves the image (SCSI): the commit only activates it now */
	uint32_t granularity;		/* the image must be whole pieces of this many bytes (1: any) */
	uint32_t image_max;		/* the largest image the command's offset field reaches (0: no such bound) */
	unsigned int kind_plan;		/* the kind's own choice of command (SCSI: the WRITE BUFFER mode) */
	bool activated_with_download;	/* the last piece activated the image (no deferral): said, and read back */
	struct disk_cause cause;
};

/* How a commit ended: the image is in its slot either way where a reset is still needed. */
enum firmware_commit {
	FW_COMMITTED,			/* replaced; active now, or at the next reset as asked */
	FW_NEEDS_CONVENTIONAL_RESET,	/* in its slot; active after a conventional reset (a power cycle) */
	FW_NEEDS_SUBSYSTEM_RESET, FW_NEEDS_CONTROLLER_RESET,	/* ... after an NVM subsystem, a controller level reset */
	FW_COMMIT_FAILED,		/* cause.why says why, and what to do */
};

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

/* --power-on-hours: how long the disk has been powered on in its life, as it counts it. */
struct disk_power_on {
	uint64_t hours;
	int minutes;		/* and minutes, where the disk counts them (SCSI); -1: it counts hours */
	const char *source;	/* where the disk keeps it, in the standard's words */
	struct disk_cause cause;	/* on failure: what failed, and why */
};

/*
 * --scan-repair: the counts a drive keeps of the sectors it could not read
 * and of those it replaced, before the repair and after (ATA SMART
 * attributes 5, 197, 198; NVMe's media errors; SCSI's uncorrected errors
 * and grown defects).  key: the JSON key; label: the text's words.
 */
#define DISK_ERROR_COUNTS 4
struct disk_error_counts {
	struct disk_error_count {
		const char *key, *label;
		uint64_t value;
	} c[DISK_ERROR_COUNTS];
	unsigned int n;
	const char *source;	/* where the disk keeps them, in the standard's words */
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

/*
 * TRIM over USB: the disk's own word on whether it takes a discard, asked through the bridge in
 * front of it (an NVMe drive's Identify Controller ONCS bit 2, Dataset Management, whose Deallocate
 * a bridge turns an UNMAP into).
 */
struct disk_discard {
	bool has;
	const char *command;	/* what the disk calls a discard: "Deallocate" */
	const char *source;	/* the field that says it: "Identify Controller ONCS bit 2" */
	char value[32];		/* the field's word as read, for a refusal: "ONCS 0159h" */
	struct disk_cause cause;	/* on failure: what failed, and why */
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

/*
 * Where a disk's power stands, as the commands that do not wake it say:
 * each kind decodes its answer into one of these once, for -C, --metrics
 * and the checks that must not wake a disk.  Only STANDBY is asleep (a
 * disk in SLEEP answers nothing); IDLE is awake, spun up.
 */
enum disk_power { DISK_POWER_UNKNOWN, DISK_POWER_ACTIVE, DISK_POWER_IDLE, DISK_POWER_STANDBY };

/* -C: where a disk's power stands, as facts; worded by power_mode.c. */
struct disk_power_mode {
	const char *state;	/* -C's word ("standby", "idle", "active/idle", "non-operational", ...); NULL: unknown */
	enum disk_power power;	/* the same answer as a state (ATA: -C's "unknown" for 01h is STANDBY) */
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

#endif
