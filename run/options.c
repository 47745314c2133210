/*
 * The option table: every option's spelling, the kind and range of its
 * value, the message used when the value is bad, its line in the usage
 * text, the confirmation it needs, its /etc/hdparm.conf key and its steps
 * with their place in 9.65's order.  The parser (cli/hdparm.c) reads it to
 * parse and to print -h; the runner (actions.c) to run the steps, to name
 * an option in a message and to refuse a dangerous one before anything is
 * sent.
 */
#include <stdio.h>

#include "array.h"
#include "options.h"

#include "background_scan.h"
#include "benchmark.h"
#include "blockdev.h"
#include "ata_features.h"
#include "cache.h"
#include "condition.h"
#include "dco.h"
#include "describe.h"
#include "epc.h"
#include "erc.h"
#include "firmware.h"
#include "firmware_update.h"
#include "flush.h"
#include "iodepth.h"
#include "format_erase.h"
#include "max_address.h"
#include "power_mode.h"
#include "power_now.h"
#include "power_on.h"
#include "read_sector.h"
#include "sanitize.h"
#include "sanitize_start.h"
#include "sanitize_status.h"
#include "sanitize_wait.h"
#include "self_test.h"
#include "sector_format.h"
#include "sectors.h"
#include "scan_check.h"
#include "surface_scan.h"
#include "security.h"
#include "standby_timer.h"
#include "tcg_revert.h"
#include "tcg_status.h"
#include "temperature.h"
#include "trim.h"
#include "usb_trim.h"
#include "wdidle3.h"

#define LBA48_MAX ((1ULL << 48) - 1)

#define SCAN_REPAIR_WARNING "You are trying to write each sector the scan cannot read (with zeros where it cannot be read).\nWhat those sectors held is lost."
#define WRITE_SECTOR_WARNING "You are trying to deliberately overwrite a low-level sector on the media.\nThis is a BAD idea, and can easily result in total data loss."
#define SANITIZE_WARNING "This sanitize command destroys all user data."
#define PSID_REVERT_WARNING "A PSID revert returns the drive to its factory state: every locking range is erased (its key replaced) and every TCG password and setting is gone."
#define FORMAT_ERASE_WARNING "This format erases all user data of the namespace (of every namespace, where the controller says a secure erase reaches them all)."
/* The EPC power conditions by name, as --epc prints them (in lower case). */
#define EPC_CONDITIONS ((const char *const[]){ "idle_a", "idle_b", "idle_c", "standby_y", "standby_z", NULL })
#define FWDOWNLOAD_YES "This flag has not been tested with many drives to date.\nYou are trying to deliberately overwrite the drive firmware with the contents of the specified file.\nIf this fails, your drive could be toast."
#define FWDOWNLOAD_DESTROY "This might destroy the drive and well as all of the data on it."

/* Steps: where in 9.65's order (IN_SETTINGS + n, ...), when, and the function that runs. */
#define STEP(at_, when_, fn) { .at = (at_), .when = (when_), .run = (fn) }
/* An ATA command: refused on NVMe and SCSI disks. */
#define ATA_STEP(at_, when_, fn) { .at = (at_), .when = (when_), .run = (fn), .ata_only = true }
/* A query that -v (or no option) runs too. */
#define DEFAULT_QUERY(at_, fn) { .at = (at_), .when = WHEN_QUERY, .run = (fn), .in_defaults = true }
/* An ATA erase: where refused, the disk says what erases it instead. */
#define ATA_ERASE_STEP(at_, fn, chk) \
	{ .at = (at_), .when = WHEN_GIVEN, .run = (fn), .ata_only = true, .hint = HINT_ERASE, .check = (chk) }
/* An erase on any disk, with the check that comes before it. */
#define ERASE_STEP(at_, fn, chk) { .at = (at_), .when = WHEN_GIVEN, .run = (fn), .check = (chk) }
/* An ATA power setting: where refused, the disk says how its power is managed instead. */
#define POWER_STEP(at_, when_, fn) { .at = (at_), .when = (when_), .run = (fn), .ata_only = true, .hint = HINT_POWER }

/*
 * Rows in designated initialisers; what a row leaves out is 0: no letter,
 * no long name, no value (ARG_NONE), CLASS_ACTION, nothing to confirm.
 * Options listed with "DANGEROUS" in -h carry their confirmation: the
 * flags they need, which of their uses need them, and the warning.
 */
const struct option_desc option_table[] = {
	{ .id = OPT_READAHEAD, .letter = 'a', .arg = ARG_OPTIONAL_NUM, .max = 2048, .what = "filesystem-read-ahead", .usage = "-a   Get/set fs readahead", .config = { "read_ahead_sect", KEY_NUMBER }, .steps = { STEP(IN_SETTINGS + 60, WHEN_SET, set_kernel_setting), DEFAULT_QUERY(IN_QUERIES + 90, get_kernel_setting) } },
	{ .id = OPT_LOOKAHEAD, .letter = 'A', .arg = ARG_OPTIONAL_NUM, .max = 1, .what = "look-ahead", .usage = "-A   Get/set the drive look-ahead flag (0/1)", .config = { "lookahead", KEY_ON_OFF }, .steps = { STEP(IN_SETTINGS + 210, WHEN_SET, cache_set_step), STEP(IN_QUERIES + 170, WHEN_QUERY, cache_get_step) } },
	{ .id = OPT_BUSSTATE, .letter = 'b', .arg = ARG_OPTIONAL_NUM, .max = 2, .what = "bus-state", .usage = "-b   Get/set bus state (0 == off, 1 == on, 2 == tristate)", .config = { "bus", KEY_ON_OFF }, .steps = { STEP(IN_SETTINGS + 570, WHEN_SET, set_kernel_setting), STEP(IN_QUERIES + 230, WHEN_QUERY, get_kernel_setting) } },
	{ .id = OPT_APM, .letter = 'B', .arg = ARG_OPTIONAL_NUM, .min = 1, .max = 255, .what = "power-management-mode", .usage = "-B   Set Advanced Power Management setting (1-255)", .config = { "apm", KEY_NUMBER, "apm_battery" }, .steps = { POWER_STEP(IN_SETTINGS + 230, WHEN_SET, set_drive_feature), ATA_STEP(IN_QUERIES + 200, WHEN_QUERY, get_drive_feature) } },
	{ .id = OPT_IO32BIT, .letter = 'c', .arg = ARG_OPTIONAL_NUM, .max = 3, .what = "32-bit-IO", .usage = "-c   Get/set IDE 32-bit IO setting", .config = { "io32_support", KEY_NUMBER }, .steps = { STEP(IN_SETTINGS + 80, WHEN_SET, set_kernel_setting), DEFAULT_QUERY(IN_QUERIES + 20, get_kernel_setting) } },
	{ .id = OPT_POWERMODE, .letter = 'C', .usage = "-C   Check drive power mode status", .steps = { STEP(IN_QUERIES + 120, WHEN_NOISY, power_mode_step) } },
	{ .id = OPT_DMA, .letter = 'd', .arg = ARG_OPTIONAL_NUM, .max = 1, .what = "dma-enable", .usage = "-d   Get/set using_dma flag", .config = { "dma", KEY_ON_OFF }, .steps = { STEP(IN_SETTINGS + 120, WHEN_SET, set_kernel_setting), DEFAULT_QUERY(IN_QUERIES + 40, get_kernel_setting) } },
	{ .id = OPT_DEFECTS, .letter = 'D', .arg = ARG_NUM, .max = 1, .what = "defects-management", .usage = "-D   Enable/disable drive defect management", .config = { "defect_mana", KEY_ON_OFF }, .steps = { ATA_STEP(IN_SETTINGS + 180, WHEN_SET, set_drive_feature) } },
	{ .id = OPT_CDROMSPEED, .letter = 'E', .arg = ARG_NUM, .max = 255, .what = "CDROM/DVD-speed", .usage = "-E   Set cd/dvd drive speed", .config = { "cd_speed", KEY_NUMBER }, .steps = { STEP(IN_SETTINGS + 240, WHEN_SET, set_cdrom_speed) } },
	{ .id = OPT_FLUSH_BUFFERS, .letter = 'f', .usage = "-f   Flush buffer cache for device on exit", .steps = { STEP(IN_LAST + 50, WHEN_GIVEN, flush_buffers) } },
	{ .id = OPT_FLUSH_WCACHE, .letter = 'F', .usage = "-F   Flush drive write cache", .steps = { STEP(IN_LAST + 20, WHEN_GIVEN, flush_step) } },
	{ .id = OPT_GEOMETRY, .letter = 'g', .usage = "-g   Display drive geometry", .steps = { { .at = IN_QUERIES + 100, .when = WHEN_GIVEN, .run = get_geometry, .in_defaults = true } } },
	{ .id = OPT_HELP, .letter = 'h', .usage = "-h   Display terse usage information" },
	/* Every kind of disk (ops/any_disk/temperature.c); the usage line is 9.65's, word for word. */
	{ .id = OPT_TEMPERATURE, .letter = 'H', .usage = "-H   Read temperature from drive (Hitachi only)", .steps = { STEP(IN_SETTINGS + 720, WHEN_NOISY, temperature_step) } },
	{ .id = OPT_IDENTITY, .letter = 'i', .usage = "-i   Display drive identification", .steps = { STEP(IN_QUERIES + 130, WHEN_GIVEN, describe_step) } },
	{ .id = OPT_IDENTIFY, .letter = 'I', .usage = "-I   Detailed/current information directly from drive", .steps = { STEP(IN_QUERIES + 140, WHEN_GIVEN, describe_step) } },
	{ .id = OPT_WDIDLE3, .letter = 'J', .arg = ARG_OPTIONAL_NUM, .max = 300, .what = "WDC-idle3-timeout", .usage = "-J   Get/set Western DIgital \"Idle3\" timeout for a WDC \"Green\" drive (DANGEROUS)", .confirm = { .needs = NEED_DESTROY, .form = SET_FORM, .label = "-J", .why = "This implementation is not as thorough as the official WDIDLE3.EXE. Use at your own risk!" }, .steps = { ATA_STEP(IN_SETTINGS + 50, WHEN_SET, set_wdidle3), ATA_STEP(IN_QUERIES + 110, WHEN_QUERY, get_wdidle3) } },
	{ .id = OPT_KEEP, .letter = 'k', .arg = ARG_OPTIONAL_NUM, .max = 1, .what = "kernel-keep-settings", .usage = "-k   Get/set keep_settings_over_reset flag (0/1)", .config = { "keep_settings_over_reset", KEY_ON_OFF }, .steps = { STEP(IN_SETTINGS + 150, WHEN_SET, set_kernel_setting), DEFAULT_QUERY(IN_QUERIES + 60, get_kernel_setting) } },
	{ .id = OPT_DRIVE_KEEP, .letter = 'K', .arg = ARG_NUM, .max = 1, .what = "drive-keep-settings", .usage = "-K   Set drive keep_features_over_reset flag (0/1)", .config = { "keep_features_over_reset", KEY_ON_OFF }, .steps = { ATA_STEP(IN_SETTINGS + 170, WHEN_SET, set_drive_feature) } },
	{ .id = OPT_DOORLOCK, .letter = 'L', .arg = ARG_NUM, .max = 1, .what = "door-lock", .usage = "-L   Set drive doorlock (0/1) (removable harddisks only)", .steps = { ATA_STEP(IN_SETTINGS + 160, WHEN_SET, set_drive_feature) } },
	{ .id = OPT_MULTCOUNT, .letter = 'm', .arg = ARG_OPTIONAL_NUM, .max = 64, .what = "multmode-count", .usage = "-m   Get/set multiple sector count", .config = { "mult_sect_io", KEY_NUMBER }, .steps = { ATA_STEP(IN_SETTINGS + 90, WHEN_SET, set_multcount), DEFAULT_QUERY(IN_QUERIES + 10, get_multcount) } },
	{ .id = OPT_ACOUSTIC, .letter = 'M', .arg = ARG_OPTIONAL_NUM, .max = 255, .what = "acoustic-management", .usage = "-M   Get/set acoustic management (0-254, 128: quiet, 254: fast)", .config = { "acoustic_management", KEY_NUMBER }, .steps = { ATA_STEP(IN_SETTINGS + 250, WHEN_SET, set_drive_feature), ATA_STEP(IN_QUERIES + 210, WHEN_QUERY, get_drive_feature) } },
	{ .id = OPT_NOWERR, .letter = 'n', .arg = ARG_OPTIONAL_NUM, .max = 1, .what = "ignore-write-errors", .usage = "-n   Get/set ignore-write-errors flag (0/1)", .steps = { STEP(IN_SETTINGS + 140, WHEN_SET, set_kernel_setting), STEP(IN_QUERIES + 70, WHEN_QUERY, get_kernel_setting) } },
	{ .id = OPT_MAX_SECTORS, .letter = 'N', .arg = ARG_MAX_SECTORS, .min = 1, .max = LBA48_MAX, .what = "sector", .usage = "-N   Get/set max visible number of sectors (HPA) (VERY DANGEROUS)", .confirm = { .needs = NEED_IN_STEP, .form = SET_FORM, .writes_medium = true }, .steps = { ATA_STEP(IN_SETTINGS + 580, WHEN_SET, set_max_sectors), ATA_STEP(IN_QUERIES + 240, WHEN_QUERY, get_max_sectors) } },
	{ .id = OPT_PIOMODE, .letter = 'p', .arg = ARG_XFERMODE, .max = 255, .what = "PIO-mode", .usage = "-p   Set PIO mode on IDE interface chipset (0,1,2,3,4,...)", .config = { "chipset_pio_mode", KEY_OPTION_VALUE }, .steps = { STEP(IN_SETTINGS + 70, WHEN_SET, set_pio_mode) } },
	{ .id = OPT_PREFETCH, .letter = 'P', .arg = ARG_NUM, .max = 255, .what = "prefetch", .usage = "-P   Set drive prefetch count", .config = { "prefetch_sect", KEY_NUMBER }, .steps = { ATA_STEP(IN_SETTINGS + 190, WHEN_SET, set_drive_feature) } },
	{ .id = OPT_QUIET, .letter = 'q', .usage = "-q   Change next setting quietly", .config = { "quiet", KEY_BARE } },
	{ .id = OPT_QUEUE_DEPTH, .letter = 'Q', .arg = ARG_OPTIONAL_NUM, .max = 1024, .what = "queue-depth", .usage = "-Q   Get/set DMA queue_depth (if supported)", .steps = { STEP(IN_SETTINGS + 130, WHEN_SET, set_queue_depth), STEP(IN_QUERIES + 50, WHEN_QUERY, get_queue_depth) } },
	{ .id = OPT_READONLY, .letter = 'r', .arg = ARG_OPTIONAL_NUM, .max = 1, .what = "read-only", .usage = "-r   Get/set device readonly flag (DANGEROUS to set)", .config = { "read_only", KEY_ON_OFF }, .steps = { STEP(IN_SETTINGS + 100, WHEN_SET, set_kernel_setting), DEFAULT_QUERY(IN_QUERIES + 80, get_kernel_setting) } },
	{ .id = OPT_WRV, .letter = 'R', .arg = ARG_OPTIONAL_NUM, .max = 3, .what = "write-read-verify", .usage = "-R   Get/set device write-read-verify flag", .config = { "write_read_verify", KEY_ON_OFF }, .steps = { ATA_STEP(IN_SETTINGS + 260, WHEN_SET, set_drive_feature), ATA_STEP(IN_QUERIES + 220, WHEN_QUERY, get_drive_feature) } },
	{ .id = OPT_POWERUP_STANDBY, .letter = 's', .arg = ARG_NUM, .max = 1, .what = "powerup-in-standby", .usage = "-s   Set power-up in standby flag (0/1) (DANGEROUS)", .confirm = { .needs = NEED_YES, .form = NONZERO_VALUE, .label = "-s1", .why = "This requires BIOS and kernel support to recognize/boot the drive." }, .config = { "poweron_standby", KEY_ON_OFF }, .steps = { ATA_STEP(IN_SETTINGS + 220, WHEN_SET, set_powerup_standby) } },
	{ .id = OPT_STANDBY, .letter = 'S', .arg = ARG_NUM, .max = 255, .what = "standby-interval", .usage = "-S   Set standby (spindown) timeout", .config = { "spindown_time", KEY_NUMBER }, .steps = { STEP(IN_SETTINGS + 290, WHEN_SET, standby_timer_step) } },
	{ .id = OPT_TIMINGS, .letter = 't', .usage = "-t   Perform device read timings", .steps = { STEP(IN_LAST + 30, WHEN_GIVEN, time_device_reads) } },
	{ .id = OPT_CACHE_TIMINGS, .letter = 'T', .usage = "-T   Perform cache read timings", .steps = { STEP(IN_LAST + 10, WHEN_GIVEN, time_cached_reads) } },
	{ .id = OPT_UNMASK, .letter = 'u', .arg = ARG_OPTIONAL_NUM, .max = 1, .what = "unmask-irq", .usage = "-u   Get/set unmaskirq flag (0/1)", .config = { "interrupt_unmask", KEY_ON_OFF }, .steps = { STEP(IN_SETTINGS + 110, WHEN_SET, set_kernel_setting), DEFAULT_QUERY(IN_QUERIES + 30, get_kernel_setting) } },
	{ .id = OPT_OBSOLETE_U, .letter = 'U', .cls = CLASS_MODIFIER, .usage = "-U   Obsolete" },
	{ .id = OPT_DEFAULTS, .letter = 'v', .usage = "-v   Use defaults; same as -acdgkmur for IDE drives" },
	{ .id = OPT_VERSION, .letter = 'V', .usage = "-V   Display program version and exit immediately" },
	{ .id = OPT_RESET, .letter = 'w', .usage = "-w   Perform device reset (DANGEROUS)", .steps = { STEP(IN_LAST + 110, WHEN_GIVEN, device_reset) } },
	{ .id = OPT_WCACHE, .letter = 'W', .arg = ARG_OPTIONAL_NUM, .max = 1, .what = "write-cache", .usage = "-W   Get/set drive write-caching flag (0/1)", .config = { "write_cache", KEY_ON_OFF }, .steps = { STEP(IN_SETTINGS + 270, WHEN_SET, cache_set_step), STEP(IN_QUERIES + 180, WHEN_QUERY, cache_get_step) } },
	{ .id = OPT_OBSOLETE_X, .letter = 'x', .cls = CLASS_MODIFIER, .usage = "-x   Obsolete" },
	{ .id = OPT_XFERMODE, .letter = 'X', .arg = ARG_XFERMODE, .max = 255, .what = "transfer-mode", .usage = "-X   Set IDE xfer mode (DANGEROUS)", .config = { "transfer_mode", KEY_OPTION_VALUE }, .steps = { ATA_STEP(IN_SETTINGS + 200, WHEN_SET, set_drive_feature) } },
	{ .id = OPT_STANDBY_NOW, .letter = 'y', .usage = "-y   Put drive in standby mode", .config = { "standby", KEY_BARE }, .steps = { STEP(IN_LAST + 80, WHEN_GIVEN, power_now_step) } },
	{ .id = OPT_SLEEP_NOW, .letter = 'Y', .usage = "-Y   Put drive to sleep", .config = { "sleep", KEY_BARE }, .steps = { STEP(IN_LAST + 100, WHEN_GIVEN, power_now_step) } },
	{ .id = OPT_REREAD_PARTITIONS, .letter = 'z', .usage = "-z   Re-read partition table", .steps = { STEP(IN_LAST + 60, WHEN_GIVEN, reread_partitions) } },
	{ .id = OPT_SEAGATE, .letter = 'Z', .usage = "-Z   Disable Seagate auto-powersaving mode", .config = { "disable_seagate", KEY_BARE }, .steps = { ATA_STEP(IN_SETTINGS + 560, WHEN_GIVEN, power_command) } },

	{ .id = OPT_DCO_FREEZE, .name = "dco-freeze", .usage = "--dco-freeze      Freeze/lock current device configuration until next power cycle", .steps = { ATA_STEP(IN_SETTINGS + 530, WHEN_GIVEN, dco_step) } },
	{ .id = OPT_DCO_IDENTIFY, .name = "dco-identify", .usage = "--dco-identify    Read/dump device configuration identify data", .steps = { ATA_STEP(IN_SETTINGS + 510, WHEN_GIVEN, dco_step) } },
	{ .id = OPT_DCO_RESTORE, .name = "dco-restore", .cls = CLASS_ALONE, .usage = "--dco-restore     Reset device configuration back to factory defaults", .confirm = { .needs = NEED_YES, .label = "--dco-restore", .why = "You are trying to deliberately reset your drive configuration back to the factory defaults.\nThis may change the apparent capacity and feature set of the drive, making all data on it inaccessible.\nYou could lose *everything*.", .whole_disk = true }, .steps = { ATA_STEP(IN_SETTINGS + 520, WHEN_GIVEN, dco_step) } },
	{ .id = OPT_DCO_SETMAX, .name = "dco-setmax", .arg = ARG_U64, .min = 1, .max = LBA48_MAX, .what = "bad/missing sector value", .cls = CLASS_ALONE, .usage = "--dco-setmax      Use DCO to set maximum addressable sectors", .confirm = { .needs = NEED_IN_STEP, .writes_medium = true }, .steps = { ATA_STEP(IN_SETTINGS + 540, WHEN_GIVEN, dco_step) } },
	{ .id = OPT_DIRECT, .name = "direct", .cls = CLASS_MODIFIER, .usage = "--direct          Use O_DIRECT to bypass page cache for timings" },
	{ .id = OPT_DRQ_HSM_ERROR, .name = "drq-hsm-error", .usage = "--drq-hsm-error   Crash system with a \"stuck DRQ\" error (VERY DANGEROUS)", .confirm = { .needs = NEED_YES, .label = "--drq-hsm-error", .why = "This deliberately leaves the drive in a stuck-DRQ state and may hang or crash the system." }, .steps = { ATA_STEP(IN_SETTINGS + 710, WHEN_GIVEN, drq_hsm_error) } },
	{ .id = OPT_FALLOCATE, .name = "fallocate", .arg = ARG_SIZE_FILE, .max = 1ULL << 53, .what = "bad/missing block-count", .cls = CLASS_SOLE, .usage = "--fallocate       Create a file without writing data to disk" },
	{ .id = OPT_FIBMAP, .name = "fibmap", .arg = ARG_FILE, .cls = CLASS_SOLE, .usage = "--fibmap          Show device extents (and fragmentation) for a file" },
	{ .id = OPT_FWDOWNLOAD, .name = "fwdownload", .arg = ARG_FILE, .cls = CLASS_SOLE, .usage = "--fwdownload            Download firmware file to drive (EXTREMELY DANGEROUS)", .confirm = { .needs = NEED_YES | NEED_DESTROY, .label = "--fwdownload", .why = FWDOWNLOAD_YES, .why_destroy = FWDOWNLOAD_DESTROY, .writes_medium = true, .reaches = REACHES_AS_SANITIZE }, .together = TOGETHER_FIRMWARE, .steps = { { .at = IN_SETTINGS + 630, .when = WHEN_GIVEN, .run = firmware_download, .check = firmware_download_check, .for_kind = ATA_KIND }, { .at = IN_SETTINGS + 640, .when = WHEN_GIVEN, .run = firmware_update_step, .check = firmware_update_check, .for_kind = OTHER_KINDS } } },
	{ .id = OPT_FWDOWNLOAD_MODE3, .name = "fwdownload-mode3", .arg = ARG_FILE, .cls = CLASS_SOLE, .usage = "--fwdownload-mode3      Download firmware using min-size segments (EXTREMELY DANGEROUS)", .confirm = { .needs = NEED_YES | NEED_DESTROY, .label = "--fwdownload", .why = FWDOWNLOAD_YES, .why_destroy = FWDOWNLOAD_DESTROY, .writes_medium = true }, .steps = { ATA_STEP(IN_SETTINGS + 650, WHEN_GIVEN, firmware_download) } },
	{ .id = OPT_FWDOWNLOAD_MODE3_MAX, .name = "fwdownload-mode3-max", .arg = ARG_FILE, .cls = CLASS_SOLE, .usage = "--fwdownload-mode3-max  Download firmware using max-size segments (EXTREMELY DANGEROUS)", .confirm = { .needs = NEED_YES | NEED_DESTROY, .label = "--fwdownload", .why = FWDOWNLOAD_YES, .why_destroy = FWDOWNLOAD_DESTROY, .writes_medium = true }, .steps = { ATA_STEP(IN_SETTINGS + 660, WHEN_GIVEN, firmware_download) } },
	{ .id = OPT_FWDOWNLOAD_MODE7, .name = "fwdownload-mode7", .arg = ARG_FILE, .cls = CLASS_SOLE, .usage = "--fwdownload-mode7      Download firmware using a single segment (EXTREMELY DANGEROUS)", .confirm = { .needs = NEED_YES | NEED_DESTROY, .label = "--fwdownload", .why = FWDOWNLOAD_YES, .why_destroy = FWDOWNLOAD_DESTROY, .writes_medium = true }, .steps = { ATA_STEP(IN_SETTINGS + 670, WHEN_GIVEN, firmware_download) } },
	{ .id = OPT_FWDOWNLOAD_MODEE, .name = "fwdownload-modee", .arg = ARG_FILE, .cls = CLASS_SOLE, .usage = "--fwdownload-modee      Download firmware using mode E (min-size segments) (EXTREMELY DANGEROUS)", .confirm = { .needs = NEED_YES | NEED_DESTROY, .label = "--fwdownload", .why = FWDOWNLOAD_YES, .why_destroy = FWDOWNLOAD_DESTROY, .writes_medium = true }, .steps = { ATA_STEP(IN_SETTINGS + 680, WHEN_GIVEN, firmware_download) } },
	{ .id = OPT_FWDOWNLOAD_MODEE_MAX, .name = "fwdownload-modee-max", .arg = ARG_FILE, .cls = CLASS_SOLE, .usage = "--fwdownload-modee-max  Download firmware using mode E (max-size segments) (EXTREMELY DANGEROUS)", .confirm = { .needs = NEED_YES | NEED_DESTROY, .label = "--fwdownload", .why = FWDOWNLOAD_YES, .why_destroy = FWDOWNLOAD_DESTROY, .writes_medium = true }, .steps = { ATA_STEP(IN_SETTINGS + 690, WHEN_GIVEN, firmware_download) } },
	{ .id = OPT_IDLE_IMMEDIATE, .name = "idle-immediate", .usage = "--idle-immediate  Idle drive immediately", .steps = { ATA_STEP(IN_LAST + 70, WHEN_GIVEN, power_command) } },
	{ .id = OPT_IDLE_UNLOAD, .name = "idle-unload", .usage = "--idle-unload     Idle immediately and unload heads", .steps = { ATA_STEP(IN_LAST + 90, WHEN_GIVEN, power_command) } },
	{ .id = OPT_IRAW, .name = "Iraw", .arg = ARG_FILE, .usage = "--Iraw filename   Write raw binary identify data to the specfied file", .steps = { STEP(IN_QUERIES + 160, WHEN_GIVEN, describe_step) } },
	{ .id = OPT_ISTDIN, .name = "Istdin", .cls = CLASS_ALONE, .usage = "--Istdin          Read identify data from stdin as ASCII hex" },
	{ .id = OPT_ISTDOUT, .name = "Istdout", .usage = "--Istdout         Write identify data to stdout as ASCII hex", .steps = { STEP(IN_QUERIES + 150, WHEN_GIVEN, describe_step) } },
	{ .id = OPT_MAKE_BAD_SECTOR, .name = "make-bad-sector", .arg = ARG_FLAGGED_U64, .max = LBA48_MAX, .what = "bad/missing sector value", .usage = "--make-bad-sector Deliberately corrupt a sector directly on the media (VERY DANGEROUS)", .confirm = { .needs = NEED_YES, .label = "--make-bad-sector", .why = "You are trying to deliberately corrupt a low-level sector on the media.\nThis is a BAD idea, and can easily result in total data loss.", .writes_medium = true }, .steps = { ATA_STEP(IN_SETTINGS + 590, WHEN_GIVEN, make_bad_sector) } },
	{ .id = OPT_OFFSET, .name = "offset", .arg = ARG_U64, .max = UINT64_MAX >> 30, .what = "GB offset for -t flag", .usage = "--offset          use with -t, to begin timings at given offset (in GiB) from start of drive" },
	{ .id = OPT_PREFER_ATA12, .name = "prefer-ata12", .cls = CLASS_MODIFIER, .usage = "--prefer-ata12    Use 12-byte (instead of 16-byte) SAT commands when possible" },
	{ .id = OPT_READ_SECTOR, .name = "read-sector", .arg = ARG_U64, .max = LBA48_MAX, .what = "bad/missing sector value", .usage = "--read-sector     Read and dump (in hex) a sector directly from the media", .steps = { STEP(IN_SETTINGS + 700, WHEN_GIVEN, read_sector_step) } },
	{ .id = OPT_REPAIR_SECTOR, .name = "repair-sector", .arg = ARG_U64, .max = LBA48_MAX, .what = "bad/missing sector value", .cls = CLASS_SOLE, .usage = "--repair-sector   Alias for the --write-sector option (VERY DANGEROUS)", .confirm = { .needs = NEED_YES, .label = "--write-sector", .why = WRITE_SECTOR_WARNING, .writes_medium = true }, .steps = { ATA_STEP(IN_SETTINGS + 620, WHEN_GIVEN, write_sector) } },
	{ .id = OPT_SANITIZE_ANTIFREEZE, .name = "sanitize-antifreeze-lock", .cls = CLASS_ALONE, .usage = "--sanitize-antifreeze-lock  Block sanitize-freeze-lock command until next power cycle", .steps = { ATA_STEP(IN_SETTINGS + 430, WHEN_GIVEN, sanitize_step) } },
	{ .id = OPT_SANITIZE_BLOCK_ERASE, .name = "sanitize-block-erase", .cls = CLASS_ALONE, .usage = "--sanitize-block-erase      Start block erase operation", .confirm = { .needs = NEED_YES, .label = "--sanitize", .why = SANITIZE_WARNING, .whole_disk = true, .reaches = REACHES_AS_SANITIZE }, .together = TOGETHER_ERASE, .steps = { ERASE_STEP(IN_SETTINGS + 440, sanitize_start_step, sanitize_start_check) } },
	{ .id = OPT_SANITIZE_CRYPTO, .name = "sanitize-crypto-scramble", .cls = CLASS_ALONE, .usage = "--sanitize-crypto-scramble  Change the internal encryption keys that used for used data", .confirm = { .needs = NEED_YES, .label = "--sanitize", .why = SANITIZE_WARNING, .whole_disk = true, .reaches = REACHES_AS_SANITIZE }, .together = TOGETHER_ERASE, .steps = { ERASE_STEP(IN_SETTINGS + 450, sanitize_start_step, sanitize_start_check) } },
	{ .id = OPT_SANITIZE_FREEZE, .name = "sanitize-freeze-lock", .cls = CLASS_ALONE, .usage = "--sanitize-freeze-lock      Lock drive's sanitize features until next power cycle", .steps = { ATA_STEP(IN_SETTINGS + 420, WHEN_GIVEN, sanitize_step) } },
	{ .id = OPT_SANITIZE_OVERWRITE, .name = "sanitize-overwrite", .arg = ARG_PATTERN, .cls = CLASS_ALONE, .usage = "--sanitize-overwrite  PATTERN  Overwrite the internal media with constant PATTERN", .confirm = { .needs = NEED_YES, .label = "--sanitize", .why = SANITIZE_WARNING, .whole_disk = true, .reaches = REACHES_AS_SANITIZE }, .together = TOGETHER_ERASE, .steps = { ERASE_STEP(IN_SETTINGS + 460, sanitize_start_step, sanitize_start_check) } },
	{ .id = OPT_SANITIZE_PASSES, .name = "sanitize-overwrite-passes", .arg = ARG_U64, .max = 7, .what = "Number of passes must be in range 0..7", .cls = CLASS_MODIFIER, .usage = "--sanitize-overwrite-passes COUNT  Number of overwrite passes from 0 to 7, default 0 means 16 passes" },
	{ .id = OPT_SANITIZE_STATUS, .name = "sanitize-status", .cls = CLASS_ALONE, .usage = "--sanitize-status           Show sanitize status information", .steps = { STEP(IN_SETTINGS + 410, WHEN_GIVEN, sanitize_status_step) } },
	{ .id = OPT_SECURITY_HELP, .name = "security-help", .cls = CLASS_ALONE, .usage = "--security-help             Display help for ATA security commands" },
	{ .id = OPT_SET_SECTOR_SIZE, .name = "set-sector-size", .arg = ARG_U64, .min = 0x200, .max = 0x1080, .what = "sector size out of range", .cls = CLASS_SOLE, .usage = "--set-sector-size           Change logical sector size of drive", .confirm = { .needs = NEED_DESTROY, .label = "--set-sector-size", .why = "This will likely destroy all data on the drive.", .whole_disk = true, .reaches = REACHES_AS_FORMAT }, .together = TOGETHER_FORMAT, .steps = { { .at = IN_SETTINGS + 10, .when = WHEN_GIVEN, .run = set_sector_size, .check = set_sector_size_check, .for_kind = ATA_KIND }, { .at = IN_SETTINGS + 20, .when = WHEN_GIVEN, .run = sector_format_step, .check = sector_format_check, .for_kind = OTHER_KINDS } } },
	{ .id = OPT_TRIM_RANGES, .name = "trim-sector-ranges", .arg = ARG_RANGES, .max = LBA48_MAX, .cls = CLASS_SOLE, .usage = "--trim-sector-ranges        Tell SSD firmware to discard unneeded data sectors: lba:count ..", .confirm = { .needs = NEED_DESTROY, .label = "--trim-sector-ranges", .why = "This might destroy the drive and/or all data on it.", .writes_medium = true }, .steps = { STEP(IN_SETTINGS + 600, WHEN_GIVEN, trim_from_args) } },
	{ .id = OPT_TRIM_STDIN, .name = "trim-sector-ranges-stdin", .cls = CLASS_SOLE, .usage = "--trim-sector-ranges-stdin  Same as above, but reads lba:count pairs from stdin", .confirm = { .needs = NEED_DESTROY, .label = "--trim-sector-ranges-stdin", .why = "This might destroy the drive and/or all data on it.", .writes_medium = true }, .steps = { STEP(IN_SETTINGS + 40, WHEN_GIVEN, trim_from_stdin) } },
	{ .id = OPT_VERBOSE, .name = "verbose", .cls = CLASS_MODIFIER, .usage = "--verbose                   Display extra diagnostics from some commands" },
	{ .id = OPT_WRITE_SECTOR, .name = "write-sector", .arg = ARG_U64, .max = LBA48_MAX, .what = "bad/missing sector value", .cls = CLASS_SOLE, .usage = "--write-sector              Repair/overwrite a (possibly bad) sector directly on the media (VERY DANGEROUS)", .confirm = { .needs = NEED_YES, .label = "--write-sector", .why = WRITE_SECTOR_WARNING, .writes_medium = true }, .steps = { ATA_STEP(IN_SETTINGS + 610, WHEN_GIVEN, write_sector) } },

	/* Listed by --security-help rather than -h, as in 9.65. */
	{ .id = OPT_SECURITY_FREEZE, .name = "security-freeze", .config = { "security_freeze", KEY_BARE }, .steps = { ATA_STEP(IN_SETTINGS + 550, WHEN_GIVEN, security_freeze) } },
	{ .id = OPT_SECURITY_UNLOCK, .name = "security-unlock", .arg = ARG_PASSWORD, .cls = CLASS_ALONE, .config = { "security_unlock", KEY_OPTION_VALUE }, .steps = { ATA_STEP(IN_SETTINGS + 360, WHEN_GIVEN, security_step) } },
	{ .id = OPT_SECURITY_SET_PASS, .name = "security-set-pass", .arg = ARG_PASSWORD, .cls = CLASS_ALONE, .confirm = { .needs = NEED_IN_STEP }, .config = { "security_pass", KEY_OPTION_VALUE }, .steps = { ATA_STEP(IN_SETTINGS + 370, WHEN_GIVEN, security_step) } },
	{ .id = OPT_SECURITY_DISABLE, .name = "security-disable", .arg = ARG_PASSWORD, .cls = CLASS_ALONE, .confirm = { .needs = NEED_IN_STEP }, .config = { "security_disable", KEY_OPTION_VALUE }, .steps = { ATA_STEP(IN_SETTINGS + 380, WHEN_GIVEN, security_step) } },
	{ .id = OPT_SECURITY_ERASE, .name = "security-erase", .arg = ARG_PASSWORD, .cls = CLASS_ALONE, .confirm = { .needs = NEED_IN_STEP, .whole_disk = true }, .together = TOGETHER_ERASE, .steps = { ATA_ERASE_STEP(IN_SETTINGS + 390, security_step, security_erase_check) } },
	{ .id = OPT_SECURITY_ERASE_ENHANCED, .name = "security-erase-enhanced", .arg = ARG_PASSWORD, .cls = CLASS_ALONE, .confirm = { .needs = NEED_IN_STEP, .whole_disk = true }, .together = TOGETHER_ERASE, .steps = { ATA_ERASE_STEP(IN_SETTINGS + 400, security_step, security_erase_check) } },
	{ .id = OPT_SECURITY_MODE, .name = "security-mode", .arg = ARG_LETTER, .what = "security level", .cls = CLASS_MODIFIER, .letters = "hm", .config = { "security_mode", KEY_OPTION_VALUE } },
	{ .id = OPT_USER_MASTER, .name = "user-master", .arg = ARG_LETTER, .what = "password type", .cls = CLASS_MODIFIER, .letters = "um", .config = { "user-master", KEY_OPTION_VALUE } },
	{ .id = OPT_SECURITY_PROMPT, .name = "security-prompt-for-password", .cls = CLASS_MODIFIER },

	/* Confirmation flags: not in 9.65's -h, listed at the end of ours. */
	{ .id = OPT_YES_I_KNOW, .name = "yes-i-know-what-i-am-doing", .cls = CLASS_MODIFIER, .usage = "--yes-i-know-what-i-am-doing  Confirm a DANGEROUS option" },
	{ .id = OPT_PLEASE_DESTROY, .name = "please-destroy-my-drive", .cls = CLASS_MODIFIER, .usage = "--please-destroy-my-drive     Confirm an EXTREMELY DANGEROUS option" },

	/* Ours. */
	{ .id = OPT_IODEPTH, .name = "iodepth", .arg = ARG_U64, .min = 1, .max = 256, .what = "the number of requests in flight must be 1 to 256", .cls = CLASS_MODIFIER, .usage = "--iodepth N                   With -t or --seeks: N O_DIRECT requests in flight (1-256)" },
	{ .id = OPT_BLOCK_SIZE, .name = "block-size", .arg = ARG_U64, .min = 4, .max = 65536, .what = "the block size must be 4 to 65536 KiB", .cls = CLASS_MODIFIER, .usage = "--block-size KiB              Request size for --iodepth and --seeks (4-65536)" },
	{ .id = OPT_SURFACE_SCAN, .name = "surface-scan", .usage = "--surface-scan                Read every block (O_DIRECT, read-only), timed: time classes, unreadable LBAs, slow regions", .together = TOGETHER_SCAN, .steps = { { .at = IN_LAST + 35, .when = WHEN_GIVEN, .run = surface_scan_step, .check = surface_scan_check } } },
	{ .id = OPT_SCAN_RANGE, .name = "scan-range", .arg = ARG_LBA_RANGE, .what = "the range must be FIRST-LAST or FIRST+COUNT, in LBAs, the first not past the last, COUNT at least 1", .cls = CLASS_MODIFIER, .usage = "--scan-range FIRST-LAST|FIRST+COUNT  With --surface-scan: only these LBAs (inclusive)" },
	{ .id = OPT_SCAN_ERRORS_MAX, .name = "scan-errors-max", .arg = ARG_DECIMAL_U64, .min = 1, .max = UINT64_MAX, .what = "the number of unreadable sectors must be a decimal number, at least 1", .cls = CLASS_MODIFIER, .usage = "--scan-errors-max N           With --surface-scan: stop after N unreadable sectors" },
	{ .id = OPT_SCAN_PICTURE, .name = "scan-picture", .arg = ARG_FILE, .what = "file name", .cls = CLASS_MODIFIER, .usage = "--scan-picture FILE           With --surface-scan: draw the surface as an SVG picture in FILE" },
	{ .id = OPT_SCAN_MAP, .name = "scan-map", .arg = ARG_FILE, .what = "map file", .cls = CLASS_MODIFIER, .usage = "--scan-map FILE               With --surface-scan: keep the scan's state in FILE; the same command again reads only what is left" },
	{ .id = OPT_SCAN_VERIFY, .name = "scan-verify", .cls = CLASS_MODIFIER, .usage = "--scan-verify                 With --surface-scan: the disk checks its own medium (READ VERIFY, VERIFY (16), NVMe Verify): no data sent" },
	{ .id = OPT_SCAN_DEPTH, .name = "scan-depth", .arg = ARG_U64, .min = 1, .max = 128, .what = "the number of blocks in flight must be 1 to 128", .cls = CLASS_MODIFIER, .usage = "--scan-depth N                With --surface-scan: N blocks in flight (1-128; 1 on a rotating disk, else up to 32)" },
	{ .id = OPT_SCAN_REPAIR, .name = "scan-repair", .cls = CLASS_MODIFIER, .usage = "--scan-repair                 With --surface-scan: rewrite each sector that stays unreadable (VERY DANGEROUS)", .confirm = { .needs = NEED_YES, .label = "--scan-repair", .why = SCAN_REPAIR_WARNING, .whole_disk = true, .writes_medium = true } },
	{ .id = OPT_SEEKS, .name = "seeks", .usage = "--seeks                       Time random O_DIRECT reads: seeks/sec and latency", .steps = { STEP(IN_LAST + 40, WHEN_GIVEN, time_random_seeks) } },
	{ .id = OPT_SANITIZE_WAIT, .name = "sanitize-wait", .usage = "--sanitize-wait               Wait for a sanitize operation to end, showing its progress", .together = TOGETHER_ERASE, .steps = { STEP(IN_SETTINGS + 500, WHEN_GIVEN, sanitize_wait_step) } },
	{ .id = OPT_SANITIZE_NO_DEALLOC, .name = "sanitize-no-deallocate", .cls = CLASS_MODIFIER, .usage = "--sanitize-no-deallocate      With a sanitize (NVMe): leave the blocks allocated afterwards" },
	{ .id = OPT_SANITIZE_AUSE, .name = "sanitize-ause", .cls = CLASS_MODIFIER, .usage = "--sanitize-ause               With a sanitize: allow a failed one to be left by --sanitize-exit-failure-mode" },
	{ .id = OPT_SANITIZE_EXIT_FAILURE, .name = "sanitize-exit-failure-mode", .cls = CLASS_ALONE, .usage = "--sanitize-exit-failure-mode  Leave the failure state of a sanitize started with --sanitize-ause", .steps = { STEP(IN_SETTINGS + 470, WHEN_GIVEN, sanitize_start_step) } },
	{ .id = OPT_FORMAT_ERASE, .name = "format-erase", .arg = ARG_WORD, .words = (const char *const[]){ "user", "crypto", NULL }, .what = "secure erase", .cls = CLASS_ALONE, .usage = "--format-erase user|crypto    NVMe: format with a user-data or cryptographic erase (DANGEROUS)", .confirm = { .needs = NEED_YES, .label = "--format-erase", .why = FORMAT_ERASE_WARNING, .whole_disk = true, .reaches = REACHES_AS_FORMAT }, .together = TOGETHER_ERASE, .steps = { ERASE_STEP(IN_SETTINGS + 480, format_erase_step, format_erase_check) } },
	{ .id = OPT_ERASE_VERIFY, .name = "erase-verify", .arg = ARG_WORD, .words = (const char *const[]){ "sample", "full", NULL }, .what = "verification", .cls = CLASS_MODIFIER, .usage = "--erase-verify sample|full    After an erase: read back a sample of blocks (the default), or every block" },
	{ .id = OPT_ERASE_RECORD, .name = "erase-record", .arg = ARG_FILE, .what = "record file", .cls = CLASS_MODIFIER, .usage = "--erase-record FILE|DIR/|-     With an erase: write its record, one JSON document (schema: hdparm.8)" },
	{ .id = OPT_ERASE_OPERATOR, .name = "erase-operator", .arg = ARG_FILE, .what = "operator", .cls = CLASS_MODIFIER, .usage = "--erase-operator NAME          With --erase-record: who ran the erase" },
	{ .id = OPT_CONTINUE_ON_REFUSAL, .name = "continue-on-refusal", .cls = CLASS_MODIFIER, .usage = "--continue-on-refusal         Many disks erased or scanned: go on with the others where one is refused" },
	{ .id = OPT_TCG, .name = "tcg", .usage = "--tcg                         Show a self-encrypting drive's TCG state (Level 0 Discovery); changes nothing", .steps = { STEP(IN_QUERIES + 260, WHEN_GIVEN, tcg_step) } },
	{ .id = OPT_TCG_PSID_REVERT, .name = "tcg-psid-revert", .arg = ARG_PSID, .cls = CLASS_ALONE, .usage = "--tcg-psid-revert [PSID|-]    TCG: factory reset with the PSID on the drive's label (-: read it from stdin; none: asked); erases everything (DANGEROUS)", .confirm = { .needs = NEED_YES, .label = "--tcg-psid-revert", .why = PSID_REVERT_WARNING, .whole_disk = true, .reaches = REACHES_AS_SANITIZE }, .together = TOGETHER_ERASE, .steps = { ERASE_STEP(IN_SETTINGS + 490, tcg_psid_revert_step, tcg_psid_revert_check) } },
	{ .id = OPT_FORMAT_WAIT, .name = "format-wait", .usage = "--format-wait                 Wait for a format (--set-sector-size on SCSI) to end, showing its progress", .together = TOGETHER_FORMAT, .steps = { STEP(IN_SETTINGS + 30, WHEN_GIVEN, sector_format_wait_step) } },
	{ .id = OPT_PROTECTION_INFO, .name = "protection-info", .arg = ARG_U64, .max = 3, .what = "protection information type must be 0 to 3", .cls = CLASS_MODIFIER, .usage = "--protection-info 0|1|2|3     With --set-sector-size (SCSI, NVMe): the protection type (0: none, the default)" },
	{ .id = OPT_LBAF, .name = "lbaf", .arg = ARG_U64, .max = 63, .what = "LBA format must be 0 to 63", .cls = CLASS_MODIFIER, .usage = "--lbaf N                      With --set-sector-size (NVMe): format to LBA format N" },
	{ .id = OPT_APPLY_CONFIG, .name = "apply-config", .arg = ARG_CONFIG, .cls = CLASS_ALONE, .usage = "--apply-config [FILE] [DEV...] Apply the configuration (" HDPARM_CONFIG "): only what differs is sent" },
	{ .id = OPT_CHECK_CONFIG, .name = "check-config", .arg = ARG_CONFIG, .cls = CLASS_ALONE, .usage = "--check-config [FILE] [DEV...] Compare each setting with the disk's; exit 1 when any differs" },
	{ .id = OPT_SETTINGS_ONLY, .name = "settings-only", .cls = CLASS_MODIFIER, .usage = "--settings-only               With --apply-config: send no command that acts once (standby, sleep, security_*)" },
	{ .id = OPT_IDLE_CONFIG, .name = "idle-spindown-config", .arg = ARG_CONFIG, .cls = CLASS_ALONE, .usage = "--idle-spindown-config [FILE] --idle-spindown for each disk the configuration gives idle_spindown" },
	{ .id = OPT_ERC, .name = "erc", .arg = ARG_OPTIONAL_PAIR, .max = 65535, .what = "bad value: READ[,WRITE] in tenths of a second, each 0 to 65535", .usage = "--erc [READ[,WRITE]]          Get/set the drive's error recovery time limits, in tenths of a second (0: none)", .config = { "erc", KEY_OPTION_VALUE }, .steps = { { .at = IN_SETTINGS + 280, .when = WHEN_SET, .run = erc_set_step, .once = true }, STEP(IN_QUERIES + 190, WHEN_QUERY, erc_get_step) } },
	{ .id = OPT_EPC, .name = "epc", .usage = "--epc                         Show the Extended Power Conditions: timers and states", .steps = { STEP(IN_QUERIES + 250, WHEN_GIVEN, epc_step) } },
	{ .id = OPT_EPC_ENABLE, .name = "epc-enable", .usage = "--epc-enable                  Enable the EPC feature set", .config = { "epc", KEY_ON_OFF }, .steps = { STEP(IN_SETTINGS + 300, WHEN_GIVEN, epc_step) } },
	{ .id = OPT_EPC_DISABLE, .name = "epc-disable", .usage = "--epc-disable                 Disable the EPC feature set (APM works again)", .steps = { STEP(IN_SETTINGS + 310, WHEN_GIVEN, epc_step) } },
	{ .id = OPT_EPC_TIMER, .name = "epc-timer", .arg = ARG_WORD_SECONDS, .words = EPC_CONDITIONS, .save_suffix = true, .what = "power condition", .usage = "--epc-timer NAME=SECONDS[,save]  Set a power condition's timer (0: disable it)", .config = { "epc_timer", KEY_OPTION_VALUE }, .steps = { STEP(IN_SETTINGS + 330, WHEN_GIVEN, epc_step) } },
	{ .id = OPT_EPC_GOTO, .name = "epc-goto", .arg = ARG_WORD, .words = EPC_CONDITIONS, .what = "power condition", .usage = "--epc-goto NAME               Enter a power condition now", .steps = { STEP(IN_SETTINGS + 340, WHEN_GIVEN, epc_step) } },
	{ .id = OPT_EPC_RESTORE, .name = "epc-restore", .arg = ARG_WORD, .words = (const char *const[]){ "default", "saved", NULL }, .save_suffix = true, .what = "settings", .usage = "--epc-restore default|saved[,save]  Restore every power condition's settings", .steps = { STEP(IN_SETTINGS + 320, WHEN_GIVEN, epc_step) } },
	{ .id = OPT_BACKGROUND_SCAN, .name = "background-scan", .arg = ARG_WORD, .words = (const char *const[]){ "off", "on", NULL }, .save_suffix = true, .what = "setting", .usage = "--background-scan on|off[,save]  Switch a SCSI disk's background medium scan", .steps = { STEP(IN_SETTINGS + 350, WHEN_GIVEN, background_scan_step) } },
	{ .id = OPT_USB_TRIM, .name = "usb-trim", .arg = ARG_WORD, .words = (const char *const[]){ "off", "on", NULL }, .what = "setting", .usage = "--usb-trim on|off             Behind a USB bridge: the kernel sends discards as UNMAP (on; where bridge and disk take it) or none (off)", .config = { "usb_trim", KEY_ON_OFF }, .steps = { STEP(IN_SETTINGS + 355, WHEN_GIVEN, usb_trim_step) } },
	{ .id = OPT_IDLE_SPINDOWN, .name = "idle-spindown", .arg = ARG_U64, .min = 1, .max = 604800, .what = "the idle time must be 1 to 604800 seconds", .cls = CLASS_ALONE, .usage = "--idle-spindown SECONDS       Stay in the foreground; put each disk in standby after SECONDS without I/O", .config = { "idle_spindown", KEY_NUMBER } },
	{ .id = OPT_WHY, .name = "why", .cls = CLASS_MODIFIER, .usage = "--why                         With --idle-spindown: say which process woke a disk it put in standby" },
	{ .id = OPT_METRICS, .name = "metrics", .cls = CLASS_ALONE, .usage = "--metrics [DEV...]            Print every disk's state for Prometheus (none named: every disk), waking none" },
	{ .id = OPT_METRICS_FILE, .name = "metrics-file", .arg = ARG_FILE, .what = "file name", .cls = CLASS_ALONE, .usage = "--metrics-file FILE [DEV...]  The same, written whole into FILE (node_exporter's textfile folder)" },
	{ .id = OPT_FW_SLOT, .name = "fw-slot", .arg = ARG_U64, .min = 1, .max = 7, .what = "the firmware slot must be 1 to 7", .cls = CLASS_MODIFIER, .usage = "--fw-slot N                   With --fwdownload (NVMe): commit the image to slot N (default: a writable one not active)" },
	{ .id = OPT_FW_ACTIVATE_NOW, .name = "fw-activate-now", .cls = CLASS_MODIFIER, .usage = "--fw-activate-now             With --fwdownload (NVMe, SCSI): activate the new firmware now, without a reset" },
	{ .id = OPT_POWER_ON_HOURS, .name = "power-on-hours", .usage = "--power-on-hours              How long the drive has been powered on in its life (not read from a sleeping disk)", .steps = { STEP(IN_QUERIES + 125, WHEN_GIVEN, power_on_step) } },
	/* The words in enum bridge_protocol's order (disk/device.h): the word's place is the protocol. */
	{ .id = OPT_BRIDGE, .name = "bridge", .arg = ARG_WORD, .words = (const char *const[]){ "auto", "none", "sat", "sntjmicron", "sntasmedia", "sntrealtek", NULL }, .what = "bridge protocol", .cls = CLASS_MODIFIER, .usage = "--bridge auto|sat|sntjmicron|sntasmedia|sntrealtek|none  Behind a USB bridge: what it passes (auto: the bridge table's)" },
	{ .id = OPT_SELF_TEST, .name = "self-test", .arg = ARG_WORD, .words = (const char *const[]){ "short", "extended", "abort", NULL }, .what = "self-test", .usage = "--self-test short|extended|abort  Start the drive's own self-test, or stop the one running", .together = TOGETHER_SELF_TEST, .steps = { ERASE_STEP(IN_SETTINGS + 505, self_test_step, self_test_check) } },
	{ .id = OPT_SELF_TEST_WAIT, .name = "self-test-wait", .usage = "--self-test-wait              Wait for the drive's self-test to end, showing its progress; then its result from the log", .together = TOGETHER_SELF_TEST, .steps = { ERASE_STEP(IN_SETTINGS + 506, self_test_wait_step, self_test_check) } },
	{ .id = OPT_CONDITION, .name = "condition", .usage = "--condition                   A used disk's condition: hours from every source, wear, defects, self-tests, and a verdict (exit status: hdparm.8)", .together = TOGETHER_CONDITION, .steps = { STEP(IN_QUERIES + 127, WHEN_GIVEN, condition_step) } },
	{ .id = OPT_JSON, .name = "json", .cls = CLASS_MODIFIER, .usage = "--json                        Print one JSON document instead of text (schema: hdparm.8)" },
};

const size_t option_count = ARRAY_SIZE(option_table);

void settings_name_values(struct settings *s)
{
	for (size_t i = 0; i < option_count; i++)
		snprintf(s->v[option_table[i].id].name, sizeof(s->v[0].name), "%s", option_name(option_table[i].id));
}

/* An option given whose row runs many disks together as kind does (ONE_BY_ONE: in either way). */
static bool given_together(const struct settings *s, enum together kind)
{
	for (size_t i = 0; i < option_count; i++)
		if (s->v[option_table[i].id].given && option_table[i].together != ONE_BY_ONE &&
		    (kind == ONE_BY_ONE || option_table[i].together == kind))
			return true;
	return false;
}

bool settings_erase(const struct settings *s)
{
	return given_together(s, TOGETHER_ERASE);
}

bool settings_together(const struct settings *s)
{
	return given_together(s, ONE_BY_ONE);
}

bool settings_recorded(const struct settings *s)
{
	return given_together(s, TOGETHER_ERASE) || given_together(s, TOGETHER_FORMAT);
}

bool settings_together_as(const struct settings *s, enum together kind)
{
	return kind != ONE_BY_ONE && given_together(s, kind);
}

const struct option_desc *option_desc(enum opt_id opt)
{
	for (size_t i = 0; i < option_count; i++)
		if (option_table[i].id == opt)
			return &option_table[i];
	return NULL;
}

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

