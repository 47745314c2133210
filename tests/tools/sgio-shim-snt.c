/*
 * Included by sgio-shim.c: a USB bridge that tunnels NVMe admin commands
 * in its vendor SCSI commands, as smartmontools' scsinvme.cpp sends them,
 * answered from the NVMe controller the double already is (SHIM_NVME's
 * pages, SHIM_NVME_TEMP, SHIM_NVME_HEALTH, SHIM_NVME_PS, ...).
 *
 *   SHIM_SNT=jmicron|asmedia|realtek   the bridge's protocol: JMicron's three
 *                       A1h steps (80h|0 command block out, 80h|2 data in or
 *                       80h|1 none, 80h|Fh reply in), ASMedia's E6h, Realtek's
 *                       E4h.  The NVMe ioctls then fail (ENOTTY), as on a SCSI
 *                       disk; other SCSI commands are the SHIM_SCSI disk's.
 *                       Each tunnelled command is logged as "snt-admin: OPC
 *                       NSID CDW10 CDW11" (little-endian), Identify too.
 *   SHIM_NVME_HEALTH=FILE  the SMART / Health log's bytes (hex) from FILE, on a native
 *                       NVMe node too; SHIM_NVME_TEMP's kelvin over its temperature
 *   SHIM_SNT_BAD=zeros|short|signature|refuse|status|timeout|refuse-reply|gone   a bridge that answers
 *                       garbage: data of zeros; half the data (the resid says
 *                       so); a JMicron reply without its 'NVME' signature;
 *                       CHECK CONDITION, ILLEGAL REQUEST, invalid command
 *                       operation code, to every vendor CDB; NVMe status
 *                       0002h in JMicron's reply; every vendor CDB timed out
 *                       (host_status DID_TIME_OUT); JMicron's reply step alone
 *                       refused, after its command block and data went through;
 *                       unplugged: SG_IO itself fails (ENODEV) for every vendor CDB.
 *                       BAD@XX: only for admin opcode XX (hex).
 */

static int snt_bridge(void)
{
	return getenv("SHIM_SNT") != NULL;
}

/* The SMART / Health log from SHIM_NVME_HEALTH (-1: it did not load), its temperature kept unless SHIM_NVME_TEMP says one. */
static int snt_health(unsigned char *buf, unsigned int len, unsigned int *kelvin)
{
	const char *path = getenv("SHIM_NVME_HEALTH");

	if (!path)
		return 0;
	if (load_bytes(path, 0, buf, len))
		return -1;
	if (!getenv("SHIM_NVME_TEMP"))
		*kelvin = buf[1] | buf[2] << 8;
	return 0;
}

/* JMicron: the command of the last block sent, and how it ended, for the reply. */
static struct {
	struct nvme_passthru_cmd cmd;
	int have, status;
	unsigned int result;
} jm;

static unsigned int le32_at(const unsigned char *p)
{
	return p[0] | (unsigned int)p[1] << 8 | (unsigned int)p[2] << 16 | (unsigned int)p[3] << 24;
}

static void put_le32_at(unsigned char *p, unsigned int v)
{
	for (int b = 0; b < 4; b++)
		p[b] = (unsigned char)(v >> (8 * b));
}

/* SHIM_SNT_BAD's garbage, where it applies to this opcode: "" where none. */
static const char *snt_bad(unsigned int opcode)
{
	const char *bad = getenv("SHIM_SNT_BAD"), *at;

	if (!bad)
		return "";
	at = strchr(bad, '@');
	if (at && strtoul(at + 1, NULL, 16) != opcode)
		return "";
	return bad;
}

static int snt_bad_is(unsigned int opcode, const char *what)
{
	return strncmp(snt_bad(opcode), what, strlen(what)) == 0;
}

/* The controller runs the tunnelled command: its status (0: done), and the data's garbage if asked for. */
static int snt_run(struct sg_io_hdr *io, struct nvme_passthru_cmd *cmd)
{
	char pages[1024], *comma;
	int status;

	log_nvme("snt-admin", cmd);
	snprintf(pages, sizeof(pages), "%s", getenv("SHIM_NVME") ? getenv("SHIM_NVME") : "");
	comma = strchr(pages, ',');
	if (!comma)
		return 0x0002;
	*comma = '\0';
	status = fake_nvme_admin(cmd, pages, comma + 1);
	if (status < 0)
		status = 0x0006;	/* internal error: the double's page did not load */
	if (cmd->data_len && snt_bad_is(cmd->opcode, "zeros"))
		memset(io->dxferp, 0, cmd->data_len);
	if (cmd->data_len && snt_bad_is(cmd->opcode, "short"))
		io->resid = (int)(cmd->data_len / 2);
	return status;
}

static void snt_jmicron(struct sg_io_hdr *io, const unsigned char *cdb)
{
	unsigned char *p = io->dxferp;
	unsigned int len = (unsigned int)cdb[3] << 16 | cdb[4] << 8 | cdb[5];

	switch (cdb[1] & 0x0f) {
	case 0x0:	/* the command block: signature, opcode, NSID, CDW10-15 */
		if (io->dxfer_direction != SG_DXFER_TO_DEV || io->dxfer_len < 512 || le32_at(p) != 0x454d564eu) {
			check_condition(io, 0x05, 0x24, 0x00);
			return;
		}
		memset(&jm, 0, sizeof(jm));
		jm.have = 1;
		jm.cmd.opcode = p[8];
		jm.cmd.nsid = le32_at(p + 12);
		jm.cmd.cdw10 = le32_at(p + 48), jm.cmd.cdw11 = le32_at(p + 52), jm.cmd.cdw12 = le32_at(p + 56);
		jm.cmd.cdw13 = le32_at(p + 60), jm.cmd.cdw14 = le32_at(p + 64), jm.cmd.cdw15 = le32_at(p + 68);
		return;
	case 0x1:	/* no data */
	case 0x2:	/* data in */
		if (!jm.have) {
			check_condition(io, 0x05, 0x24, 0x00);
			return;
		}
		jm.cmd.addr = (uint64_t)(uintptr_t)io->dxferp;
		jm.cmd.data_len = (cdb[1] & 0x0f) == 0x2 ? (len < io->dxfer_len ? len : io->dxfer_len) : 0;
		jm.status = snt_run(io, &jm.cmd);
		jm.result = jm.cmd.result;
		if (snt_bad_is(jm.cmd.opcode, "status"))
			jm.status = 0x0002;
		return;
	case 0xf:	/* the reply: signature, result (dword 2), status (dword 5, 31:17) */
		if (!jm.have || io->dxfer_len < 512) {
			check_condition(io, 0x05, 0x24, 0x00);
			return;
		}
		memset(p, 0, io->dxfer_len);
		put_le32_at(p, snt_bad_is(jm.cmd.opcode, "signature") ? 0x4e564d45u : 0x454d564eu);
		put_le32_at(p + 8, jm.result);
		put_le32_at(p + 20, (unsigned int)jm.status << 17);
		if (snt_bad_is(jm.cmd.opcode, "short"))
			io->resid = (int)io->dxfer_len - 16;
		jm.have = 0;
		return;
	default:
		check_condition(io, 0x05, 0x24, 0x00);
	}
}

/* ASMedia (E6h) and Realtek (E4h): one CDB, the data in; a failed command leaves the data as it was. */
static void snt_one_cdb(struct sg_io_hdr *io, const unsigned char *cdb, int realtek)
{
	struct nvme_passthru_cmd cmd = { 0 };

	if (realtek) {
		unsigned int len = cdb[1] | cdb[2] << 8;

		cmd.opcode = cdb[3];
		cmd.data_len = len < io->dxfer_len ? len : io->dxfer_len;
		cmd.cdw10 = cdb[4];
		if (cmd.opcode == 0x02)	/* Get Log Page: the dwords from the length */
			cmd.cdw10 |= (cmd.data_len / 4 - 1) << 16;
	} else {
		cmd.opcode = cdb[1];
		cmd.data_len = io->dxfer_len;
		cmd.cdw10 = cdb[3] | (unsigned int)(cdb[6] << 8 | cdb[7]) << 16;
		cmd.cdw13 = (unsigned int)cdb[8] << 24 | cdb[9] << 16 | cdb[10] << 8 | cdb[11];
		cmd.cdw12 = (unsigned int)cdb[12] << 24 | cdb[13] << 16 | cdb[14] << 8 | cdb[15];
	}
	if (io->dxfer_direction != SG_DXFER_FROM_DEV || (cmd.opcode != 0x06 && cmd.opcode != 0x02)) {
		check_condition(io, 0x05, 0x24, 0x00);
		return;
	}
	cmd.nsid = cmd.opcode == 0x06 ? (cmd.cdw10 == 0 ? 1 : 0) : 0xffffffffu;
	cmd.addr = (uint64_t)(uintptr_t)io->dxferp;
	memset(io->dxferp, 0, io->dxfer_len);
	(void)snt_run(io, &cmd);
}

/* A vendor CDB of the SHIM_SNT bridge: answered (1), not one (0: the SCSI disk's), or SG_IO fails (-1, errno). */
static int fake_snt(struct sg_io_hdr *io)
{
	const unsigned char *cdb = io->cmdp;
	const char *snt = getenv("SHIM_SNT");
	int jmicron = strcmp(snt, "jmicron") == 0 && cdb[0] == 0xa1 && (cdb[1] & 0x80);
	int asmedia = strcmp(snt, "asmedia") == 0 && cdb[0] == 0xe6;
	int realtek = strcmp(snt, "realtek") == 0 && cdb[0] == 0xe4;

	if (!jmicron && !asmedia && !realtek)
		return 0;
	io->status = io->masked_status = io->host_status = io->driver_status = 0;
	io->sb_len_wr = 0;
	io->resid = 0;
	if (strcmp(getenv("SHIM_SNT_BAD") ? getenv("SHIM_SNT_BAD") : "", "refuse") == 0 ||
	    (jmicron && (cdb[1] & 0x0f) == 0xf && strcmp(getenv("SHIM_SNT_BAD") ? getenv("SHIM_SNT_BAD") : "", "refuse-reply") == 0)) {
		check_condition(io, 0x05, 0x20, 0x00);
		return 1;
	}
	if (strcmp(getenv("SHIM_SNT_BAD") ? getenv("SHIM_SNT_BAD") : "", "gone") == 0) {
		errno = ENODEV;
		return -1;
	}
	if (strcmp(getenv("SHIM_SNT_BAD") ? getenv("SHIM_SNT_BAD") : "", "timeout") == 0) {
		io->host_status = 0x03;
		return 1;
	}
	if (jmicron)
		snt_jmicron(io, cdb);
	else
		snt_one_cdb(io, cdb, realtek);
	return 1;
}
