/*
 * What a USB bridge sends back through its NVMe tunnel
 * (transport/nvme_tunnel_wire.c): JMicron's reply and the data of all
 * three, as many bytes as arrived, each in a heap block of exactly that
 * many bytes so that a read past them is a heap overflow the sanitizer
 * sees; and the command the fuzzer makes up, which a tunnel carries or
 * refuses.  Input: 1 byte of protocol, 40 bytes of command (opcode, NSID,
 * CDW10-15, the data length, the length that arrived), then the answer.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nvme_tunnel_wire.h"
#include "unaligned.h"

#define HEAD 41

static void check_text(const char *why, size_t size)
{
	if (!memchr(why, '\0', size))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum bridge_protocol protocols[] = { BRIDGE_SNTJMICRON, BRIDGE_SNTASMEDIA, BRIDGE_SNTREALTEK, BRIDGE_SAT };
	struct nvme_passthru_cmd cmd = { 0 };
	uint8_t cdb[TUNNEL_VENDOR_CDB_LEN], block[TUNNEL_JM_BLOCK], *answer;
	char why[160];
	size_t n, asked, got;
	uint32_t result = 0;
	int status;
	enum bridge_protocol p;

	if (size < HEAD)
		return 0;
	p = protocols[data[0] % 4];
	cmd.opcode = data[1];
	cmd.nsid = get_le32(data + 2);
	cmd.cdw10 = get_le32(data + 6), cmd.cdw11 = get_le32(data + 10), cmd.cdw12 = get_le32(data + 14);
	cmd.cdw13 = get_le32(data + 18), cmd.cdw14 = get_le32(data + 22), cmd.cdw15 = get_le32(data + 26);
	cmd.data_len = get_le32(data + 30);
	cmd.addr = get_le16(data + 34) ? 1 : 0;
	got = get_le32(data + 36);
	data += HEAD, size -= HEAD;
	memset(why, 'x', sizeof(why));
	/* The self-test log cut to what the bridge takes (as the tunnel does first): never longer, whole entries within it. */
	n = cmd.data_len;
	asked = nvme_tunnel_wire_log_cut(p, &cmd);
	if (cmd.data_len > n || asked > cmd.data_len)
		__builtin_trap();
	/* A command carried moves at most TUNNEL_MAX_DATA bytes, and only an admin command of the three. */
	if (nvme_tunnel_wire_carries(p, data[-1] & 1, &cmd, why, sizeof(why))) {
		if (cmd.data_len > TUNNEL_MAX_DATA || !(data[-1] & 1) || p == BRIDGE_SAT ||
		    (cmd.opcode != 0x02 && cmd.opcode != 0x06 && cmd.opcode != 0x0a) ||
		    (cmd.opcode == 0x0a && p != BRIDGE_SNTJMICRON))
			__builtin_trap();
		nvme_tunnel_wire_asm_cdb(&cmd, cdb);
		nvme_tunnel_wire_rtk_cdb(&cmd, cdb);
		nvme_tunnel_wire_jm_cdb(TUNNEL_JM_DATA_IN, cmd.data_len, cdb);
		nvme_tunnel_wire_jm_block(&cmd, block);
		if (get_le32(block) != TUNNEL_JM_SIGNATURE || block[8] != cmd.opcode)
			__builtin_trap();
	} else {
		check_text(why, sizeof(why));
	}
	/* JMicron's reply: a status (15 bits) only where the signature and dword 5 came. */
	n = size < TUNNEL_JM_BLOCK ? size : TUNNEL_JM_BLOCK;
	answer = malloc(n ? n : 1);
	if (!answer)
		return 0;
	memcpy(answer, data, n);
	memset(why, 'x', sizeof(why));
	status = nvme_tunnel_wire_jm_reply(answer, n, &result, why, sizeof(why));
	if (status < 0)
		check_text(why, sizeof(why));
	else if (n < 24 || get_le32(answer) != TUNNEL_JM_SIGNATURE || status > 0x7fff || result != get_le32(answer + 8))
		__builtin_trap();
	free(answer);
	/* The data: asked is what the buffer holds; the bytes said to have come are bounded by it. */
	asked = size;
	answer = malloc(asked ? asked : 1);
	if (!answer)
		return 0;
	memcpy(answer, data, asked);
	memset(why, 'x', sizeof(why));
	if (nvme_tunnel_wire_data(&cmd, answer, asked, got, why, sizeof(why))) {
		if (got < asked)
			__builtin_trap();
	} else {
		check_text(why, sizeof(why));
	}
	free(answer);
	return 0;
}
