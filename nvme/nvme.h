/*
 * The NVMe transport: one call per command this program sends, through
 * the kernel's admin and I/O pass-through ioctls.  Nothing is said: a
 * failure returns an errno and fills the struct disk_cause passed in (the
 * command and the NVMe status in words), which the caller words.
 */
#ifndef HDPARM_NVME_H
#define HDPARM_NVME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device.h"

/* What the NVMe kind keeps of a device (dev->nvme_node), made when the device is found to be NVMe. */
struct nvme_node {
	uint32_t nsid;		/* the namespace the node names; NVME_NSID_ALL: a controller node, none */
	bool tunnel_broken;	/* behind a USB bridge's NVMe tunnel: it failed a command, and is sent nothing more */
};

/*
 * The device is NVMe: a /dev/nvmeXnY block device or a /dev/ngXnY generic
 * node (its namespace kept), or a /dev/nvmeX controller (NVME_NSID_ALL).
 */
bool nvme_detect(struct device *dev);

/*
 * The device is behind a USB bridge whose NVMe tunnel dev->bridge names
 * (transport/nvme_tunnel.c): NVMe, its namespace 1 (0).  ask: only where
 * Identify Controller through the tunnel answers (a chip that takes SATA
 * drives too); else its errno, *c saying why, and nothing kept:
 * ETIMEDOUT, ENODEV or ENXIO where the bridge hung or is gone.
 */
int nvme_tunnel_detect(struct device *dev, bool ask, struct disk_cause *c);

/* The namespace the device's node names (NVME_NSID_ALL: a controller node); 0: not NVMe. */
static inline uint32_t nvme_nsid(const struct device *dev)
{
	return dev->nvme_node ? dev->nvme_node->nsid : 0;
}

/* Identify (cns: nvme_spec.h's enum nvme_cns) into buf, NVME_IDENTIFY_BYTES long. */
int nvme_admin_identify(struct device *dev, uint8_t cns, uint32_t nsid, void *buf, struct disk_cause *c);

/* Identify Controller in a page of its own (the caller frees it); NULL with *err on failure. */
struct nvme_id_ctrl;
struct nvme_id_ctrl *nvme_identify_controller(struct device *dev, int *err, struct disk_cause *c);

/* Get Features of the controller: the result dword, or -errno (EOPNOTSUPP: a bridge's tunnel does not carry it). */
long nvme_admin_get_features(struct device *dev, uint8_t fid, struct disk_cause *c);

/* Get Features of the controller with its data structure (APST): buf, *result; EIO, unsaid, on failure. */
int nvme_admin_get_features_data(struct device *dev, uint8_t fid, void *buf, uint32_t bytes, uint32_t *result,
				 struct disk_cause *c);

/* Set Features of the controller: fid to value; what names it in a failure. */
int nvme_admin_set_features(struct device *dev, uint8_t fid, uint32_t value, const char *what, struct disk_cause *c);

/* Get (the result dword, or -errno) and Set Features of the device's namespace (a namespace-specific feature: Error Recovery). */
long nvme_admin_get_ns_features(struct device *dev, uint8_t fid, struct disk_cause *c);
int nvme_admin_set_ns_features(struct device *dev, uint8_t fid, uint32_t value, const char *what, struct disk_cause *c);

/* Get Log Page of the controller: bytes (a multiple of 4) of log lid into buf; c->what is the caller's. */
int nvme_admin_get_log(struct device *dev, uint8_t lid, void *buf, uint32_t bytes, struct disk_cause *c);

/* Sanitize with CDW10 (nvme_spec.h's action and switches) and the overwrite pattern. */
/* Security Receive (82h) of protocol and its SP SPECIFIC field into buf (len bytes, zeroed first). */
int nvme_admin_security_receive(struct device *dev, uint8_t protocol, uint16_t sp_specific, void *buf, uint32_t len,
				struct disk_cause *c);
/* Security Send (81h): len bytes of buf to protocol and its SP SPECIFIC field. */
int nvme_admin_security_send(struct device *dev, uint8_t protocol, uint16_t sp_specific, const void *buf, uint32_t len,
			     struct disk_cause *c);

/* Firmware Image Download: bytes (whole dwords) of buf at offset bytes of the image. */
int nvme_admin_fw_download(struct device *dev, const void *buf, uint32_t bytes, uint32_t offset, struct disk_cause *c);

/* Firmware Commit of slot (0: the controller chooses) with action (nvme_spec.h); c->status: the NVMe status. */
int nvme_admin_fw_commit(struct device *dev, unsigned int slot, unsigned int action, struct disk_cause *c);

int nvme_admin_sanitize(struct device *dev, uint32_t cdw10, uint32_t pattern, struct disk_cause *c);

/* Format NVM of namespace nsid (NVME_NSID_ALL: every one) with CDW10 (nvme_spec.h's fields). */
/* Device Self-test (14h): Self-test Code stc in CDW10 bits 3:0 (1h short, 2h extended, Fh abort). */
int nvme_admin_self_test(struct device *dev, uint8_t stc, struct disk_cause *c);

int nvme_admin_format(struct device *dev, uint32_t nsid, uint32_t cdw10, struct disk_cause *c);

/* Flush of the namespace. */
int nvme_io_flush(struct device *dev, struct disk_cause *c);

/* Read of one block at lba into buf (bytes: the LBA size); c->what, the caller's, names it in a failure. */
int nvme_io_read(struct device *dev, uint64_t lba, void *buf, uint32_t bytes, struct disk_cause *c);

/* Verify (NVM opcode 0Ch) of blocks (1 to 65536) at lba: the controller checks them and sends nothing; nvme_send's errno. */
int nvme_io_verify(struct device *dev, uint64_t lba, uint32_t blocks, struct disk_cause *c);

/*
 * Dataset Management's range list (NVMe Base 3.0, figure "Dataset
 * Management - Range"): up to 256 16-byte entries, LENGTH IN LOGICAL
 * BLOCKS (32 bits) at byte 4 and STARTING LBA at byte 8, little-endian.
 */
#define NVME_DSM_MAX_RANGES 256
#define NVME_DSM_BYTES (16 * NVME_DSM_MAX_RANGES)
void nvme_dsm_pack(const struct sector_range *pieces, unsigned int n, uint8_t buf[NVME_DSM_BYTES]);

/* Dataset Management, deallocate, of n pieces (each at most 2^32-1 blocks). */
int nvme_io_deallocate(struct device *dev, const struct sector_range *pieces, unsigned int n, struct disk_cause *c);

/* Identify Namespace of dev's namespace into buf (NVME_IDENTIFY_BYTES). */
int nvme_identify_namespace(struct device *dev, void *buf, struct disk_cause *c);

#endif
