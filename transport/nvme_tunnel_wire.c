/* The three NVMe tunnels' CDBs and answers (nvme_tunnel_wire.h): bytes in, bytes out. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nvme_tunnel_wire.h"
#include "unaligned.h"

/* The admin opcodes the tunnels are asked for (NVMe Base 2.0, figure 28), and the CNS values of Identify. */
#define OPC_GET_LOG_PAGE 0x02
#define OPC_IDENTIFY 0x06
#define OPC_GET_FEATURES 0x0a
#define CNS_NAMESPACE 0x00
#define CNS_CONTROLLER 0x01
#define LOG_SMART_HEALTH 0x02
#define NSID_ALL 0xffffffffu
/* Realtek: a log read longer than this returns the previous command's data (smartmontools' finding). */
#define RTK_MAX_LOG 512u
/* JMicron: a Device Self-test log read longer than this hangs the controller (smartmontools' GH #256). */
#define JM_MAX_SELF_TEST 0x218u
#define LOG_SELF_TEST 0x06
/* The Device Self-test log: a 4-byte header, then 28-byte entries. */
#define SELF_TEST_HEADER 4u
#define SELF_TEST_ENTRY 28u

const char *nvme_tunnel_wire_vendor(enum bridge_protocol p)
{
	switch (p) {
	case BRIDGE_SNTJMICRON:
		return "JMicron";
	case BRIDGE_SNTASMEDIA:
		return "ASMedia";
	case BRIDGE_SNTREALTEK:
		return "Realtek";
	default:
		return NULL;
	}
}

static const char *opcode_name(uint8_t opcode)
{
	static const struct {
		uint8_t opcode;
		const char *name;
	} names[] = {
		{ 0x02, "Get Log Page" }, { 0x06, "Identify" }, { 0x09, "Set Features" }, { 0x0a, "Get Features" },
		{ 0x10, "Firmware Commit" }, { 0x11, "Firmware Image Download" }, { 0x14, "Device Self-test" }, { 0x80, "Format NVM" },
		{ 0x81, "Security Send" }, { 0x82, "Security Receive" }, { 0x84, "Sanitize" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].opcode == opcode)
			return names[i].name;
	return "admin command";
}

/* why, worded; false: the command is not carried. */
__attribute__((format(printf, 3, 4))) static bool refuse(char *why, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, size, fmt, ap);
	va_end(ap);
	return false;
}

bool nvme_tunnel_wire_carries(enum bridge_protocol p, bool admin, const struct nvme_passthru_cmd *cmd, char *why,
			      size_t size)
{
	bool jm = p == BRIDGE_SNTJMICRON, rtk = p == BRIDGE_SNTREALTEK;

	if (!nvme_tunnel_wire_vendor(p))
		return refuse(why, size, "is no NVMe tunnel");
	if (!admin)
		return refuse(why, size, "carries no NVMe I/O command (opcode %02Xh)", cmd->opcode);
	if (cmd->data_len > TUNNEL_MAX_DATA || (cmd->data_len && !cmd->addr))
		return refuse(why, size, "carries at most %u bytes a command, not %u", TUNNEL_MAX_DATA, cmd->data_len);
	switch (cmd->opcode) {
	case OPC_IDENTIFY:
		if (cmd->cdw10 != CNS_CONTROLLER && cmd->cdw10 != CNS_NAMESPACE)
			return refuse(why, size, "carries no NVMe Identify with CDW10 %08xh", cmd->cdw10);
		/* ASMedia's and Realtek's CDBs have no NSID: they identify namespace 1. */
		if (!jm && cmd->cdw10 == CNS_NAMESPACE && cmd->nsid != 1)
			return refuse(why, size, "identifies namespace 1 alone, not %u", cmd->nsid);
		break;
	case OPC_GET_LOG_PAGE:
		if (!jm && cmd->nsid != NSID_ALL && cmd->nsid)
			return refuse(why, size, "reads the controller's logs alone, not namespace %u's", cmd->nsid);
		if (rtk && cmd->data_len > RTK_MAX_LOG)
			return refuse(why, size, "reads at most %u bytes of a log, not %u", RTK_MAX_LOG, cmd->data_len);
		break;
	case OPC_GET_FEATURES:
		/* The value is in the completion's result dword, which only JMicron's reply returns. */
		if (!jm)
			return refuse(why, size, "carries no NVMe Get Features (%02Xh), whose value it does not return",
				      cmd->opcode);
		break;
	default:
		snprintf(why, size, "carries no NVMe %s (%02Xh)", opcode_name(cmd->opcode), cmd->opcode);
		return false;
	}
	/* Dwords the vendor CDBs have no room for (ASMedia: 11, 14, 15; Realtek: 11 to 15). */
	if (!jm && (cmd->cdw11 || cmd->cdw14 || cmd->cdw15 || (rtk && (cmd->cdw12 || cmd->cdw13))))
		return refuse(why, size, "carries no NVMe %02Xh with these command dwords", cmd->opcode);
	return true;
}

uint32_t nvme_tunnel_wire_log_cut(enum bridge_protocol p, struct nvme_passthru_cmd *cmd)
{
	uint32_t max = p == BRIDGE_SNTJMICRON ? JM_MAX_SELF_TEST : p == BRIDGE_SNTREALTEK ? RTK_MAX_LOG : 0;

	if (!max || cmd->opcode != OPC_GET_LOG_PAGE || (cmd->cdw10 & 0xff) != LOG_SELF_TEST || cmd->data_len <= max)
		return cmd->data_len;
	cmd->data_len = max;
	cmd->cdw10 = (cmd->cdw10 & 0xffff) | (max / 4 - 1) << 16;	/* NUMDL, 0-based dwords; NUMDU (CDW11) stays 0 */
	return SELF_TEST_HEADER + (max - SELF_TEST_HEADER) / SELF_TEST_ENTRY * SELF_TEST_ENTRY;
}

void nvme_tunnel_wire_jm_cdb(unsigned int step, uint32_t len, uint8_t cdb[TUNNEL_JM_CDB_LEN])
{
	memset(cdb, 0, TUNNEL_JM_CDB_LEN);
	cdb[0] = 0xa1;	/* ATA PASS-THROUGH (12), which the bridge takes for its own */
	cdb[1] = (uint8_t)(0x80 | (step & 0x0f));	/* 80h: an admin command */
	put_be24(cdb + 3, len);
}

void nvme_tunnel_wire_jm_block(const struct nvme_passthru_cmd *cmd, uint8_t block[TUNNEL_JM_BLOCK])
{
	const uint32_t dwords[] = { cmd->cdw10, cmd->cdw11, cmd->cdw12, cmd->cdw13, cmd->cdw14, cmd->cdw15 };

	memset(block, 0, TUNNEL_JM_BLOCK);
	put_le32(block, TUNNEL_JM_SIGNATURE);
	put_le32(block + 8, cmd->opcode);
	put_le32(block + 12, cmd->nsid);
	for (size_t i = 0; i < sizeof(dwords) / sizeof(dwords[0]); i++)
		put_le32(block + 48 + 4 * i, dwords[i]);
}

void nvme_tunnel_wire_asm_cdb(const struct nvme_passthru_cmd *cmd, uint8_t cdb[TUNNEL_VENDOR_CDB_LEN])
{
	memset(cdb, 0, TUNNEL_VENDOR_CDB_LEN);
	cdb[0] = 0xe6;
	cdb[1] = cmd->opcode;
	cdb[3] = (uint8_t)cmd->cdw10;
	put_be16(cdb + 6, (uint16_t)(cmd->cdw10 >> 16));
	put_be32(cdb + 8, cmd->cdw13);
	put_be32(cdb + 12, cmd->cdw12);
}

void nvme_tunnel_wire_rtk_cdb(const struct nvme_passthru_cmd *cmd, uint8_t cdb[TUNNEL_VENDOR_CDB_LEN])
{
	memset(cdb, 0, TUNNEL_VENDOR_CDB_LEN);
	cdb[0] = 0xe4;
	put_le16(cdb + 1, (uint16_t)cmd->data_len);
	cdb[3] = cmd->opcode;
	cdb[4] = (uint8_t)cmd->cdw10;
}

int nvme_tunnel_wire_jm_reply(const uint8_t *reply, size_t got, uint32_t *result, char *why, size_t size)
{
	uint32_t status;

	/* The signature (dword 0), the result (dword 2) and the status (dword 5) must all have come. */
	if (got < 24) {
		snprintf(why, size, "its NVMe reply is %zu bytes, too short to hold a status", got);
		return -1;
	}
	if (get_le32(reply) != TUNNEL_JM_SIGNATURE) {
		snprintf(why, size, "its NVMe reply does not begin with the 'NVME' signature (%08xh)", get_le32(reply));
		return -1;
	}
	/* The completion's status field, bits 31:17 of its dword 3: as the kernel's ioctl returns it. */
	status = get_le32(reply + 20) >> 17;
	*result = get_le32(reply + 8);
	return (int)status;
}

/* Every byte of the n the same (n > 0): a filler, zeros or FFh, no controller's page. */
static bool all_same(const uint8_t *p, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (p[i] != p[0])
			return false;
	return n > 0;
}

bool nvme_tunnel_wire_data(const struct nvme_passthru_cmd *cmd, const uint8_t *data, size_t asked, size_t got,
			   char *why, size_t size)
{
	bool page = cmd->opcode == OPC_IDENTIFY || (cmd->opcode == OPC_GET_LOG_PAGE && (cmd->cdw10 & 0xff) == LOG_SMART_HEALTH);

	if (got > asked)
		got = asked;
	if (got < asked) {
		snprintf(why, size, "it sent %zu of the %zu bytes of NVMe %s asked for", got, asked, opcode_name(cmd->opcode));
		return false;
	}
	/*
	 * A controller always says its vendor and its temperature: a page of
	 * one byte over and over (zeros, FFh, a filler) is the bridge's.  Any
	 * other answer of one non-zero byte over and over is too: every log
	 * and feature read has reserved or zero bytes (the self-test log's
	 * header 5Ah 5Ah 5Ah 5Ah is no test at 90 %, and a wait on it never ends).
	 */
	if ((page || (asked > 1 && data[0])) && all_same(data, asked)) {
		if (data[0])
			snprintf(why, size, "it answered NVMe %s with %zu bytes of %02Xh", opcode_name(cmd->opcode), asked, data[0]);
		else
			snprintf(why, size, "it answered NVMe %s with %zu bytes of zeros", opcode_name(cmd->opcode), asked);
		return false;
	}
	return true;
}
