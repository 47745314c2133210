/*
 * The NVMe transport: the kernel's pass-through ioctls, sent here alone (as
 * SG_IO is sent from sg.c alone).  The NVMe kind builds the commands
 * (nvme/nvme.c) and words their status.
 */
#ifndef HDPARM_NVME_IOCTL_H
#define HDPARM_NVME_IOCTL_H

#include <linux/nvme_ioctl.h>

enum nvme_queue { NVME_ADMIN_QUEUE, NVME_IO_QUEUE };

/* Send cmd on queue q of the node fd: 0; the controller's status (> 0: SCT and SC); or -errno. */
int nvme_ioctl_send(int fd, enum nvme_queue q, struct nvme_passthru_cmd *cmd);

/* The namespace node fd names (NVME_IOCTL_ID): > 0; 0 or -errno where it names none (a controller, no NVMe). */
int nvme_ioctl_nsid(int fd);

#endif
