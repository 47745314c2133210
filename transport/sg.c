/*
 * SG_IO, once for every SCSI command.  One rule for the timeout (the
 * caller's, else SG_DEFAULT_TIMEOUT_S), one for CHECK CONDITION (the
 * masked status, or the driver's sense flag), one for what came in (the
 * residue, bounded by the length asked for).
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include <scsi/sg.h>

#include "report.h"
#include "sg.h"

#define SG_DID_TIME_OUT 0x03	/* host_status */
#define SG_DRIVER_TIMEOUT 0x06	/* driver_status, low nibble */
#define SG_DRIVER_SENSE 0x08	/* driver_status: sense data came */
#define SCSI_MASKED_CHECK_CONDITION 0x01	/* CHECK CONDITION (02h), shifted right as masked_status is */

static enum sg_category categorise(const struct sg_io_hdr *io)
{
	if (io->host_status == SG_DID_TIME_OUT || (io->driver_status & 0x0f) == SG_DRIVER_TIMEOUT)
		return SG_CAT_TIMEOUT;
	if (io->host_status)
		return SG_CAT_HOST_ERROR;
	if (io->masked_status == SCSI_MASKED_CHECK_CONDITION || (io->driver_status & SG_DRIVER_SENSE))
		return SG_CAT_SENSE;
	return io->status ? SG_CAT_STATUS : SG_CAT_GOOD;
}

void sg_send(struct device *dev, const uint8_t *cdb, unsigned int cdb_len, enum sg_dir dir, void *buf, size_t len,
	     unsigned int timeout_s, struct sg_reply *r)
{
	static const int directions[] = {
		[SG_NO_DATA] = SG_DXFER_NONE, [SG_DATA_IN] = SG_DXFER_FROM_DEV, [SG_DATA_OUT] = SG_DXFER_TO_DEV,
	};
	struct sg_io_hdr io;

	memset(r, 0, sizeof(*r));
	if (dev->stop_at_timeout && dev->timed_out) {
		r->cat = SG_CAT_TIMEOUT;	/* a disk that let one command time out is asked nothing more */
		return;
	}
	memset(&io, 0, sizeof(io));
	io.interface_id = 'S';
	io.cmd_len = (unsigned char)cdb_len;
	io.cmdp = (unsigned char *)cdb;
	io.mx_sb_len = sizeof(r->sense);
	io.sbp = r->sense;
	io.dxfer_direction = len ? directions[dir] : SG_DXFER_NONE;
	io.dxferp = buf;
	io.dxfer_len = (unsigned int)len;
	io.timeout = (timeout_s ? timeout_s : SG_DEFAULT_TIMEOUT_S) * 1000u;
	if (ioctl(dev->fd, SG_IO, &io) == -1) {
		r->cat = SG_CAT_IOCTL;
		r->err = errno;
		return;
	}
	r->status = io.status;
	r->host_status = io.host_status;
	r->sense_len = io.sb_len_wr < sizeof(r->sense) ? io.sb_len_wr : sizeof(r->sense);
	/* All of it where the driver reports no residue, none where it reports more than was asked. */
	if (dir == SG_DATA_IN)
		r->got = io.resid <= 0 ? len : (size_t)io.resid < len ? len - (size_t)io.resid : 0;
	r->cat = categorise(&io);
	dev->timed_out |= r->cat == SG_CAT_TIMEOUT;
	/* --verbose: the raw sense bytes, for a bug report. */
	if (dev->run.verbose && r->sense_len) {
		complain("SG_IO: sense data:");
		for (unsigned int i = 0; i < r->sense_len; i++)
			complain(" %02x", r->sense[i]);
		complain("%c", '\n');
	}
}

bool sg_request_sense(struct device *dev, unsigned int timeout_s, struct sense *now, struct sg_reply *r)
{
	uint8_t buf[32] = { 0 };
	uint8_t cdb[6] = { SG_REQUEST_SENSE, 0, 0, 0, sizeof(buf), 0 };

	sg_send(dev, cdb, sizeof(cdb), SG_DATA_IN, buf, sizeof(buf), timeout_s, r);
	return sense_normalise(buf, (unsigned int)r->got, now);
}
