/*
 * NVMe commands, sent by the transport's pass-through (transport/nvme_ioctl.c,
 * admin and I/O queues): one typed call per command this program sends, its
 * opcode and fields named in nvme_spec.h.  Nothing is printed: a failed
 * command fills a struct disk_cause (the command, and the NVMe status in
 * words) for the caller to word.  The disk's commands built on these are
 * in nvme_disk.c and nvme_erase.c.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


#include "array.h"
#include "nvme.h"
#include "nvme_ioctl.h"
#include "nvme_spec.h"
#include "nvme_tunnel.h"
#include "unaligned.h"

/* The NVMe status of a failed command, in words. */
static const char *nvme_status_text(int status)
{
	static char buf[64];
	unsigned int sc = (unsigned int)status & 0xff, sct = ((unsigned int)status >> 8) & 7;
	static const struct {
		unsigned int sct, sc;
		const char *text;
	} texts[] = {
		{ 0, 0x01, "invalid command opcode" }, { 0, 0x02, "invalid field in command" },
		{ 0, 0x04, "data transfer error" }, { 0, 0x06, "internal error" },
		{ 0, 0x0b, "invalid namespace or format" }, { 0, 0x80, "LBA out of range" },
		{ 0, 0x81, "capacity exceeded" }, { 0, 0x82, "namespace not ready" },
		{ 1, 0x0d, "feature identifier not saveable" }, { 1, 0x0e, "feature not changeable" },
		{ 1, 0x0f, "feature not namespace specific" },
		{ 2, 0x80, "write fault" }, { 2, 0x81, "unrecovered read error" },
		{ 2, 0x82, "end-to-end guard check error" }, { 2, 0x86, "access denied" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(texts); i++)
		if (texts[i].sct == sct && texts[i].sc == sc) {
			snprintf(buf, sizeof(buf), "%s (NVMe status 0x%03x)", texts[i].text, (unsigned int)status & 0x7ff);
			return buf;
		}
	snprintf(buf, sizeof(buf), "NVMe status 0x%03x", (unsigned int)status & 0x7ff);
	return buf;
}

/*
 * Run one command; on failure an errno, with *c saying it: what failed
 * (what, or the caller's c->what where what is NULL) and why (the NVMe
 * status in words).  A command that succeeds leaves *c as it was.
 */
/*
 * Through a USB bridge's tunnel: once the bridge answered what no
 * controller sends, or refused the tunnel, nothing more is sent to it
 * (some bridges hang on what they do not know); each later command fails
 * at once, pointing at the first one's words.
 */
static int tunnel_send(struct device *dev, enum nvme_queue q, struct nvme_passthru_cmd *cmd, char *why, size_t size)
{
	struct nvme_node *node = dev->nvme_node;
	char name[192];
	int rc;

	if (node && node->tunnel_broken) {
		snprintf(why, size, "not sent: %s failed an earlier command (said above)",
			 nvme_tunnel_name(dev, name, sizeof(name)));
		return -EPROTO;
	}
	rc = nvme_tunnel_send(dev, q, cmd, why, size);
	/* Garbage, a hang, or the bridge gone (unplugged): nothing more for it. */
	if (node && (rc == -EPROTO || rc == -ETIMEDOUT || rc == -ENODEV || rc == -ENXIO))
		node->tunnel_broken = true;
	return rc;
}

static int nvme_send(struct device *dev, enum nvme_queue q, struct nvme_passthru_cmd *cmd, const char *what,
		     struct disk_cause *c)
{
	char why[sizeof(c->why)] = "";
	int rc = nvme_tunnel_is(dev) ? tunnel_send(dev, q, cmd, why, sizeof(why)) : nvme_ioctl_send(dev->fd, q, cmd);
	int err = rc < 0 ? -rc : EIO;

	if (rc == 0)
		return 0;
	if (what)
		c->what = what;
	/* The controller's status itself, beside its words: SCT (10:8) and SC (7:0). */
	c->status = rc > 0 ? (unsigned int)rc & 0x7ff : 0;
	snprintf(c->why, sizeof(c->why), "%s", why[0] ? why : rc < 0 ? strerror(err) : nvme_status_text(rc));
	return err;
}

static int identify(struct device *dev, uint8_t cns, uint32_t nsid, void *buf, struct disk_cause *c)
{
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_ADMIN_IDENTIFY,
		.nsid = nsid,
		.addr = (uint64_t)(uintptr_t)buf,
		.data_len = NVME_IDENTIFY_BYTES,
		.cdw10 = cns,
	};

	memset(buf, 0, NVME_IDENTIFY_BYTES);
	return nvme_send(dev, NVME_ADMIN_QUEUE, &cmd,
			 cns == NVME_CNS_CONTROLLER ? "NVMe Identify Controller" : "NVMe Identify Namespace", c);
}

int nvme_admin_identify(struct device *dev, uint8_t cns, uint32_t nsid, void *buf, struct disk_cause *c)
{
	return identify(dev, cns, nsid, buf, c);
}

struct nvme_id_ctrl *nvme_identify_controller(struct device *dev, int *err, struct disk_cause *c)
{
	struct nvme_id_ctrl *ctrl = malloc(sizeof(*ctrl));

	*err = ctrl ? identify(dev, NVME_CNS_CONTROLLER, 0, ctrl, c) : ENOMEM;
	if (*err) {
		free(ctrl);
		return NULL;
	}
	return ctrl;
}

/*
 * Get Features (value unused: *result) or Set Features of feature fid, of
 * namespace nsid (0: the controller's); 0 or nvme_send's errno.
 */
static int features(struct device *dev, uint8_t opcode, uint32_t nsid, uint8_t fid, uint32_t value, const char *what,
		    struct disk_cause *c, uint32_t *result)
{
	struct nvme_passthru_cmd cmd = { .opcode = opcode, .nsid = nsid, .cdw10 = fid, .cdw11 = value };
	int err = nvme_send(dev, NVME_ADMIN_QUEUE, &cmd, what, c);

	*result = cmd.result;
	return err;
}

long nvme_admin_get_features(struct device *dev, uint8_t fid, struct disk_cause *c)
{
	uint32_t result;

	int err = features(dev, NVME_ADMIN_GET_FEATURES, 0, fid, 0, "NVMe Get Features", c, &result);

	return err ? -(long)err : (long)result;
}

long nvme_admin_get_ns_features(struct device *dev, uint8_t fid, struct disk_cause *c)
{
	uint32_t result;

	int err = features(dev, NVME_ADMIN_GET_FEATURES, nvme_nsid(dev), fid, 0, "NVMe Get Features", c, &result);

	return err ? -(long)err : (long)result;
}

int nvme_admin_set_ns_features(struct device *dev, uint8_t fid, uint32_t value, const char *what, struct disk_cause *c)
{
	uint32_t result;

	return features(dev, NVME_ADMIN_SET_FEATURES, nvme_nsid(dev), fid, value, what, c, &result);
}

int nvme_admin_get_features_data(struct device *dev, uint8_t fid, void *buf, uint32_t bytes, uint32_t *result,
				 struct disk_cause *c)
{
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_ADMIN_GET_FEATURES,
		.nsid = 0,
		.addr = (uint64_t)(uintptr_t)buf,
		.data_len = bytes,
		.cdw10 = fid,
	};
	int err;

	memset(buf, 0, bytes);
	if ((err = nvme_send(dev, NVME_ADMIN_QUEUE, &cmd, "NVMe Get Features", c)))
		return err;
	*result = cmd.result;
	return 0;
}

int nvme_admin_set_features(struct device *dev, uint8_t fid, uint32_t value, const char *what, struct disk_cause *c)
{
	uint32_t result;

	return features(dev, NVME_ADMIN_SET_FEATURES, 0, fid, value, what, c, &result);
}

int nvme_admin_get_log(struct device *dev, uint8_t lid, void *buf, uint32_t bytes, struct disk_cause *c)
{
	/* The logs read here belong to the controller, not to one namespace. */
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_ADMIN_GET_LOG_PAGE,
		.nsid = NVME_NSID_ALL,
		.addr = (uint64_t)(uintptr_t)buf,
		.data_len = bytes,
		.cdw10 = NVME_LOG_CDW10(lid, bytes),
	};

	memset(buf, 0, bytes);
	return nvme_send(dev, NVME_ADMIN_QUEUE, &cmd, NULL, c);
}

int nvme_admin_fw_download(struct device *dev, const void *buf, uint32_t bytes, uint32_t offset, struct disk_cause *c)
{
	/* NUMD: the dwords less one; OFST: the offset in dwords.  The controller's, not a namespace's. */
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_ADMIN_FW_DOWNLOAD,
		.addr = (uint64_t)(uintptr_t)buf,
		.data_len = bytes,
		.cdw10 = bytes / 4 - 1,
		.cdw11 = offset / 4,
		.timeout_ms = 60000,
	};

	return nvme_send(dev, NVME_ADMIN_QUEUE, &cmd, "NVMe Firmware Image Download", c);
}

int nvme_admin_fw_commit(struct device *dev, unsigned int slot, unsigned int action, struct disk_cause *c)
{
	/* An activation may take the controller minutes (MTFA bounds only an activation without reset). */
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_ADMIN_FW_COMMIT,
		.cdw10 = NVME_COMMIT_CDW10(slot, action),
		.timeout_ms = 600000,
	};

	return nvme_send(dev, NVME_ADMIN_QUEUE, &cmd, "NVMe Firmware Commit", c);
}

int nvme_admin_security_receive(struct device *dev, uint8_t protocol, uint16_t sp_specific, void *buf, uint32_t len,
				struct disk_cause *c)
{
	/*
	 * CDW10: SECP (31:24), SPSP (23:8), NSSF 0; CDW11: the allocation length.
	 * NSID 0: the controller's security, as the kernel's sed-opal (nvme_sec_submit) and sedutil send it.
	 */
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_ADMIN_SECURITY_RECEIVE,
		.nsid = 0,
		.addr = (uint64_t)(uintptr_t)buf,
		.data_len = len,
		.cdw10 = (uint32_t)protocol << 24 | (uint32_t)sp_specific << 8,
		.cdw11 = len,
	};

	memset(buf, 0, len);
	return nvme_send(dev, NVME_ADMIN_QUEUE, &cmd, "NVMe Security Receive", c);
}

int nvme_admin_security_send(struct device *dev, uint8_t protocol, uint16_t sp_specific, const void *buf, uint32_t len,
			     struct disk_cause *c)
{
	/* CDW10 as Security Receive's; CDW11: the transfer length. */
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_ADMIN_SECURITY_SEND,
		.nsid = 0,
		.addr = (uint64_t)(uintptr_t)buf,
		.data_len = len,
		.cdw10 = (uint32_t)protocol << 24 | (uint32_t)sp_specific << 8,
		.cdw11 = len,
	};

	return nvme_send(dev, NVME_ADMIN_QUEUE, &cmd, "NVMe Security Send", c);
}

int nvme_admin_sanitize(struct device *dev, uint32_t cdw10, uint32_t pattern, struct disk_cause *c)
{
	/* Sanitize acts on the whole subsystem: no namespace; it returns at once and runs on. */
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_ADMIN_SANITIZE,
		.nsid = 0,
		.cdw10 = cdw10,
		.cdw11 = pattern,
	};

	return nvme_send(dev, NVME_ADMIN_QUEUE, &cmd, "NVMe Sanitize", c);
}

int nvme_admin_self_test(struct device *dev, uint8_t stc, struct disk_cause *c)
{
	/* Every namespace and the controller (NSID FFFFFFFFh, as nvme-cli sends it); it returns at once and runs on. */
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_ADMIN_DEVICE_SELF_TEST,
		.nsid = NVME_NSID_ALL,
		.cdw10 = stc,
	};

	return nvme_send(dev, NVME_ADMIN_QUEUE, &cmd, "NVMe Device Self-test", c);
}

int nvme_admin_format(struct device *dev, uint32_t nsid, uint32_t cdw10, struct disk_cause *c)
{
	/* A format with secure erase returns when the erase is done: allow it hours. */
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_ADMIN_FORMAT_NVM,
		.nsid = nsid,
		.cdw10 = cdw10,
		.timeout_ms = 4u * 3600u * 1000u,
	};

	return nvme_send(dev, NVME_ADMIN_QUEUE, &cmd, "NVMe Format NVM", c);
}

int nvme_io_flush(struct device *dev, struct disk_cause *c)
{
	struct nvme_passthru_cmd cmd = { .opcode = NVME_IO_FLUSH, .nsid = nvme_nsid(dev), .timeout_ms = 60000 };

	return nvme_send(dev, NVME_IO_QUEUE, &cmd, "NVMe Flush", c);
}

int nvme_io_read(struct device *dev, uint64_t lba, void *buf, uint32_t bytes, struct disk_cause *c)
{
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_IO_READ,
		.nsid = nvme_nsid(dev),
		.addr = (uint64_t)(uintptr_t)buf,
		.data_len = bytes,
		.cdw10 = (uint32_t)lba,
		.cdw11 = (uint32_t)(lba >> 32),
		.cdw12 = 0,	/* one block (0-based count) */
		.timeout_ms = 60000,
	};

	return nvme_send(dev, NVME_IO_QUEUE, &cmd, NULL, c);
}

int nvme_io_verify(struct device *dev, uint64_t lba, uint32_t blocks, struct disk_cause *c)
{
	/* NVM Command Set 3.3.4: SLBA in CDW10 (low) and CDW11 (high), NLB 0-based in CDW12 15:0; no data. */
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_IO_VERIFY,
		.nsid = nvme_nsid(dev),
		.cdw10 = (uint32_t)lba,
		.cdw11 = (uint32_t)(lba >> 32),
		.cdw12 = (blocks - 1) & 0xffff,
		.timeout_ms = 60000,
	};

	return nvme_send(dev, NVME_IO_QUEUE, &cmd, "NVMe Verify", c);
}

void nvme_dsm_pack(const struct sector_range *pieces, unsigned int n, uint8_t buf[NVME_DSM_BYTES])
{
	memset(buf, 0, NVME_DSM_BYTES);
	for (unsigned int i = 0; i < n && i < NVME_DSM_MAX_RANGES; i++) {
		put_le32(buf + 16 * i + 4, (uint32_t)pieces[i].count);
		put_le64(buf + 16 * i + 8, pieces[i].lba);
	}
}

int nvme_io_deallocate(struct device *dev, const struct sector_range *pieces, unsigned int n, struct disk_cause *c)
{
	uint8_t *buf = malloc(NVME_DSM_BYTES);
	struct nvme_passthru_cmd cmd = {
		.opcode = NVME_IO_DSM,
		.nsid = nvme_nsid(dev),
		.addr = (uint64_t)(uintptr_t)buf,
		.data_len = 16 * n,
		.cdw10 = n - 1,	/* NR: ranges, 0-based */
		.cdw11 = NVME_DSM_ATTR_DEALLOCATE,
		.timeout_ms = 300000,
	};
	int err;

	if (!buf)
		return ENOMEM;
	nvme_dsm_pack(pieces, n, buf);
	err = nvme_send(dev, NVME_IO_QUEUE, &cmd, "NVMe Dataset Management (deallocate)", c);
	free(buf);
	return err;
}

int nvme_identify_namespace(struct device *dev, void *buf, struct disk_cause *c)
{
	return identify(dev, NVME_CNS_NAMESPACE, nvme_nsid(dev), buf, c);
}

/* The device is NVMe, its node naming namespace nsid: the kind's state made (false: no memory). */
static bool keep_nsid(struct device *dev, uint32_t nsid)
{
	if (!dev->nvme_node && !(dev->nvme_node = calloc(1, sizeof(*dev->nvme_node))))
		return false;
	dev->nvme_node->nsid = nsid;
	return true;
}

bool nvme_detect(struct device *dev)
{
	struct stat st;
	uint8_t *buf;
	bool found = false;
	int id;

	if (fstat(dev->fd, &st) || !(S_ISBLK(st.st_mode) || S_ISCHR(st.st_mode)))
		return false;
	/* A namespace, as a block device or a generic node (/dev/ngXnY), says which it is. */
	id = nvme_ioctl_nsid(dev->fd);
	if (id > 0)
		return keep_nsid(dev, (uint32_t)id);
	if (!S_ISCHR(st.st_mode))
		return false;
	/*
	 * A controller (/dev/nvmeX) answers Identify Controller but names no
	 * namespace: its queries are the controller's, and a namespace's
	 * command through it is refused rather than sent to namespace 1.
	 */
	buf = malloc(NVME_IDENTIFY_BYTES);
	if (buf && identify(dev, NVME_CNS_CONTROLLER, 0, buf, &(struct disk_cause){ 0 }) == 0)
		found = keep_nsid(dev, NVME_NSID_ALL);
	free(buf);
	return found;
}

int nvme_tunnel_detect(struct device *dev, bool ask, struct disk_cause *c)
{
	uint8_t *buf;
	int err;

	/* Namespace 1: ASMedia's and Realtek's CDBs name no namespace and identify that one, as smartctl does. */
	if (!keep_nsid(dev, 1))
		return ENOMEM;
	if (!ask)
		return 0;
	buf = malloc(NVME_IDENTIFY_BYTES);
	err = buf ? identify(dev, NVME_CNS_CONTROLLER, 0, buf, c) : ENOMEM;
	free(buf);
	if (err) {
		free(dev->nvme_node);
		dev->nvme_node = NULL;
	}
	return err;
}
