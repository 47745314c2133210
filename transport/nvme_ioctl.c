/* The NVMe pass-through ioctls (nvme_ioctl.h). */
#include <errno.h>
#include <sys/ioctl.h>

#include "nvme_ioctl.h"

int nvme_ioctl_send(int fd, enum nvme_queue q, struct nvme_passthru_cmd *cmd)
{
	int rc = ioctl(fd, q == NVME_ADMIN_QUEUE ? NVME_IOCTL_ADMIN_CMD : NVME_IOCTL_IO_CMD, cmd);

	return rc < 0 ? -errno : rc;
}

int nvme_ioctl_nsid(int fd)
{
	int id = ioctl(fd, NVME_IOCTL_ID);

	return id < 0 ? -errno : id;
}
