/*
 * What the command line asked, one value slot per option: the parser
 * (hdparm.c) fills it, every step reads it.  A low header, so that the
 * commands and transports need nothing of the option table (run/options.h),
 * which names them: each value carries its option's name for messages.
 */
#ifndef HDPARM_VALUES_H
#define HDPARM_VALUES_H

#include <stdbool.h>
#include <stdint.h>
#include "sector_range.h"

/* Every option hdparm knows; the table in run/options.c describes each one. */
enum opt_id {
	OPT_READAHEAD, OPT_LOOKAHEAD, OPT_BUSSTATE, OPT_APM, OPT_IO32BIT, OPT_POWERMODE,
	OPT_DMA, OPT_DEFECTS, OPT_CDROMSPEED, OPT_FLUSH_BUFFERS, OPT_FLUSH_WCACHE, OPT_GEOMETRY,
	OPT_HELP, OPT_TEMPERATURE, OPT_IDENTITY, OPT_IDENTIFY, OPT_WDIDLE3, OPT_KEEP,
	OPT_DRIVE_KEEP, OPT_DOORLOCK, OPT_MULTCOUNT, OPT_ACOUSTIC, OPT_NOWERR, OPT_MAX_SECTORS,
	OPT_PIOMODE, OPT_PREFETCH, OPT_QUIET, OPT_QUEUE_DEPTH, OPT_READONLY, OPT_WRV,
	OPT_POWERUP_STANDBY, OPT_STANDBY, OPT_TIMINGS, OPT_CACHE_TIMINGS, OPT_UNMASK,
	OPT_OBSOLETE_U, OPT_DEFAULTS, OPT_VERSION, OPT_RESET, OPT_WCACHE, OPT_OBSOLETE_X,
	OPT_XFERMODE, OPT_STANDBY_NOW, OPT_SLEEP_NOW, OPT_REREAD_PARTITIONS, OPT_SEAGATE,
	OPT_DCO_FREEZE, OPT_DCO_IDENTIFY, OPT_DCO_RESTORE, OPT_DCO_SETMAX, OPT_DIRECT,
	OPT_DRQ_HSM_ERROR, OPT_FALLOCATE, OPT_FIBMAP, OPT_FWDOWNLOAD, OPT_FWDOWNLOAD_MODE3,
	OPT_FWDOWNLOAD_MODE3_MAX, OPT_FWDOWNLOAD_MODE7, OPT_FWDOWNLOAD_MODEE,
	OPT_FWDOWNLOAD_MODEE_MAX, OPT_IDLE_IMMEDIATE, OPT_IDLE_UNLOAD, OPT_IRAW, OPT_ISTDIN,
	OPT_ISTDOUT, OPT_MAKE_BAD_SECTOR, OPT_OFFSET, OPT_PREFER_ATA12, OPT_READ_SECTOR,
	OPT_REPAIR_SECTOR, OPT_SANITIZE_ANTIFREEZE, OPT_SANITIZE_BLOCK_ERASE,
	OPT_SANITIZE_CRYPTO, OPT_SANITIZE_FREEZE, OPT_SANITIZE_OVERWRITE,
	OPT_SANITIZE_PASSES, OPT_SANITIZE_STATUS, OPT_SECURITY_HELP, OPT_SET_SECTOR_SIZE,
	OPT_TRIM_RANGES, OPT_TRIM_STDIN, OPT_VERBOSE, OPT_WRITE_SECTOR,
	OPT_SECURITY_FREEZE, OPT_SECURITY_UNLOCK, OPT_SECURITY_SET_PASS,
	OPT_SECURITY_DISABLE, OPT_SECURITY_ERASE, OPT_SECURITY_ERASE_ENHANCED,
	OPT_SECURITY_MODE, OPT_USER_MASTER, OPT_SECURITY_PROMPT, OPT_YES_I_KNOW,
	OPT_PLEASE_DESTROY, OPT_JSON, OPT_IODEPTH, OPT_BLOCK_SIZE, OPT_SEEKS, OPT_SANITIZE_WAIT,
	OPT_SANITIZE_NO_DEALLOC, OPT_SANITIZE_AUSE, OPT_SANITIZE_EXIT_FAILURE, OPT_FORMAT_ERASE,
	OPT_EPC, OPT_EPC_ENABLE, OPT_EPC_DISABLE, OPT_EPC_TIMER, OPT_EPC_GOTO, OPT_EPC_RESTORE, OPT_BACKGROUND_SCAN, OPT_USB_TRIM, OPT_IDLE_SPINDOWN, OPT_WHY,
	OPT_ERASE_VERIFY, OPT_ERASE_RECORD, OPT_ERASE_OPERATOR, OPT_CONTINUE_ON_REFUSAL, OPT_ERC,
	OPT_APPLY_CONFIG, OPT_CHECK_CONFIG, OPT_IDLE_CONFIG, OPT_SETTINGS_ONLY,
	OPT_PROTECTION_INFO, OPT_LBAF, OPT_FORMAT_WAIT, OPT_TCG, OPT_TCG_PSID_REVERT, OPT_METRICS, OPT_METRICS_FILE,
	OPT_FW_SLOT, OPT_FW_ACTIVATE_NOW, OPT_POWER_ON_HOURS,
	OPT_SURFACE_SCAN, OPT_SCAN_RANGE, OPT_SCAN_ERRORS_MAX, OPT_SCAN_PICTURE, OPT_SCAN_MAP, OPT_SCAN_VERIFY,
	OPT_SCAN_REPAIR, OPT_SCAN_DEPTH, OPT_BRIDGE,
	OPT_SELF_TEST, OPT_SELF_TEST_WAIT,
	OPT_CONDITION,
	OPT_COUNT
};

/* What the command line said about one option. */
struct opt_value {
	bool given;		/* it appeared */
	bool noisy;		/* not silenced by a -q just before it */
	bool has_value;		/* a value came with it (the "set" form) */
	bool flag;		/* -N's 'p', --make-bad-sector's 'f', ",save" */
	uint64_t num;		/* the number; ARG_WORD: the word's place in the row's list */
	uint64_t num2;		/* ARG_OPTIONAL_PAIR: the second number (num again where one was given) */
	const char *str;	/* file name, password, mode letter, word */
	char name[32];		/* as the option is spelled in messages: "-S", "--read-sector" */
};

/* Everything that applies to one device: options accumulate left to right. */
struct settings {
	struct opt_value v[OPT_COUNT];
	bool defaults;		/* no option before the first device: the -v query set */
	bool quiet;		/* a -q was seen: no device header */
	struct sector_range *ranges;
	unsigned int nranges;
};

#endif
