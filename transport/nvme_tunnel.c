/*
 * The NVMe tunnels sent (nvme_tunnel.h): the CDBs nvme_tunnel_wire.c
 * builds go out through sg_send(), and what comes back is judged there,
 * every length bounded by the buffer and by the bytes that arrived.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nvme_tunnel.h"
#include "nvme_tunnel_wire.h"
#include "sg.h"
#include "unaligned.h"
#include "usb_bridge.h"

bool nvme_tunnel_is(const struct device *dev)
{
	return nvme_tunnel_wire_vendor(dev->bridge) != NULL;
}

char *nvme_tunnel_name(const struct device *dev, char *buf, size_t size)
{
	const struct usb_bridge *row = usb_bridge_find(dev->usb_id);
	const char *vendor = nvme_tunnel_wire_vendor(dev->bridge);

	/* The table's chip where its protocol is the one spoken; a chip --bridge speaks another's to is named as both. */
	if (row && row->protocol != dev->bridge)
		snprintf(buf, size, "the %s USB bridge %s, spoken to in %s's protocol (--bridge)", row->chip, dev->usb_id,
			 vendor ? vendor : "");
	else
		snprintf(buf, size, "the %s USB bridge%s%s", row ? row->chip : vendor ? vendor : "", dev->usb_id[0] ? " " : "",
			 dev->usb_id);
	return buf;
}

/* How one of the tunnel's SCSI commands ended: 0, or -errno with why. */
static int judged(const struct device *dev, const struct sg_reply *r, char *why, size_t size)
{
	char name[192], text[160];
	struct sense s;

	nvme_tunnel_name(dev, name, sizeof(name));
	switch (r->cat) {
	case SG_CAT_GOOD:
		return 0;
	case SG_CAT_IOCTL:
		snprintf(why, size, "%s: SG_IO: %s", name, strerror(r->err));
		return -(r->err ? r->err : EIO);
	case SG_CAT_TIMEOUT:
		snprintf(why, size, "%s did not answer its NVMe tunnel's command in time", name);
		return -ETIMEDOUT;
	case SG_CAT_SENSE:
		sense_normalise(r->sense, r->sense_len, &s);
		snprintf(why, size, "%s refused its NVMe tunnel's command: %s", name,
			 s.valid ? sense_describe(&s, text, sizeof(text)) : "CHECK CONDITION without sense data");
		return -EPROTO;
	default:
		snprintf(why, size, "%s refused its NVMe tunnel's command (SCSI status %02xh, host status %02xh)", name,
			 r->status, r->host_status);
		return -EPROTO;
	}
}

/* The answer is none a controller sends: why names the bridge before the wire's reason. */
static int garbage(const struct device *dev, const char *reason, char *why, size_t size)
{
	char name[192];

	snprintf(why, size, "%s did not pass the command: %s", nvme_tunnel_name(dev, name, sizeof(name)), reason);
	return -EPROTO;
}

static unsigned int timeout_s(const struct nvme_passthru_cmd *cmd)
{
	return (cmd->timeout_ms + 999) / 1000;
}

/* JMicron: the command block out, the data (or none), the reply in. */
static int jmicron(struct device *dev, struct nvme_passthru_cmd *cmd, char *why, size_t size)
{
	uint8_t cdb[TUNNEL_JM_CDB_LEN], block[TUNNEL_JM_BLOCK], reply[TUNNEL_JM_BLOCK] = { 0 }, *data = (uint8_t *)(uintptr_t)cmd->addr;
	char reason[160];
	struct sg_reply r, data_r;
	uint32_t result = 0;
	int err, status;

	nvme_tunnel_wire_jm_block(cmd, block);
	nvme_tunnel_wire_jm_cdb(TUNNEL_JM_COMMAND, sizeof(block), cdb);
	sg_send(dev, cdb, sizeof(cdb), SG_DATA_OUT, block, sizeof(block), 0, &r);
	if ((err = judged(dev, &r, why, size)))
		return err;
	nvme_tunnel_wire_jm_cdb(cmd->data_len ? TUNNEL_JM_DATA_IN : TUNNEL_JM_NO_DATA, cmd->data_len, cdb);
	sg_send(dev, cdb, sizeof(cdb), cmd->data_len ? SG_DATA_IN : SG_NO_DATA, data, cmd->data_len, timeout_s(cmd), &data_r);
	if ((err = judged(dev, &data_r, why, size)))
		return err;
	nvme_tunnel_wire_jm_cdb(TUNNEL_JM_REPLY, sizeof(reply), cdb);
	sg_send(dev, cdb, sizeof(cdb), SG_DATA_IN, reply, sizeof(reply), 0, &r);
	if ((err = judged(dev, &r, why, size)))
		return err;
	status = nvme_tunnel_wire_jm_reply(reply, r.got, &result, reason, sizeof(reason));
	if (status < 0)
		return garbage(dev, reason, why, size);
	if (status > 0)
		return status;
	if (cmd->data_len && !nvme_tunnel_wire_data(cmd, data, cmd->data_len, data_r.got, reason, sizeof(reason)))
		return garbage(dev, reason, why, size);
	cmd->result = result;
	return 0;
}

/* ASMedia and Realtek: one vendor CDB, the data in; the bridge returns no status and no result. */
static int one_cdb(struct device *dev, struct nvme_passthru_cmd *cmd, char *why, size_t size)
{
	uint8_t cdb[TUNNEL_VENDOR_CDB_LEN], *data = (uint8_t *)(uintptr_t)cmd->addr;
	char reason[160];
	struct sg_reply r;
	int err;

	if (dev->bridge == BRIDGE_SNTASMEDIA)
		nvme_tunnel_wire_asm_cdb(cmd, cdb);
	else
		nvme_tunnel_wire_rtk_cdb(cmd, cdb);
	sg_send(dev, cdb, sizeof(cdb), SG_DATA_IN, data, cmd->data_len, timeout_s(cmd), &r);
	if ((err = judged(dev, &r, why, size)))
		return err;
	if (!nvme_tunnel_wire_data(cmd, data, cmd->data_len, r.got, reason, sizeof(reason)))
		return garbage(dev, reason, why, size);
	return 0;
}

/*
 * Flush and a Read: not through the tunnel but as the SCSI commands the
 * bridge itself turns into them for the block device (SYNCHRONIZE CACHE
 * (10), READ (16) of the same blocks); *done where cmd is one of them.  A
 * failure is the drive's (the sense data's words), not the tunnel's.
 */
static int scsi_io(struct device *dev, struct nvme_passthru_cmd *cmd, char *why, size_t size, bool *done)
{
	uint8_t cdb[16] = { 0 }, *data = (uint8_t *)(uintptr_t)cmd->addr;
	uint64_t lba = (uint64_t)cmd->cdw11 << 32 | cmd->cdw10;
	char name[192], text[160];
	struct sg_reply r;
	struct sense s;
	int err;

	*done = cmd->opcode == 0x00 || (cmd->opcode == 0x02 && cmd->data_len && cmd->addr);
	if (!*done)
		return 0;
	if (cmd->opcode == 0x00) {
		cdb[0] = 0x35;
		sg_send(dev, cdb, 10, SG_NO_DATA, NULL, 0, timeout_s(cmd), &r);
	} else {
		cdb[0] = 0x88;
		put_be64(cdb + 2, lba);
		put_be32(cdb + 10, (cmd->cdw12 & 0xffff) + 1);	/* NLB is 0-based */
		sg_send(dev, cdb, 16, SG_DATA_IN, data, cmd->data_len, timeout_s(cmd), &r);
	}
	if (r.cat == SG_CAT_SENSE) {
		sense_normalise(r.sense, r.sense_len, &s);
		snprintf(why, size, "%s", s.valid ? sense_describe(&s, text, sizeof(text)) : "CHECK CONDITION without sense data");
		return -EIO;
	}
	if ((err = judged(dev, &r, why, size)))
		return err;
	if (cmd->opcode == 0x02 && r.got < cmd->data_len) {
		snprintf(why, size, "%s sent %zu of the %u bytes of READ (16) asked for", nvme_tunnel_name(dev, name, sizeof(name)),
			 r.got, cmd->data_len);
		return -EIO;
	}
	return 0;
}

int nvme_tunnel_send(struct device *dev, enum nvme_queue q, struct nvme_passthru_cmd *cmd, char *why, size_t size)
{
	char name[192], reason[160];
	struct nvme_passthru_cmd sent = *cmd;
	uint32_t kept = nvme_tunnel_wire_log_cut(dev->bridge, &sent);
	bool done;
	int err;

	why[0] = '\0';
	cmd->result = 0;
	if (q == NVME_IO_QUEUE && (err = scsi_io(dev, cmd, why, size, &done), done))
		return err;
	if (!nvme_tunnel_wire_carries(dev->bridge, q == NVME_ADMIN_QUEUE, &sent, reason, sizeof(reason))) {
		snprintf(why, size, "%s %s: connect the drive to an NVMe port for it", nvme_tunnel_name(dev, name, sizeof(name)),
			 reason);
		return -EOPNOTSUPP;
	}
	/* What a failure leaves in the buffer is the bridge's, not the drive's: zeros. */
	if (cmd->data_len)
		memset((void *)(uintptr_t)cmd->addr, 0, cmd->data_len);
	err = dev->bridge == BRIDGE_SNTJMICRON ? jmicron(dev, &sent, why, size) : one_cdb(dev, &sent, why, size);
	cmd->result = sent.result;
	/* The self-test log's entries the bridge could not bring: marked not used (result Fh), as a controller marks its empty ones. */
	if (!err && kept < cmd->data_len)
		memset((uint8_t *)(uintptr_t)cmd->addr + kept, 0xff, cmd->data_len - kept);
	return err;
}
