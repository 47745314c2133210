/*
 * --erc [READ[,WRITE]]: how long the drive may try to recover a sector
 * before it gives up and reports the error, in tenths of a second (0: as
 * long as it takes).  A disk in a RAID set wants a short limit (7 s is the
 * usual), so that the array, not the disk, handles a bad sector before the
 * kernel's command timer (30 s) resets the link.  ATA keeps a read and a
 * write limit (SCT Error Recovery Control), forgotten at every power
 * cycle; an NVMe namespace one for both (the Error Recovery feature's
 * TLER), and a SCSI disk too (the Read-Write Error Recovery mode page's
 * RECOVERY TIME LIMIT).  This file words them; the kinds only read and
 * send.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>

#include "checks.h"
#include "erc.h"
#include "json.h"
#include "report.h"

/* "7.0 s", or "off" for no limit. */
static const char *limit_text(unsigned int ds, char *buf, size_t size)
{
	if (!ds)
		snprintf(buf, size, "off");
	else
		snprintf(buf, size, "%u.%u s", ds / 10, ds % 10);
	return buf;
}

static void json_limit(const char *key, unsigned int ds)
{
	/* smartctl's shape for its ata_sct_erc. */
	json_object_begin(key);
	json_bool("enabled", ds != 0);
	json_uint("deciseconds", ds);
	json_object_end();
}

/*
 * After a set, the read-back must hold what was asked: a drive may round a
 * limit or keep its own floor, and a bridge may drop the command yet say
 * it went.  A RAID set relies on the limit, so a difference is a failure.
 */
static bool read_back_differs(const struct device *dev, const struct settings *s, enum opt_id opt,
			      const struct disk_erc *e)
{
	unsigned int want_r = (unsigned int)s->v[opt].num, want_w = (unsigned int)s->v[opt].num2;
	char r[16], w[16], wr[16], ww[16];

	if (!dev->erc_set || (e->read_ds == want_r && (e->one_limit || e->write_ds == want_w)))
		return false;
	if (e->one_limit)
		complain("%s: the disk kept %s, not the %s asked\n", s->v[opt].name, limit_text(e->read_ds, r, sizeof(r)),
			 limit_text(want_r, wr, sizeof(wr)));
	else
		complain("%s: the drive kept read %s, write %s, not the read %s, write %s asked\n", s->v[opt].name,
			 limit_text(e->read_ds, r, sizeof(r)), limit_text(e->write_ds, w, sizeof(w)),
			 limit_text(want_r, wr, sizeof(wr)), limit_text(want_w, ww, sizeof(ww)));
	return true;
}

int erc_get_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct disk_erc e = { 0 };
	char r[16], w[16];
	int err;

	if (!dev->disk->erc_get)
		return refuse_missing_command(dev, s->v[opt].name);
	if ((err = dev->disk->erc_get(dev, &e)))
		return say_cause_for(&e.cause, err, s->v[opt].name);
	if (e.one_limit)
		out(" error recovery limit:  %s, reads and writes (%s)\n", limit_text(e.read_ds, r, sizeof(r)), e.source);
	else
		out(" error recovery limits:  read %s, write %s (%s)\n", limit_text(e.read_ds, r, sizeof(r)),
		    limit_text(e.write_ds, w, sizeof(w)), e.source);
	json_object_begin("error_recovery");
	json_limit("read", e.read_ds);
	json_limit("write", e.write_ds);
	json_string("source", e.source);
	json_object_end();
	return read_back_differs(dev, s, opt, &e) ? EIO : 0;
}

int erc_set_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct disk_erc e = { .read_ds = (unsigned int)s->v[opt].num, .write_ds = (unsigned int)s->v[opt].num2 };
	char r[16], w[16];
	int err;

	if (!dev->disk->erc_set)
		return refuse_missing_command(dev, s->v[opt].name);
	if (s->v[opt].noisy)
		out(" setting error recovery limits to read %s, write %s\n", limit_text(e.read_ds, r, sizeof(r)),
		    limit_text(e.write_ds, w, sizeof(w)));
	if ((err = dev->disk->erc_set(dev, &e)))
		return say_cause_for(&e.cause, err, s->v[opt].name);
	dev->erc_set = true;
	return 0;
}
