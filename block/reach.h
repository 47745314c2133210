/*
 * What a command sent through a node reaches: the whole-disk block devices
 * behind it, found from sysfs relations (a node's device, an NVMe
 * controller's subsystem, a volume's slaves), never from the shape of a
 * name.  A command that changes the medium is guarded on every one.
 */
#ifndef HDPARM_REACH_H
#define HDPARM_REACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What kind of node the user named. */
enum node_kind {
	NODE_OTHER,		/* a file, or a character device of no kind below */
	NODE_DISK,		/* a whole-disk block device */
	NODE_PARTITION,		/* a partition: pass-through reaches its whole disk */
	NODE_STACKED,		/* device-mapper or md: pass-through reaches the disks beneath */
	NODE_NVME_GENERIC,	/* /dev/ngXnY: one namespace, as a character device */
	NODE_NVME_CONTROLLER,	/* /dev/nvmeX: the controller, no namespace */
	NODE_SCSI_GENERIC,	/* /dev/sgN: a SCSI device */
};

/* How far a command goes from the node it was sent through. */
enum reach_scope {
	REACH_NAMED,		/* the disk or namespace named */
	REACH_NVME_SUBSYSTEM,	/* every namespace of the NVM subsystem (Sanitize; format where FNA says so) */
};

#define REACH_MAX 32

struct reached_disk {
	dev_t devnum;
	char name[32];		/* the kernel's name: "nvme0n1" */
	char node[64];		/* its node in /dev ("" when none was found) */
};

struct reach {
	enum node_kind kind;
	unsigned int n;
	struct reached_disk disk[REACH_MAX];
	bool more;		/* more disks than REACH_MAX: the command is refused */
	char volume[160];	/* NODE_STACKED: "dm-0 (vg-home)", "md0" */
};

/*
 * The whole disks that a command sent through fd (the node path) reaches
 * with scope; nsid: the namespace a generic NVMe node answered (0: none).
 * Fills r; never fails (a node sysfs says nothing of reaches nothing).
 */
void reach_find(int fd, uint32_t nsid, enum reach_scope scope, struct reach *r);

/*
 * The block device that the loop device of sysfs folder dir reads and
 * writes: its backing file, where that is a block device (the loop asked
 * where its path names nothing here: a node since removed, or made in
 * another mount namespace); 0 otherwise (a regular file, no loop device).
 */
dev_t reach_loop_backing(const char *dir);

/* "/dev/sda, /dev/sdb" (kernel names where no node was found), into buf. */
void reach_list(const struct reach *r, char *buf, size_t size);

/* The sysfs folder of the NVMe controller behind fd (a namespace, a generic node, a controller); false when none. */
bool nvme_controller_dir(int fd, char *buf, size_t size);

/* The node in /dev of block device devnum (first /dev/NAME, then any), into buf; false when none. */
bool block_node_of(dev_t devnum, const char *name, char *buf, size_t size);

#endif
