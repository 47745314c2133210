/*
 * What a SCSI target says of logical block provisioning: whether it takes
 * UNMAP.  Behind a USB bridge that target is the bridge, whatever disk sits
 * behind it (ATA through SAT, NVMe, or none it lets be seen).
 */
#ifndef HDPARM_SCSI_PROVISIONING_H
#define HDPARM_SCSI_PROVISIONING_H

#include <stdbool.h>
#include <stdint.h>

#include "device.h"
#include "scsi_pages.h"

struct scsi_provisioning {
	bool capacity16;		/* READ CAPACITY (16) answered: lbpme says */
	bool lbpme;			/* its LBPME: logical block provisioning management */
	bool lbp_page;			/* VPD B2h listed and read: lbp says */
	struct scsi_lbp_commands lbp;	/* LBPU, LBPWS, LBPWS10 */
	bool limits_page;		/* VPD B0h listed and read: limits says */
	struct scsi_block_limits limits;	/* MAXIMUM UNMAP LBA COUNT, ... BLOCK DESCRIPTOR COUNT */
	char capacity16_failed[160];	/* READ CAPACITY (16)'s failure, worded */
	bool timed_out;			/* a command timed out: nothing more was asked */
	const char *hung;		/* ... which ("READ CAPACITY (16)", "INQUIRY of VPD page B2h", ...) */
};

/*
 * READ CAPACITY (16), and the VPD pages 00h, B2h and B0h where 00h lists
 * them: what the sd driver asks to choose its provisioning_mode (though
 * under usb-storage it asks none of them).  A bridge that lets the first
 * time out is asked nothing more.  Nothing changes; nothing said.
 */
void scsi_provisioning_read(struct device *dev, struct scsi_provisioning *p);

#endif
