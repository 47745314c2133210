/*
 * LD_PRELOAD test double that answers from a script, as libnvme's test/ioctl/mock.c:
 * each case lists the commands hdparm must send, in order, and the disk's answer to
 * each.  A command that is not the next one listed, and a listed one never sent, are
 * written to DOUBLE_REPORT; an empty report means hdparm sent exactly the script.
 *
 *   DOUBLE_SCRIPT=FILE  the script; DOUBLE_REPORT=FILE  where mismatches go
 *
 * Script lines ('#' starts a comment):
 *   node ata | node scsi | node nvme NSID     what the node is (first line): a disk behind
 *                       a SAT layer that SG_GET_VERSION_NUM does not reach (libata's own
 *                       nodes answer it, but so do the test's: "scsi" is what answers
 *                       it), or an NVMe namespace that NVME_IOCTL_ID names
 *   sg BYTES [out BYTES] [-> REPLY...]        a SCSI command: its CDB ("..": any byte);
 *                       out: the first bytes of the data it writes
 *   admin OPC [FIELD=X...] [-> REPLY...]      an NVMe admin command; FIELD is nsid, cdw10
 *   io OPC [FIELD=X...] [-> REPLY...]         to cdw15 or len (hex); fields not named are
 *                                             not checked
 * REPLY, after "->" (nothing: GOOD, or NVMe status 0, and the data read all zeros):
 *   data BYTES | data @FILE                   the data read (FILE: hex bytes, as od -An -tx1;
 *                                             its lines that start with '#' are comments)
 *   words @FILE                               the data read: 16-bit words in hex, each
 *                                             little-endian (an ATA page as --Istdout prints it)
 *   sense BYTES                               CHECK CONDITION with this sense data
 *   resid N                                   N bytes were not transferred
 *   timeout                                   the command timed out (host_status DID_TIME_OUT, 03h)
 *   status X | result X                       the NVMe status and completion result (hex)
 *   raise SIG                                 once answered, the signal (INT, TERM, HUP, STOP, TSTP)
 *                       raised in the program, at the point the script names: no race with a
 *                       test's kill; DOUBLE_NOTES=FILE gets a line first, "SIG dumpable N"
 *                       (prctl PR_GET_DUMPABLE at that point)
 * Other ioctls fail with ENOTTY, as on a node that is none of these.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <linux/fs.h>
#include <linux/nvme_ioctl.h>
#include <scsi/sg.h>

#define MAX_LINES 1024
#define MAX_BYTES 16384

static char *lines[MAX_LINES];
static unsigned int nlines, next_line;
static int loaded;

static void report(const char *fmt, ...)
{
	const char *path = getenv("DOUBLE_REPORT");
	FILE *f = path ? fopen(path, "a") : stderr;
	va_list ap;

	if (!f)
		return;
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	if (f != stderr)
		fclose(f);
}

static void load_script(void)
{
	const char *path = getenv("DOUBLE_SCRIPT");
	FILE *f = path ? fopen(path, "r") : NULL;
	char buf[4096];

	loaded = 1;
	if (!f) {
		report("no script: DOUBLE_SCRIPT=%s", path ? path : "(unset)");
		return;
	}
	while (fgets(buf, sizeof(buf), f) && nlines < MAX_LINES) {
		char *hash = strchr(buf, '#');

		if (hash)
			*hash = '\0';
		buf[strcspn(buf, "\n")] = '\0';
		if (strspn(buf, " \t") < strlen(buf))
			lines[nlines++] = strdup(buf + strspn(buf, " \t"));
	}
	fclose(f);
}

__attribute__((destructor)) static void unsent(void)
{
	for (unsigned int i = next_line; i < nlines; i++)
		if (strncmp(lines[i], "node", 4) != 0)
			report("not sent: %s", lines[i]);
}

/* The node line's words: what this node answers to. */
static const char *node_kind(unsigned long *nsid)
{
	static char kind[16];

	if (!loaded)
		load_script();
	kind[0] = '\0';
	*nsid = 0;
	for (unsigned int i = 0; i < nlines; i++)
		if (sscanf(lines[i], "node %15s %lu", kind, nsid) >= 1)
			break;
	return kind;
}

/* The next line that is a command, or NULL when the script has none left. */
static const char *next_command(void)
{
	if (!loaded)
		load_script();
	while (next_line < nlines && strncmp(lines[next_line], "node", 4) == 0)
		next_line++;
	return next_line < nlines ? lines[next_line] : NULL;
}

/* Hex bytes from text ("..": any, as -1) into v; how many. */
static unsigned int parse_bytes(const char *text, int *v, unsigned int max)
{
	unsigned int n = 0;
	int used;
	unsigned int b;

	while (n < max) {
		text += strspn(text, " \t");
		if (strncmp(text, "..", 2) == 0) {
			v[n++] = -1;
			text += 2;
		} else if (sscanf(text, "%2x%n", &b, &used) == 1 && (text[used] == ' ' || text[used] == '\0' ||
									text[used] == '\t')) {
			v[n++] = (int)b;
			text += used;
		} else {
			break;
		}
	}
	return n;
}

/* A reply's data into buf: inline bytes, @FILE of bytes, or @FILE of words. */
static void fill_data(const char *word, const char *rest, unsigned char *buf, unsigned int len)
{
	static int v[MAX_BYTES];
	unsigned int n, x, i = 0;
	int words = strcmp(word, "words") == 0;
	char text[512];
	FILE *f;

	memset(buf, 0, len);
	rest += strspn(rest, " \t");
	if (*rest != '@') {
		n = parse_bytes(rest, v, MAX_BYTES);
		for (i = 0; i < n && i < len; i++)
			buf[i] = (unsigned char)v[i];
		return;
	}
	snprintf(text, sizeof(text), "%s", rest + 1);
	text[strcspn(text, " \t")] = '\0';
	f = fopen(text, "r");
	if (!f) {
		report("no such file: %s", rest + 1);
		return;
	}
	while (i < len && fgets(text, sizeof(text), f)) {
		char *p = text;
		int used;

		if (text[0] == '#')
			continue;
		while (i < len && sscanf(p, words ? "%4x%n" : "%2x%n", &x, &used) == 1) {
			buf[i++] = (unsigned char)x;
			if (words && i < len)
				buf[i++] = (unsigned char)(x >> 8);
			p += used;
		}
	}
	fclose(f);
}

/* The text after "WORD " in the reply part of line, or NULL. */
static const char *reply_word(const char *line, const char *word)
{
	const char *r = strstr(line, "->"), *p;
	size_t n = strlen(word);

	for (p = r; p && (p = strstr(p, word)); p += n)
		if ((p[-1] == ' ' || p[-1] == '>') && (p[n] == ' ' || p[n] == '\0'))
			return p + n;
	return NULL;
}

static unsigned long reply_number(const char *line, const char *word)
{
	const char *p = reply_word(line, word);

	return p ? strtoul(p, NULL, strcmp(word, "resid") == 0 ? 10 : 16) : 0;
}

static void describe_sg(const struct sg_io_hdr *io, char *text, size_t size)
{
	const unsigned char *cdb = io->cmdp;
	size_t at = (size_t)snprintf(text, size, "sg");

	for (unsigned int i = 0; i < io->cmd_len && at + 4 < size; i++)
		at += (size_t)snprintf(text + at, size - at, " %02x", cdb[i]);
}

/* "raise SIG" in line's reply: the note, then the signal. */
static void raise_if_asked(const char *line)
{
	static const struct {
		const char *name;
		int sig;
	} sigs[] = { { "INT", SIGINT }, { "TERM", SIGTERM }, { "HUP", SIGHUP }, { "STOP", SIGSTOP }, { "TSTP", SIGTSTP } };
	const char *p = reply_word(line, "raise"), *notes = getenv("DOUBLE_NOTES");
	char name[8] = "";
	FILE *f;

	if (!p || sscanf(p, " %7s", name) != 1)
		return;
	for (unsigned int i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		if (strcmp(name, sigs[i].name) != 0)
			continue;
		if (notes && (f = fopen(notes, "a"))) {
			fprintf(f, "%s dumpable %d\n", name, prctl(PR_GET_DUMPABLE, 0, 0, 0, 0));
			fclose(f);
		}
		/* To the process, not this thread: a signal a helper thread waits for must reach it. */
		kill(getpid(), sigs[i].sig);
		return;
	}
	report("no such signal: raise %s", name);
}

static int sg_matches(const struct sg_io_hdr *io, const char *line)
{
	static int want[MAX_BYTES];
	const unsigned char *cdb = io->cmdp, *sent = io->dxferp;
	const char *out = strstr(line, " out ");
	unsigned int n = parse_bytes(line + 2, want, 32);

	if (strncmp(line, "sg ", 3) != 0 || n != io->cmd_len)
		return 0;
	for (unsigned int i = 0; i < n; i++)
		if (want[i] >= 0 && want[i] != cdb[i])
			return 0;
	if (!out || (strstr(line, "->") && out > strstr(line, "->")))
		return 1;
	n = parse_bytes(out + 5, want, MAX_BYTES);
	if (io->dxfer_direction != SG_DXFER_TO_DEV || n > io->dxfer_len)
		return 0;
	for (unsigned int i = 0; i < n; i++)
		if (want[i] >= 0 && want[i] != sent[i])
			return 0;
	return 1;
}

static int fake_sg_io(struct sg_io_hdr *io)
{
	const char *line = next_command(), *p;
	char sent[160];

	describe_sg(io, sent, sizeof(sent));
	if (!line || !sg_matches(io, line)) {
		report("unexpected: %s (the script's next: %s)", sent, line ? line : "nothing");
		errno = EIO;
		return -1;
	}
	next_line++;
	io->status = io->masked_status = io->msg_status = 0;
	io->host_status = io->driver_status = 0;
	io->sb_len_wr = 0;
	io->resid = (int)reply_number(line, "resid");
	if (io->dxfer_direction == SG_DXFER_FROM_DEV) {
		p = reply_word(line, "data");
		fill_data(p ? "data" : "words", p ? p : reply_word(line, "words") ? reply_word(line, "words") : "",
			  io->dxferp, io->dxfer_len);
	}
	if (reply_word(line, "timeout"))
		io->host_status = 0x03;
	p = reply_word(line, "sense");
	if (p) {
		int v[252];
		unsigned int n = parse_bytes(p, v, 252);

		for (unsigned int i = 0; i < n && i < io->mx_sb_len; i++)
			io->sbp[i] = (unsigned char)v[i];
		io->sb_len_wr = (unsigned char)(n < io->mx_sb_len ? n : io->mx_sb_len);
		io->status = 0x02;
		io->masked_status = 0x01;
		io->driver_status = 0x08;
	}
	raise_if_asked(line);
	return 0;
}

static const char *const nvme_fields[] = { "nsid",  "cdw10", "cdw11", "cdw12", "cdw13",
					   "cdw14", "cdw15", "len" };

static unsigned int nvme_field(const struct nvme_passthru_cmd *cmd, unsigned int i)
{
	const unsigned int v[] = { cmd->nsid,  cmd->cdw10, cmd->cdw11, cmd->cdw12,
				   cmd->cdw13, cmd->cdw14, cmd->cdw15, cmd->data_len };

	return v[i];
}

static int nvme_matches(const char *kind, const struct nvme_passthru_cmd *cmd, const char *line)
{
	char want_kind[8];
	unsigned int opc;
	const char *end = strstr(line, "->");

	if (sscanf(line, "%7s %x", want_kind, &opc) != 2 || strcmp(want_kind, kind) != 0 || opc != cmd->opcode)
		return 0;
	for (unsigned int i = 0; i < sizeof(nvme_fields) / sizeof(nvme_fields[0]); i++) {
		char key[16];
		const char *p;

		snprintf(key, sizeof(key), " %s=", nvme_fields[i]);
		p = strstr(line, key);
		if (p && (!end || p < end) && strtoul(p + strlen(key), NULL, 16) != nvme_field(cmd, i))
			return 0;
	}
	return 1;
}

static int fake_nvme(unsigned long request, struct nvme_passthru_cmd *cmd)
{
	const char *kind = request == NVME_IOCTL_ADMIN_CMD ? "admin" : "io";
	const char *line = next_command(), *p;
	char sent[200];

	snprintf(sent, sizeof(sent), "%s %02x nsid=%x cdw10=%x cdw11=%x cdw12=%x len=%x", kind, cmd->opcode,
		 cmd->nsid, cmd->cdw10, cmd->cdw11, cmd->cdw12, cmd->data_len);
	if (!line || !nvme_matches(kind, cmd, line)) {
		report("unexpected: %s (the script's next: %s)", sent, line ? line : "nothing");
		errno = EIO;
		return -1;
	}
	next_line++;
	cmd->result = (unsigned int)reply_number(line, "result");
	if (cmd->addr && cmd->data_len && (cmd->opcode & 3) == 2) {
		p = reply_word(line, "data");
		fill_data(p ? "data" : "words", p ? p : reply_word(line, "words") ? reply_word(line, "words") : "",
			  (unsigned char *)(uintptr_t)cmd->addr, cmd->data_len);
	}
	raise_if_asked(line);
	return (int)reply_number(line, "status");
}

int ioctl(int fd, unsigned long request, ...)
{
	static int (*real_ioctl)(int, unsigned long, ...);
	unsigned long nsid;
	const char *kind;
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!real_ioctl)
		real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	kind = node_kind(&nsid);
	if (request == SG_GET_VERSION_NUM && strcmp(kind, "scsi") == 0) {
		*(int *)arg = 30527;
		return 0;
	}
	if (request == SG_IO && strcmp(kind, "nvme") != 0)
		return fake_sg_io(arg);
	if (strcmp(kind, "nvme") == 0 && request == NVME_IOCTL_ID)
		return (int)nsid;
	if (strcmp(kind, "nvme") == 0 && (request == NVME_IOCTL_ADMIN_CMD || request == NVME_IOCTL_IO_CMD))
		return fake_nvme(request, arg);
	if (request == BLKGETSIZE64 || request == BLKSSZGET || request == BLKFLSBUF)
		return real_ioctl(fd, request, arg);
	(void)fd;
	errno = ENOTTY;
	return -1;
}
