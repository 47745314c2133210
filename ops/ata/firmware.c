/* DOWNLOAD MICROCODE: --fwdownload and its modes, in segments, with progress. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ata_checks.h"
#include "checks.h"
#include "files.h"
#include "firmware.h"
#include "inuse.h"
#include "partition.h"
#include "progress.h"
#include "ata_commands.h"
#include "sysfs.h"
#include "report.h"

static const struct fw_mode {
	unsigned int mode;	/* DOWNLOAD MICROCODE subcommand; 0: choose from IDENTIFY */
	bool max_segments;
} fw_modes[OPT_COUNT] = {
	[OPT_FWDOWNLOAD] = { .mode = 0 },
	[OPT_FWDOWNLOAD_MODE3] = { .mode = 0x03 },
	[OPT_FWDOWNLOAD_MODE3_MAX] = { .mode = 0x03, .max_segments = true },
	[OPT_FWDOWNLOAD_MODE7] = { .mode = 0x07 },
	[OPT_FWDOWNLOAD_MODEE] = { .mode = 0x0e },
	[OPT_FWDOWNLOAD_MODEE_MAX] = { .mode = 0x0e, .max_segments = true },
};

#define FW_MAX_BYTES (0xffffu * 512u)

/*
 * The firmware file, whole, once it is a regular file of 512-byte blocks
 * and the drive has DOWNLOAD MICROCODE; NULL with *err set and said.
 */
static uint8_t *read_firmware(const char *path, const uint16_t *id, struct stat *st, int *err)
{
	uint8_t *fw;
	int fd = open_with_stat(path, st);

	if (fd < 0) {
		*err = -fd;
		return NULL;
	}
	*err = 0;
	if (!S_ISREG(st->st_mode) || st->st_size == 0 || st->st_size % 512 || st->st_size > FW_MAX_BYTES) {
		complain("%s: not a regular file of 512 to %u bytes in 512-byte multiples\n", path, FW_MAX_BYTES);
		*err = EINVAL;
	} else if (!ata_id_has_download_microcode(id)) {
		complain("DOWNLOAD_MICROCODE: not supported by device\n");
		*err = EOPNOTSUPP;
	}
	fw = *err ? NULL : malloc((size_t)st->st_size);
	if (!*err && (!fw || read(fd, fw, (size_t)st->st_size) != st->st_size)) {
		*err = fw ? EIO : ENOMEM;
		complain("%s: %s\n", path, strerror(*err));
		free(fw);
		fw = NULL;
	}
	close(fd);
	return fw;
}

/*
 * Everything checked before a DOWNLOAD MICROCODE goes out, as the other
 * kinds' download checks (firmware_update.c): the file a regular file, the
 * disk whole and not in use, the command supported.  The image, whole, or
 * NULL with *err set and said.
 */
static uint8_t *plan(struct device *dev, const struct settings *s, enum opt_id opt, const uint16_t **id,
		     struct stat *st, int *err)
{
	const char *path = s->v[opt].str;
	unsigned long long start;

	/* Before anything else: a FIFO would hold open() for ever; a device node is not opened at all. */
	if (stat(path, st) == 0 && !S_ISREG(st->st_mode)) {
		complain("%s: not a regular file of 512 to %u bytes in 512-byte multiples\n", path, FW_MAX_BYTES);
		*err = EINVAL;
		return NULL;
	}
	if ((*err = partition_start(block_device_of(dev->fd), dev->fd, dev->path, &start)))
		return NULL;
	if (start) {
		complain("--fwdownload requires the raw device, not a partition.\n");
		*err = EINVAL;
		return NULL;
	}
	/* New firmware on a disk a file system is mounted from: the drive resets, and may not come back. */
	if ((*err = need_disk_unused(dev, s->v[opt].name, REACH_NAMED)))
		return NULL;
	if (!(*id = identify_or_report(dev, err)))
		return NULL;
	return read_firmware(path, *id, st, err);
}

int firmware_download_check(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const uint16_t *id;
	struct stat st = { 0 };
	int err;

	free(plan(dev, s, opt, &id, &st, &err));
	return err;
}

int firmware_download(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const struct fw_mode *m = &fw_modes[opt];
	const uint16_t *id;
	unsigned int mode, seg_min = 1, seg_max = 0xffff;
	size_t segment, offset;
	struct stat st = { 0 };
	uint8_t *fw;
	int err;

	if (!(fw = plan(dev, s, opt, &id, &st, &err)))
		return err;
	mode = m->mode;
	if (!mode)
		mode = ata_id_has_microcode_mode3(id) ? 0x03 : 0x07;
	if (mode != 0x07) {
		/* Words 234/235: the drive's smallest and largest segment, in 512-byte units. */
		seg_min = ata_id_word_reported(id[ATA_ID_MICROCODE_MIN_SEGMENT]) ? id[ATA_ID_MICROCODE_MIN_SEGMENT] : 1;
		seg_max = ata_id_word_reported(id[ATA_ID_MICROCODE_MAX_SEGMENT]) ? id[ATA_ID_MICROCODE_MAX_SEGMENT] : seg_min;
	}
	segment = mode == 0x07 ? (size_t)st.st_size : (size_t)(m->max_segments ? seg_max : seg_min) * 512;
	/* 9.65's line, which scripts and test suites match (its stderr). */
	note("fwdownload: xfer_mode=%u min=%u max=%u size=%zu\n", mode, seg_min, seg_max, segment);
	err = 0;
	struct status_line line;
	size_t segments = ((size_t)st.st_size + segment - 1) / segment;

	status_begin(&line, !dev->run.json);
	for (offset = 0; offset < (size_t)st.st_size; offset += segment) {
		struct ata_result res;
		size_t bytes = (size_t)st.st_size - offset < segment ? (size_t)st.st_size - offset : segment;
		bool last = offset + bytes >= (size_t)st.st_size;

		err = ata_download_microcode(dev, mode, offset, fw + offset, bytes, &res);
		if (err) {
			status_end(&line);
			out_char('\n');
			ata_report("DOWNLOAD MICROCODE", &res, err);
			break;
		}
		/* On a terminal the status line counts the segments: a dot each would draw over it.  One piece: none, as 9.65. */
		if (!line.shares_screen && mode != 0x07) {
			out_char('.');
			fflush(stdout);
		}
		if (line.shown) {
			char text[100];

			snprintf(text, sizeof(text), "firmware: segment %zu of %zu sent (%zu of %llu bytes)",
				 offset / segment + 1, segments, offset + bytes, (unsigned long long)st.st_size);
			status_draw(&line, text);
		}
		/* Segmented modes: count 1 = the drive wants more, 2 = it has all it needs. */
		if (res.have_regs && (res.out.count & 0xff) == 2 && !last) {
			complain("Error: drive completed transfer at %zu/%llu bytes\n", offset + bytes,
				(unsigned long long)st.st_size);
			err = EIO;
			break;
		}
		if (res.have_regs && (res.out.count & 0xff) == 1 && last) {
			complain("Error: drive expects more data than provided\n");
			err = EIO;
			break;
		}
	}
	status_end(&line);
	if (!err)
		out(" Done.\n");
	free(fw);
	ata_identify_forget(dev);
	return err;
}
