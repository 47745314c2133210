/*
 * The three USB bridges' NVMe tunnels on the wire, as smartmontools sends
 * them (scsinvme.cpp: sntjmicron, sntasmedia, sntrealtek): which admin
 * commands each carries, the vendor CDBs that carry them, and the
 * bridge's answers judged.  Pure functions of bytes (the fuzz target's,
 * tests/fuzz/fuzz_tunnel.c); nvme_tunnel.c sends what they build.
 *
 *   JMicron JMS583/581: three ATA PASS-THROUGH (12) CDBs (A1h) with byte 1
 *     80h | step: 0, the 512-byte command block out ('NVME' signature, the
 *     submission queue entry's opcode, NSID and CDW10-15, little-endian);
 *     2 (data in) or 1 (no data), the data; Fh, the 512-byte reply back
 *     (signature, the result dword at dword 2, the status at dword 5 31:17).
 *   ASMedia ASM2362/2364: one 16-byte CDB E6h: opcode, CDW10 7:0 and 31:16,
 *     CDW13 and CDW12, data in; no NSID, no status, no result.
 *   Realtek RTL9210/9211/9220: one 16-byte CDB E4h: the length (LE16), the
 *     opcode, CDW10 7:0, data in; no NSID, no status, no result.
 */
#ifndef HDPARM_NVME_TUNNEL_WIRE_H
#define HDPARM_NVME_TUNNEL_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/nvme_ioctl.h>

#include "device.h"

/* JMicron's steps (CDB byte 1, 3:0) and the length of its command block and reply. */
enum { TUNNEL_JM_COMMAND = 0x0, TUNNEL_JM_NO_DATA = 0x1, TUNNEL_JM_DATA_IN = 0x2, TUNNEL_JM_REPLY = 0xf };
#define TUNNEL_JM_BLOCK 512
#define TUNNEL_JM_CDB_LEN 12
#define TUNNEL_VENDOR_CDB_LEN 16
/* 'NVME' as the first dword of JMicron's block and reply, little-endian. */
#define TUNNEL_JM_SIGNATURE 0x454d564eu
/* The most data one tunnelled command moves: Realtek's length field is 16 bits; Identify is 4096. */
#define TUNNEL_MAX_DATA 4096u

/* "JMicron", "ASMedia", "Realtek"; NULL for a protocol that is no NVMe tunnel. */
const char *nvme_tunnel_wire_vendor(enum bridge_protocol p);

/*
 * Whether protocol p carries cmd (admin: on the admin queue; the tunnels
 * carry no I/O command): Identify Controller and Namespace, Get Log Page,
 * and on JMicron Get Features (the others return no result dword), within
 * what smartmontools found each bridge to pass.  false with why ("carries
 * no NVMe Format NVM"), for a refusal made before anything is sent.
 */
bool nvme_tunnel_wire_carries(enum bridge_protocol p, bool admin, const struct nvme_passthru_cmd *cmd, char *why,
			      size_t size);

/*
 * The Device Self-test log through a bridge that cannot move it whole
 * (smartmontools' scsinvme.cpp: JMicron's controller hangs on a read of
 * more than 218h bytes, GH #256; a Realtek returns an older command's
 * data past 200h): cmd cut to what the bridge takes (its length, and NUMD
 * in CDW10).  Returns the bytes of the log's header and whole entries in
 * that; cmd->data_len where nothing is cut.
 */
uint32_t nvme_tunnel_wire_log_cut(enum bridge_protocol p, struct nvme_passthru_cmd *cmd);

/* JMicron: the CDB of one step (len: the bytes it moves), and the command block of step 0. */
void nvme_tunnel_wire_jm_cdb(unsigned int step, uint32_t len, uint8_t cdb[TUNNEL_JM_CDB_LEN]);
void nvme_tunnel_wire_jm_block(const struct nvme_passthru_cmd *cmd, uint8_t block[TUNNEL_JM_BLOCK]);

/* ASMedia's and Realtek's one CDB for cmd. */
void nvme_tunnel_wire_asm_cdb(const struct nvme_passthru_cmd *cmd, uint8_t cdb[TUNNEL_VENDOR_CDB_LEN]);
void nvme_tunnel_wire_rtk_cdb(const struct nvme_passthru_cmd *cmd, uint8_t cdb[TUNNEL_VENDOR_CDB_LEN]);

/*
 * JMicron's reply, got of its bytes arrived: 0 with *result; the NVMe
 * status (> 0: SCT 10:8, SC 7:0, as the kernel's ioctl returns it); or -1
 * where the reply is none (short, or without the signature), why saying so.
 */
int nvme_tunnel_wire_jm_reply(const uint8_t *reply, size_t got, uint32_t *result, char *why, size_t size);

/*
 * The data that came for cmd (got of the asked bytes arrived): true where
 * it can be the controller's; false where it is not (fewer bytes than
 * asked, an Identify page or SMART / Health log of one byte over and
 * over, zeros or a filler, or any other answer of one non-zero byte over
 * and over, which no controller sends), why saying so.
 */
bool nvme_tunnel_wire_data(const struct nvme_passthru_cmd *cmd, const uint8_t *data, size_t asked, size_t got,
			   char *why, size_t size);

#endif
