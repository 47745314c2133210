/*
 * --erase-record FILE: one JSON document that proves what an erase did,
 * with the fields of NIST SP 800-88 Rev. 1 Appendix G's certificate that a
 * program can know (schema: hdparm.8, ERASING A DISK).  It is written when
 * the device's run ends, for success and failure alike, to a temporary
 * file that is synced and renamed: a crash leaves no record or a whole one.
 */
#ifndef HDPARM_ERASE_RECORD_H
#define HDPARM_ERASE_RECORD_H

#include "device.h"
#include "values.h"

#define ERASE_RECORD_VERSION 1

/*
 * The record of dev's run, whose status is status: to the file the option
 * names ("-": stdout; a folder, ending in "/" or one already: a file in it
 * named by the disk's serial number and the time), over the one reserved
 * for it.  0, or an errno, said; where no file can take it, the whole
 * record is printed on stderr.
 */
int erase_record_write(struct device *dev, const struct settings *s, int status);

/*
 * Before the erase: the record's file is made, saying "not_started"
 * (dev->record); else the refusal, said, and dev refused: an erase whose
 * record cannot be kept (no folder, no right to write, a full or read-only
 * file system) is not started.
 */
int erase_record_check(struct device *dev, const struct settings *s);

/*
 * Where the command line is read, before any disk is opened: FILE that is
 * there and is neither a regular file nor a folder (a device node, a FIFO,
 * a socket, a symbolic link to anything but a folder) is refused, said:
 * EINVAL; else 0.
 */
int erase_record_path_check(const struct settings *s);

/*
 * Just before an erase goes out: the sample of the disks it reaches
 * (erase_sample_before()), then the record's file says it was sent, its
 * outcome unknown (what a kill leaves).  0; or, where the file cannot say
 * so (its folder became read-only, the stick was pulled), the refusal,
 * said, dev refused and its erase unmarked: the caller sends nothing and
 * returns the status.
 */
int erase_about_to_send(struct device *dev, enum erase_kind kind, uint32_t pattern, const char *command)
	__attribute__((warn_unused_result));

/* The same for a format (erase_run_format_sent()): no sample, the record's file says it was sent. */
int erase_format_about_to_send(struct device *dev, const char *command, const struct disk_format_summary *before)
	__attribute__((warn_unused_result));

/*
 * A signal (sig) stops hdparm while the erase runs in the drive: the file
 * says "interrupted", with the exit status 128 + sig.  Called from the
 * thread that waits for signals while another waits for the drive, so it
 * sends nothing to the disk.  device: the struct device.
 */
void erase_record_interrupted(void *device, int sig);

/* The record's file reserved for dev (NULL: none). */
const char *erase_record_path(const struct device *dev);

/* given (--erase-record's) names a folder: it ends in "/", or it is one. */
bool erase_record_is_folder(const char *given);

void erase_record_free(struct device *dev);

/*
 * What became of dev's erase, as the record says it ("erased_and_verified",
 * "refused", ...: hdparm.8); NULL where s asks for none.
 */
const char *erase_outcome(const struct device *dev, const struct settings *s, int status);

#endif
