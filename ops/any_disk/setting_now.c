/*
 * A setting as the disk or the kernel reports it now, in the numbers its
 * option takes, so that a configuration's value can be held against it:
 * IDENTIFY's words on ATA, each kind's cache and error recovery readers,
 * the kernel's ioctls.  Nothing is sent that changes anything, and
 * nothing is said.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ata.h"
#include "blockdev.h"
#include "epc.h"
#include "setting_now.h"
#include "usb_trim.h"

static int unreadable(struct setting_now *now, enum setting_kind kind, const char *why)
{
	now->kind = kind;
	snprintf(now->why, sizeof(now->why), "%s", why);
	return EOPNOTSUPP;
}

static int from_cause(struct setting_now *now, const struct disk_cause *c, int err)
{
	if (c->what && *c->why)
		snprintf(now->why, sizeof(now->why), "%.60s failed: %.120s", c->what, c->why);
	else if (c->what)
		snprintf(now->why, sizeof(now->why), "%.60s failed: %.120s", c->what, strerror(err));
	else
		snprintf(now->why, sizeof(now->why), "%.190s", *c->why ? c->why : strerror(err));
	return err;
}

static int read_cache(struct device *dev, enum opt_id opt, struct setting_now *now)
{
	enum disk_cache which = opt == OPT_WCACHE ? DISK_WRITE_CACHE : DISK_LOOKAHEAD;
	enum disk_cache_state st = CACHE_UNKNOWN;
	struct disk_cause c = { 0 };
	int err;

	if (!dev->disk->cache_get || (which == DISK_LOOKAHEAD && !dev->disk->lookahead))
		return unreadable(now, SETTING_UNSUPPORTED, "the disk has no such cache");
	if ((err = dev->disk->cache_get(dev, which, &st, &c)))
		return from_cause(now, &c, err);
	if (st == CACHE_UNSUPPORTED)
		return unreadable(now, SETTING_UNSUPPORTED, "the disk has no such cache");
	if (st == CACHE_UNKNOWN)
		return unreadable(now, SETTING_UNREPORTED, "the disk does not say");
	now->num = now->num2 = st == CACHE_ON;
	return 0;
}

static int read_erc(struct device *dev, struct setting_now *now)
{
	struct disk_erc e;
	int err;

	memset(&e, 0, sizeof(e));
	if (!dev->disk->erc_get)
		return unreadable(now, SETTING_UNSUPPORTED, "the disk has no error recovery time limit");
	if ((err = dev->disk->erc_get(dev, &e)))
		return from_cause(now, &e.cause, err);
	now->num = e.read_ds;
	now->num2 = e.write_ds;
	return 0;
}

/* An ATA drive's IDENTIFY page; NULL with *err and now's why (another kind of disk: EOPNOTSUPP). */
static const uint16_t *identify_now(struct device *dev, struct setting_now *now, int *err)
{
	const uint16_t *id;

	*err = 0;
	if (!dev->disk->identify_page) {
		*err = unreadable(now, SETTING_UNSUPPORTED, "an ATA setting");
		return NULL;
	}
	if (!(id = dev->disk->identify_page(dev, err))) {
		*err = *err ? *err : EIO;
		snprintf(now->why, sizeof(now->why), "IDENTIFY DEVICE failed: %s", strerror(*err));
	}
	return id;
}

/* What IDENTIFY says now: APM, AAM, write-read-verify, the multiple count. */
static int read_identify(struct device *dev, enum opt_id opt, struct setting_now *now)
{
	const uint16_t *id;
	int err;

	if (!(id = identify_now(dev, now, &err)))
		return err;
	switch (opt) {
	case OPT_APM:
		if (!ata_id_has_apm(id))
			return unreadable(now, SETTING_UNSUPPORTED, "the drive has no APM");
		/* 255 is how -B turns APM off, and how a drive without it enabled reads. */
		now->num = ata_id_apm_enabled(id) ? id[ATA_ID_APM_LEVEL] & 0xff : 255;
		break;
	case OPT_ACOUSTIC:
		if (!ata_id_has_aam(id))
			return unreadable(now, SETTING_UNSUPPORTED, "the drive has no acoustic management");
		now->num = id[ATA_ID_ACOUSTIC_LEVEL] & 0xff;
		break;
	case OPT_WRV:
		if (!ata_id_has_wrv(id))
			return unreadable(now, SETTING_UNSUPPORTED, "the drive has no write-read-verify");
		now->num = ata_id_wrv_enabled(id);
		break;
	default:
		now->num = id[ATA_ID_MULTIPLE] & 0x100 ? id[ATA_ID_MULTIPLE] & 0xff : 0;
		break;
	}
	now->num2 = now->num;
	return 0;
}

/* Whether EPC is enabled as a whole, as the option asks (1: as --epc-enable or --epc-disable wants). */
static int read_epc_switch(struct device *dev, enum opt_id opt, struct setting_now *now)
{
	struct disk_cause c = { 0 };
	bool enabled = false;
	int err = epc_switch_now(dev, &enabled, &c);

	if (err == EOPNOTSUPP)
		return unreadable(now, SETTING_UNSUPPORTED, "the disk has no EPC feature set to switch");
	if (err)
		return from_cause(now, &c, err);
	now->num = now->num2 = enabled == (opt == OPT_EPC_ENABLE);
	return 0;
}

/* A power condition's timer as the disk has it now, in tenths (0: the condition disabled). */
static int read_epc_timer(struct device *dev, const struct opt_value *want, struct setting_now *now)
{
	struct disk_cause c = { 0 };
	struct disk_pc_state st;
	int err = epc_condition_now(dev, want->str, &st, &c);

	if (err == EOPNOTSUPP)
		return unreadable(now, SETTING_UNSUPPORTED, "the drive has no EPC");
	if (err)
		return from_cause(now, &c, err);
	if (!st.supported)
		return unreadable(now, SETTING_UNSUPPORTED, "the drive does not have this power condition");
	now->num = st.current_enabled ? st.current_timer : 0;
	now->num2 = st.saved_enabled ? st.saved_timer : 0;
	return 0;
}

int setting_now(struct device *dev, enum opt_id opt, const struct opt_value *want, struct setting_now *now)
{
	long value;
	int err;

	memset(now, 0, sizeof(*now));
	now->kind = SETTING_READ;
	switch (opt) {
	case OPT_READAHEAD:
	case OPT_READONLY:
	case OPT_IO32BIT:
	case OPT_UNMASK:
	case OPT_DMA:
	case OPT_KEEP:
	case OPT_BUSSTATE:
		err = kernel_setting_read(dev, opt, &value);
		/* The legacy IDE driver's settings: libata, NVMe and SCSI disks have none of them. */
		if (err == ENOTTY || err == EINVAL || err == EOPNOTSUPP)
			return unreadable(now, SETTING_UNSUPPORTED, "the kernel keeps no such setting for this disk");
		if (err) {
			snprintf(now->why, sizeof(now->why), "the kernel does not say: %s", strerror(err));
			return err;
		}
		now->num = now->num2 = (uint64_t)value;
		return 0;
	case OPT_WCACHE:
	case OPT_LOOKAHEAD:
		return read_cache(dev, opt, now);
	case OPT_ERC:
		return read_erc(dev, now);
	case OPT_EPC_TIMER:
		return read_epc_timer(dev, want, now);
	case OPT_APM:
	case OPT_ACOUSTIC:
	case OPT_WRV:
	case OPT_MULTCOUNT:
		return read_identify(dev, opt, now);
	case OPT_EPC_ENABLE:
	case OPT_EPC_DISABLE:
		return read_epc_switch(dev, opt, now);
	case OPT_USB_TRIM:
		if ((err = usb_trim_now(dev, want->num != 0, &now->num, now->why, sizeof(now->why))) == EOPNOTSUPP)
			now->kind = SETTING_UNSUPPORTED;
		now->num2 = now->num;
		return err;
	case OPT_STANDBY_NOW:
	case OPT_SLEEP_NOW:
	case OPT_SEAGATE:
	case OPT_SECURITY_FREEZE:
	case OPT_SECURITY_UNLOCK:
	case OPT_SECURITY_SET_PASS:
	case OPT_SECURITY_DISABLE:
		return unreadable(now, SETTING_COMMAND, "a command, not a setting");
	default:
		return unreadable(now, SETTING_UNREPORTED, "the disk does not report it");
	}
}

bool setting_holds(enum opt_id opt, const struct opt_value *want, const struct setting_now *now)
{
	switch (opt) {
	case OPT_EPC_ENABLE:
	case OPT_EPC_DISABLE:
		return now->num == 1;
	case OPT_WRV:
		return (want->num != 0) == (now->num != 0);
	case OPT_ERC:
		return want->num == now->num && want->num2 == now->num2;
	case OPT_EPC_TIMER:
		/* ",save": the saved timer too. */
		return want->num == now->num && (!want->flag || want->num == now->num2);
	default:
		return want->num == now->num;
	}
}
