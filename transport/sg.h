/*
 * The one SG_IO sender: every SCSI command, ATA PASS-THROUGH among them,
 * goes out through sg_send().  How the request ended is sorted once, into
 * a category (as sg3_utils' SG_LIB_CAT_*), with the sense bytes and the
 * bytes that came in; what a failure means for a command is the caller's
 * to say (the ATA layer reads the registers in the sense data, the SCSI
 * layer the sense key).
 */
#ifndef HDPARM_SG_H
#define HDPARM_SG_H

#include <stddef.h>
#include <stdint.h>

#include "device.h"
#include "sense.h"

/* A request whose timeout is 0 gets this many seconds. */
#define SG_DEFAULT_TIMEOUT_S 30

enum sg_dir { SG_NO_DATA, SG_DATA_IN, SG_DATA_OUT };

/* How one request ended, in the order it is decided. */
enum sg_category {
	SG_CAT_IOCTL,		/* the ioctl itself failed: err */
	SG_CAT_TIMEOUT,		/* the host or the driver timed the command out */
	SG_CAT_HOST_ERROR,	/* the host adapter failed it: host_status */
	SG_CAT_SENSE,		/* CHECK CONDITION, or the driver says sense came: sense[] (sense_len may be 0) */
	SG_CAT_STATUS,		/* another SCSI status (BUSY, RESERVATION CONFLICT, ...): status */
	SG_CAT_GOOD,
};

struct sg_reply {
	enum sg_category cat;
	int err;		/* SG_CAT_IOCTL: the errno */
	uint8_t status;		/* the SCSI status */
	uint8_t host_status;
	uint8_t sense[32];
	unsigned int sense_len;	/* sense bytes written */
	size_t got;		/* data in: the bytes that came (len less the residue the driver reports) */
};

/* Send cdb with len bytes of buf in direction dir; *r says how it ended. */
void sg_send(struct device *dev, const uint8_t *cdb, unsigned int cdb_len, enum sg_dir dir, void *buf, size_t len,
	     unsigned int timeout_s, struct sg_reply *r);

/*
 * REQUEST SENSE (SPC-4 6.39), on any kind that takes SCSI commands (a SCSI
 * disk, a SAT bridge): the sense data the device holds now, normalised into
 * *now; false where the bytes that came hold none.  *r says how the command
 * ended (the caller judges it).
 */
#define SG_REQUEST_SENSE 0x03

bool sg_request_sense(struct device *dev, unsigned int timeout_s, struct sense *now, struct sg_reply *r);

#endif
