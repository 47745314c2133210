/*
 * The option table: every option's spelling, the kind and range of its
 * value, the message used when the value is bad, and its line in the
 * usage text.  The parser (hdparm.c) reads it to parse and to print -h;
 * the runner reads it to name an option in a message.
 */
#include <stdio.h>

#include "array.h"
#include "options.h"

#define LBA48_MAX ((1ULL << 48) - 1)

const struct option_desc option_table[] = {
	{ OPT_READAHEAD, 'a', NULL, ARG_OPTIONAL_NUM, 0, 2048, "filesystem-read-ahead", CLASS_ACTION, "-a   Get/set fs readahead", NULL },
	{ OPT_LOOKAHEAD, 'A', NULL, ARG_OPTIONAL_NUM, 0, 1, "look-ahead", CLASS_ACTION, "-A   Get/set the drive look-ahead flag (0/1)", NULL },
	{ OPT_BUSSTATE, 'b', NULL, ARG_OPTIONAL_NUM, 0, 2, "bus-state", CLASS_ACTION, "-b   Get/set bus state (0 == off, 1 == on, 2 == tristate)", NULL },
	{ OPT_APM, 'B', NULL, ARG_OPTIONAL_NUM, 1, 255, "power-management-mode", CLASS_ACTION, "-B   Set Advanced Power Management setting (1-255)", NULL },
	{ OPT_IO32BIT, 'c', NULL, ARG_OPTIONAL_NUM, 0, 3, "32-bit-IO", CLASS_ACTION, "-c   Get/set IDE 32-bit IO setting", NULL },
	{ OPT_POWERMODE, 'C', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-C   Check drive power mode status", NULL },
	{ OPT_DMA, 'd', NULL, ARG_OPTIONAL_NUM, 0, 1, "dma-enable", CLASS_ACTION, "-d   Get/set using_dma flag", NULL },
	{ OPT_DEFECTS, 'D', NULL, ARG_NUM, 0, 1, "defects-management", CLASS_ACTION, "-D   Enable/disable drive defect management", NULL },
	{ OPT_CDROMSPEED, 'E', NULL, ARG_NUM, 0, 255, "CDROM/DVD-speed", CLASS_ACTION, "-E   Set cd/dvd drive speed", NULL },
	{ OPT_FLUSH_BUFFERS, 'f', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-f   Flush buffer cache for device on exit", NULL },
	{ OPT_FLUSH_WCACHE, 'F', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-F   Flush drive write cache", NULL },
	{ OPT_GEOMETRY, 'g', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-g   Display drive geometry", NULL },
	{ OPT_HELP, 'h', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-h   Display terse usage information", NULL },
	{ OPT_HITACHI_TEMP, 'H', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-H   Read temperature from drive (Hitachi only)", NULL },
	{ OPT_IDENTITY, 'i', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-i   Display drive identification", NULL },
	{ OPT_IDENTIFY, 'I', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-I   Detailed/current information directly from drive", NULL },
	{ OPT_WDIDLE3, 'J', NULL, ARG_OPTIONAL_NUM, 0, 300, "WDC-idle3-timeout", CLASS_ACTION, "-J   Get/set Western DIgital \"Idle3\" timeout for a WDC \"Green\" drive (DANGEROUS)", NULL },
	{ OPT_KEEP, 'k', NULL, ARG_OPTIONAL_NUM, 0, 1, "kernel-keep-settings", CLASS_ACTION, "-k   Get/set keep_settings_over_reset flag (0/1)", NULL },
	{ OPT_DRIVE_KEEP, 'K', NULL, ARG_NUM, 0, 1, "drive-keep-settings", CLASS_ACTION, "-K   Set drive keep_features_over_reset flag (0/1)", NULL },
	{ OPT_DOORLOCK, 'L', NULL, ARG_NUM, 0, 1, "door-lock", CLASS_ACTION, "-L   Set drive doorlock (0/1) (removable harddisks only)", NULL },
	{ OPT_MULTCOUNT, 'm', NULL, ARG_OPTIONAL_NUM, 0, 64, "multmode-count", CLASS_ACTION, "-m   Get/set multiple sector count", NULL },
	{ OPT_ACOUSTIC, 'M', NULL, ARG_OPTIONAL_NUM, 0, 255, "acoustic-management", CLASS_ACTION, "-M   Get/set acoustic management (0-254, 128: quiet, 254: fast)", NULL },
	{ OPT_NOWERR, 'n', NULL, ARG_OPTIONAL_NUM, 0, 1, "ignore-write-errors", CLASS_ACTION, "-n   Get/set ignore-write-errors flag (0/1)", NULL },
	{ OPT_MAX_SECTORS, 'N', NULL, ARG_MAX_SECTORS, 1, LBA48_MAX, "sector", CLASS_ACTION, "-N   Get/set max visible number of sectors (HPA) (VERY DANGEROUS)", NULL },
	{ OPT_PIOMODE, 'p', NULL, ARG_XFERMODE, 0, 255, "PIO-mode", CLASS_ACTION, "-p   Set PIO mode on IDE interface chipset (0,1,2,3,4,...)", NULL },
	{ OPT_PREFETCH, 'P', NULL, ARG_NUM, 0, 255, "prefetch", CLASS_ACTION, "-P   Set drive prefetch count", NULL },
	{ OPT_QUIET, 'q', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-q   Change next setting quietly", NULL },
	{ OPT_QUEUE_DEPTH, 'Q', NULL, ARG_OPTIONAL_NUM, 0, 1024, "queue-depth", CLASS_ACTION, "-Q   Get/set DMA queue_depth (if supported)", NULL },
	{ OPT_READONLY, 'r', NULL, ARG_OPTIONAL_NUM, 0, 1, "read-only", CLASS_ACTION, "-r   Get/set device readonly flag (DANGEROUS to set)", NULL },
	{ OPT_WRV, 'R', NULL, ARG_OPTIONAL_NUM, 0, 3, "write-read-verify", CLASS_ACTION, "-R   Get/set device write-read-verify flag", NULL },
	{ OPT_POWERUP_STANDBY, 's', NULL, ARG_NUM, 0, 1, "powerup-in-standby", CLASS_ACTION, "-s   Set power-up in standby flag (0/1) (DANGEROUS)", NULL },
	{ OPT_STANDBY, 'S', NULL, ARG_NUM, 0, 255, "standby-interval", CLASS_ACTION, "-S   Set standby (spindown) timeout", NULL },
	{ OPT_TIMINGS, 't', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-t   Perform device read timings", NULL },
	{ OPT_CACHE_TIMINGS, 'T', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-T   Perform cache read timings", NULL },
	{ OPT_UNMASK, 'u', NULL, ARG_OPTIONAL_NUM, 0, 1, "unmask-irq", CLASS_ACTION, "-u   Get/set unmaskirq flag (0/1)", NULL },
	{ OPT_OBSOLETE_U, 'U', NULL, ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, "-U   Obsolete", NULL },
	{ OPT_DEFAULTS, 'v', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-v   Use defaults; same as -acdgkmur for IDE drives", NULL },
	{ OPT_VERSION, 'V', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-V   Display program version and exit immediately", NULL },
	{ OPT_RESET, 'w', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-w   Perform device reset (DANGEROUS)", NULL },
	{ OPT_WCACHE, 'W', NULL, ARG_OPTIONAL_NUM, 0, 1, "write-cache", CLASS_ACTION, "-W   Get/set drive write-caching flag (0/1)", NULL },
	{ OPT_OBSOLETE_X, 'x', NULL, ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, "-x   Obsolete", NULL },
	{ OPT_XFERMODE, 'X', NULL, ARG_XFERMODE, 0, 255, "transfer-mode", CLASS_ACTION, "-X   Set IDE xfer mode (DANGEROUS)", NULL },
	{ OPT_STANDBY_NOW, 'y', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-y   Put drive in standby mode", NULL },
	{ OPT_SLEEP_NOW, 'Y', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-Y   Put drive to sleep", NULL },
	{ OPT_REREAD_PARTITIONS, 'z', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-z   Re-read partition table", NULL },
	{ OPT_SEAGATE, 'Z', NULL, ARG_NONE, 0, 0, NULL, CLASS_ACTION, "-Z   Disable Seagate auto-powersaving mode", NULL },

	{ OPT_DCO_FREEZE, 0, "dco-freeze", ARG_NONE, 0, 0, NULL, CLASS_ACTION, "--dco-freeze      Freeze/lock current device configuration until next power cycle", NULL },
	{ OPT_DCO_IDENTIFY, 0, "dco-identify", ARG_NONE, 0, 0, NULL, CLASS_ACTION, "--dco-identify    Read/dump device configuration identify data", NULL },
	{ OPT_DCO_RESTORE, 0, "dco-restore", ARG_NONE, 0, 0, NULL, CLASS_ALONE, "--dco-restore     Reset device configuration back to factory defaults", NULL },
	{ OPT_DCO_SETMAX, 0, "dco-setmax", ARG_U64, 1, LBA48_MAX, "bad/missing sector value", CLASS_ALONE, "--dco-setmax      Use DCO to set maximum addressable sectors", NULL },
	{ OPT_DIRECT, 0, "direct", ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, "--direct          Use O_DIRECT to bypass page cache for timings", NULL },
	{ OPT_DRQ_HSM_ERROR, 0, "drq-hsm-error", ARG_NONE, 0, 0, NULL, CLASS_ACTION, "--drq-hsm-error   Crash system with a \"stuck DRQ\" error (VERY DANGEROUS)", NULL },
	{ OPT_FALLOCATE, 0, "fallocate", ARG_SIZE_FILE, 0, 1ULL << 53, "bad/missing block-count", CLASS_SOLE, "--fallocate       Create a file without writing data to disk", NULL },
	{ OPT_FIBMAP, 0, "fibmap", ARG_FILE, 0, 0, NULL, CLASS_SOLE, "--fibmap          Show device extents (and fragmentation) for a file", NULL },
	{ OPT_FWDOWNLOAD, 0, "fwdownload", ARG_FILE, 0, 0, NULL, CLASS_SOLE, "--fwdownload            Download firmware file to drive (EXTREMELY DANGEROUS)", NULL },
	{ OPT_FWDOWNLOAD_MODE3, 0, "fwdownload-mode3", ARG_FILE, 0, 0, NULL, CLASS_SOLE, "--fwdownload-mode3      Download firmware using min-size segments (EXTREMELY DANGEROUS)", NULL },
	{ OPT_FWDOWNLOAD_MODE3_MAX, 0, "fwdownload-mode3-max", ARG_FILE, 0, 0, NULL, CLASS_SOLE, "--fwdownload-mode3-max  Download firmware using max-size segments (EXTREMELY DANGEROUS)", NULL },
	{ OPT_FWDOWNLOAD_MODE7, 0, "fwdownload-mode7", ARG_FILE, 0, 0, NULL, CLASS_SOLE, "--fwdownload-mode7      Download firmware using a single segment (EXTREMELY DANGEROUS)", NULL },
	{ OPT_FWDOWNLOAD_MODEE, 0, "fwdownload-modee", ARG_FILE, 0, 0, NULL, CLASS_SOLE, "--fwdownload-modee      Download firmware using mode E (min-size segments) (EXTREMELY DANGEROUS)", NULL },
	{ OPT_FWDOWNLOAD_MODEE_MAX, 0, "fwdownload-modee-max", ARG_FILE, 0, 0, NULL, CLASS_SOLE, "--fwdownload-modee-max  Download firmware using mode E (max-size segments) (EXTREMELY DANGEROUS)", NULL },
	{ OPT_IDLE_IMMEDIATE, 0, "idle-immediate", ARG_NONE, 0, 0, NULL, CLASS_ACTION, "--idle-immediate  Idle drive immediately", NULL },
	{ OPT_IDLE_UNLOAD, 0, "idle-unload", ARG_NONE, 0, 0, NULL, CLASS_ACTION, "--idle-unload     Idle immediately and unload heads", NULL },
	{ OPT_IRAW, 0, "Iraw", ARG_FILE, 0, 0, NULL, CLASS_ACTION, "--Iraw filename   Write raw binary identify data to the specfied file", NULL },
	{ OPT_ISTDIN, 0, "Istdin", ARG_NONE, 0, 0, NULL, CLASS_ALONE, "--Istdin          Read identify data from stdin as ASCII hex", NULL },
	{ OPT_ISTDOUT, 0, "Istdout", ARG_NONE, 0, 0, NULL, CLASS_ACTION, "--Istdout         Write identify data to stdout as ASCII hex", NULL },
	{ OPT_MAKE_BAD_SECTOR, 0, "make-bad-sector", ARG_FLAGGED_U64, 0, LBA48_MAX, "bad/missing sector value", CLASS_ACTION, "--make-bad-sector Deliberately corrupt a sector directly on the media (VERY DANGEROUS)", NULL },
	{ OPT_OFFSET, 0, "offset", ARG_U64, 0, UINT64_MAX >> 30, "GB offset for -t flag", CLASS_ACTION, "--offset          use with -t, to begin timings at given offset (in GiB) from start of drive", NULL },
	{ OPT_PREFER_ATA12, 0, "prefer-ata12", ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, "--prefer-ata12    Use 12-byte (instead of 16-byte) SAT commands when possible", NULL },
	{ OPT_READ_SECTOR, 0, "read-sector", ARG_U64, 0, LBA48_MAX, "bad/missing sector value", CLASS_ACTION, "--read-sector     Read and dump (in hex) a sector directly from the media", NULL },
	{ OPT_REPAIR_SECTOR, 0, "repair-sector", ARG_U64, 0, LBA48_MAX, "bad/missing sector value", CLASS_SOLE, "--repair-sector   Alias for the --write-sector option (VERY DANGEROUS)", NULL },
	{ OPT_SANITIZE_ANTIFREEZE, 0, "sanitize-antifreeze-lock", ARG_NONE, 0, 0, NULL, CLASS_ALONE, "--sanitize-antifreeze-lock  Block sanitize-freeze-lock command until next power cycle", NULL },
	{ OPT_SANITIZE_BLOCK_ERASE, 0, "sanitize-block-erase", ARG_NONE, 0, 0, NULL, CLASS_ALONE, "--sanitize-block-erase      Start block erase operation", NULL },
	{ OPT_SANITIZE_CRYPTO, 0, "sanitize-crypto-scramble", ARG_NONE, 0, 0, NULL, CLASS_ALONE, "--sanitize-crypto-scramble  Change the internal encryption keys that used for used data", NULL },
	{ OPT_SANITIZE_FREEZE, 0, "sanitize-freeze-lock", ARG_NONE, 0, 0, NULL, CLASS_ALONE, "--sanitize-freeze-lock      Lock drive's sanitize features until next power cycle", NULL },
	{ OPT_SANITIZE_OVERWRITE, 0, "sanitize-overwrite", ARG_PATTERN, 0, 0, NULL, CLASS_ALONE, "--sanitize-overwrite  PATTERN  Overwrite the internal media with constant PATTERN", NULL },
	{ OPT_SANITIZE_PASSES, 0, "sanitize-overwrite-passes", ARG_U64, 0, 7, "Number of passes must be in range 0..7", CLASS_MODIFIER, "--sanitize-overwrite-passes COUNT  Number of overwrite passes from 0 to 7, default 0 means 16 passes", NULL },
	{ OPT_SANITIZE_STATUS, 0, "sanitize-status", ARG_NONE, 0, 0, NULL, CLASS_ALONE, "--sanitize-status           Show sanitize status information", NULL },
	{ OPT_SECURITY_HELP, 0, "security-help", ARG_NONE, 0, 0, NULL, CLASS_ALONE, "--security-help             Display help for ATA security commands", NULL },
	{ OPT_SET_SECTOR_SIZE, 0, "set-sector-size", ARG_U64, 0x200, 0x1080, "sector size out of range", CLASS_SOLE, "--set-sector-size           Change logical sector size of drive", NULL },
	{ OPT_TRIM_RANGES, 0, "trim-sector-ranges", ARG_RANGES, 0, LBA48_MAX, NULL, CLASS_SOLE, "--trim-sector-ranges        Tell SSD firmware to discard unneeded data sectors: lba:count ..", NULL },
	{ OPT_TRIM_STDIN, 0, "trim-sector-ranges-stdin", ARG_NONE, 0, 0, NULL, CLASS_SOLE, "--trim-sector-ranges-stdin  Same as above, but reads lba:count pairs from stdin", NULL },
	{ OPT_VERBOSE, 0, "verbose", ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, "--verbose                   Display extra diagnostics from some commands", NULL },
	{ OPT_WRITE_SECTOR, 0, "write-sector", ARG_U64, 0, LBA48_MAX, "bad/missing sector value", CLASS_SOLE, "--write-sector              Repair/overwrite a (possibly bad) sector directly on the media (VERY DANGEROUS)", NULL },

	/* Listed by --security-help rather than -h, as in 9.65. */
	{ OPT_SECURITY_FREEZE, 0, "security-freeze", ARG_NONE, 0, 0, NULL, CLASS_ACTION, NULL, NULL },
	{ OPT_SECURITY_UNLOCK, 0, "security-unlock", ARG_PASSWORD, 0, 0, NULL, CLASS_ALONE, NULL, NULL },
	{ OPT_SECURITY_SET_PASS, 0, "security-set-pass", ARG_PASSWORD, 0, 0, NULL, CLASS_ALONE, NULL, NULL },
	{ OPT_SECURITY_DISABLE, 0, "security-disable", ARG_PASSWORD, 0, 0, NULL, CLASS_ALONE, NULL, NULL },
	{ OPT_SECURITY_ERASE, 0, "security-erase", ARG_PASSWORD, 0, 0, NULL, CLASS_ALONE, NULL, NULL },
	{ OPT_SECURITY_ERASE_ENHANCED, 0, "security-erase-enhanced", ARG_PASSWORD, 0, 0, NULL, CLASS_ALONE, NULL, NULL },
	{ OPT_SECURITY_MODE, 0, "security-mode", ARG_LETTER, 0, 0, "security level", CLASS_MODIFIER, NULL, "hm" },
	{ OPT_USER_MASTER, 0, "user-master", ARG_LETTER, 0, 0, "password type", CLASS_MODIFIER, NULL, "um" },
	{ OPT_SECURITY_PROMPT, 0, "security-prompt-for-password", ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, NULL, NULL },

	/* Confirmation flags: not in 9.65's -h, listed at the end of ours. */
	{ OPT_YES_I_KNOW, 0, "yes-i-know-what-i-am-doing", ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, "--yes-i-know-what-i-am-doing  Confirm a DANGEROUS option", NULL },
	{ OPT_PLEASE_DESTROY, 0, "please-destroy-my-drive", ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, "--please-destroy-my-drive     Confirm an EXTREMELY DANGEROUS option", NULL },

	/* Ours. */
	{ OPT_IODEPTH, 0, "iodepth", ARG_U64, 1, 256, "the number of requests in flight must be 1 to 256", CLASS_MODIFIER, "--iodepth N                   With -t or --seeks: N O_DIRECT requests in flight (1-256)", NULL },
	{ OPT_BLOCK_SIZE, 0, "block-size", ARG_U64, 4, 65536, "the block size must be 4 to 65536 KiB", CLASS_MODIFIER, "--block-size KiB              Request size for --iodepth and --seeks (4-65536)", NULL },
	{ OPT_SEEKS, 0, "seeks", ARG_NONE, 0, 0, NULL, CLASS_ACTION, "--seeks                       Time random O_DIRECT reads: seeks/sec and latency", NULL },
	{ OPT_SANITIZE_WAIT, 0, "sanitize-wait", ARG_NONE, 0, 0, NULL, CLASS_ACTION, "--sanitize-wait               Wait for a sanitize operation to end, showing its progress", NULL },
	{ OPT_JSON, 0, "json", ARG_NONE, 0, 0, NULL, CLASS_MODIFIER, "--json                        Print one JSON document instead of text (schema: hdparm.8)", NULL },
};

const size_t option_count = ARRAY_SIZE(option_table);

const char *option_name(enum opt_id opt)
{
	static char buf[48];

	for (size_t i = 0; i < option_count; i++) {
		if (option_table[i].id != opt)
			continue;
		if (option_table[i].letter)
			snprintf(buf, sizeof(buf), "-%c", option_table[i].letter);
		else
			snprintf(buf, sizeof(buf), "--%s", option_table[i].name);
		return buf;
	}
	return "?";
}

