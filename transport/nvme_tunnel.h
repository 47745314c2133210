/*
 * NVMe admin commands through a USB bridge's vendor tunnel (JMicron,
 * ASMedia, Realtek; nvme_tunnel_wire.h), sent as SCSI commands by the one
 * SG_IO sender (sg.c).  The NVMe kind sends here instead of the
 * pass-through ioctls where dev->bridge names a tunnel.
 */
#ifndef HDPARM_NVME_TUNNEL_H
#define HDPARM_NVME_TUNNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "device.h"
#include "nvme_ioctl.h"

/* dev->bridge is one of the three NVMe tunnels. */
bool nvme_tunnel_is(const struct device *dev);

/*
 * Send cmd through dev's tunnel, with nvme_ioctl_send()'s meaning: 0 (with
 * cmd->result where the bridge returns it); the controller's status (> 0);
 * or -errno with why saying it in a line that names the bridge.  Two I/O
 * commands go as the SCSI commands the bridge translates for the block
 * device: Flush (SYNCHRONIZE CACHE (10)) and Read (READ (16)), their
 * failure the sense data's words (-EIO).  The rest:
 * -EOPNOTSUPP, the tunnel does not carry the command (nothing was sent);
 * -EPROTO, the bridge refused the tunnel's CDB or answered what no
 * controller sends (a short reply, a reply without its signature, fewer
 * bytes than asked, a page of zeros); -ETIMEDOUT; -EIO.
 */
int nvme_tunnel_send(struct device *dev, enum nvme_queue q, struct nvme_passthru_cmd *cmd, char *why, size_t size);

/* "the JMicron USB bridge 152d:0583" (the id where sysfs gave it) into buf; returns buf. */
char *nvme_tunnel_name(const struct device *dev, char *buf, size_t size);

#endif
