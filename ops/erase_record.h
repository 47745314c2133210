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
 * names ("-": stdout; ending in "/": a file in that folder named by the
 * disk's serial number and the time).  0, or an errno, said.
 */
int erase_record_write(struct device *dev, const struct settings *s, int status);

/*
 * Before the erase: the record's folder can be written to (the folder
 * given, or the file's); else the refusal, said, and dev refused: an
 * erase whose record cannot be kept is not started.
 */
int erase_record_check(struct device *dev, const struct settings *s);

/*
 * What became of dev's erase, as the record says it ("erased_and_verified",
 * "refused", ...: hdparm.8); NULL where s asks for none.
 */
const char *erase_outcome(const struct device *dev, const struct settings *s, int status);

#endif
