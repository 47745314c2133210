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
#include "usb_bridge.h"

bool nvme_tunnel_is(const struct device *dev)
{
	return nvme_tunnel_wire_vendor(dev->bridge) != NULL;
}

char *nvme_tunnel_name(const struct device *dev, char *buf, size_t size)
{
	const struct usb_bridge *row = usb_bridge_find(dev->usb_id);
	const char *vendor = nvme_tunnel_wire_vendor(dev->bridge);

	/* The table's chip where its protocol is the one spoken (not forced otherwise), else the protocol's vendor. */
	if (row && row->protocol == dev->bridge)
		vendor = row->chip;
	snprintf(buf, size, "the %s USB bridge%s%s", vendor ? vendor : "", dev->usb_id[0] ? " " : "", dev->usb_id);
	return buf;
}

/* How one of the tunnel's SCSI commands ended: 0, or -errno with why. */
static int judged(const struct device *dev, const struct sg_reply *r, char *why, size_t size)
{
	char name[128], text[160];
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
	char name[128];

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

int nvme_tunnel_send(struct device *dev, enum nvme_queue q, struct nvme_passthru_cmd *cmd, char *why, size_t size)
{
	char name[128], reason[160];

	why[0] = '\0';
	cmd->result = 0;
	if (!nvme_tunnel_wire_carries(dev->bridge, q == NVME_ADMIN_QUEUE, cmd, reason, sizeof(reason))) {
		snprintf(why, size, "%s %s: connect the drive to an NVMe port for it", nvme_tunnel_name(dev, name, sizeof(name)),
			 reason);
		return -EOPNOTSUPP;
	}
	/* What a failure leaves in the buffer is the bridge's, not the drive's: zeros. */
	if (cmd->data_len)
		memset((void *)(uintptr_t)cmd->addr, 0, cmd->data_len);
	return dev->bridge == BRIDGE_SNTJMICRON ? jmicron(dev, cmd, why, size) : one_cdb(dev, cmd, why, size);
}
