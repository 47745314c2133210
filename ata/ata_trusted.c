/*
 * IF-RECV on an ATA drive: TRUSTED RECEIVE (5Ch), or its DMA form (5Dh)
 * where a drive aborts the PIO one.  Linux's libata refuses both unless
 * it was loaded with allow_tpm=1: a refusal then says so, and how.
 */
#include <errno.h>
#include <stdio.h>

#include "ata_commands.h"
#include "ata_disk.h"
#include "ata_trusted.h"
#include "sense.h"
#include "sysfs.h"

#define ATA_ERROR_ABRT 0x04
#define LIBATA_PARAMETERS "/sys/module/libata/parameters"

static bool aborted(const struct ata_result *res)
{
	return res->have_regs && (res->error & ATA_ERROR_ABRT);
}

int ata_disk_security_recv(struct device *dev, uint8_t protocol, uint16_t sp_specific, uint8_t *buf, size_t len,
			   size_t *got, struct disk_cause *c)
{
	struct ata_result res;
	char allow[8];
	int err = ata_trusted_receive(dev, false, protocol, sp_specific, buf, len, &res);

	if (err && aborted(&res))
		err = ata_trusted_receive(dev, true, protocol, sp_specific, buf, len, &res);
	*got = err ? 0 : len;
	if (!err)
		return 0;
	c->about_option = true;
	/* The SAT layer's own refusal (no registers from the drive): libata's, where allow_tpm is 0. */
	if (!res.have_regs && res.sense_valid && res.sense_key == SENSE_ILLEGAL_REQUEST) {
		if (sysfs_read_line(LIBATA_PARAMETERS, "allow_tpm", allow, sizeof(allow)) == 0 && allow[0] == '0')
			snprintf(c->why, sizeof(c->why), "Linux's libata refuses TRUSTED RECEIVE: %s/allow_tpm is 0 (boot with"
				 " libata.allow_tpm=1, or as root: echo 1 > %s/allow_tpm)", LIBATA_PARAMETERS,
				 LIBATA_PARAMETERS);
		else
			snprintf(c->why, sizeof(c->why), "TRUSTED RECEIVE was refused before it reached the drive (%s)",
				 res.cause);
		/* Not the drive's answer: whether it has TCG is not known. */
		return EACCES;
	}
	if (aborted(&res)) {
		snprintf(c->why, sizeof(c->why), "this drive aborts TRUSTED RECEIVE: it has no security protocols");
		return EOPNOTSUPP;
	}
	c->about_option = false;
	return ata_cause(c, "TRUSTED RECEIVE", &res, err);
}

int ata_disk_security_send(struct device *dev, uint8_t protocol, uint16_t sp_specific, const uint8_t *buf, size_t len,
			   struct disk_cause *c)
{
	struct ata_result res;
	int err = ata_trusted_send(dev, false, protocol, sp_specific, buf, len, &res);

	if (err && aborted(&res))
		err = ata_trusted_send(dev, true, protocol, sp_specific, buf, len, &res);
	if (!err)
		return 0;
	if (!res.have_regs && res.sense_valid && res.sense_key == SENSE_ILLEGAL_REQUEST) {
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "TRUSTED SEND was refused before it reached the drive (%s)", res.cause);
		return EACCES;
	}
	return ata_cause(c, "TRUSTED SEND", &res, err);
}
