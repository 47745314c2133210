/*
 * -I, -i, --Istdout and --Iraw on every disk: the kind reads its own
 * pages (saying nothing) and its decoder shows them; this file chooses
 * the form, writes the raw page (--Iraw: to a file, --Istdout: as hex
 * words, as 9.65 does for IDENTIFY) and words the failures.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bridge_say.h"
#include "checks.h"
#include "describe.h"
#include "report.h"
#include "unaligned.h"
#include "usb_trim.h"

/* --Istdout: 8 little-endian words a line, as hdparm 9.65 dumps IDENTIFY. */
static void dump_words(const uint8_t *bytes, size_t len)
{
	for (size_t i = 0; i + 16 <= len; i += 16)
		for (size_t j = 0; j < 16; j += 2)
			out("%04x%c", get_le16(bytes + i + j), j == 14 ? '\n' : ' ');
}

/* --Iraw FILE: the page as the drive sent it, with 9.65's words for what went wrong. */
static int write_raw(const char *path, const void *bytes, size_t len, const char *name)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CREAT, 0644);
	ssize_t n;

	if (fd == -1)
		return complain_failed(path);
	n = write(fd, bytes, len);
	if (n != (ssize_t)len) {
		int err = n < 0 ? errno : EIO;

		complain("Error writing %s data to \"%s\": %s\n", name, path, strerror(err));
		close(fd);
		return err;
	}
	if (close(fd))
		return complain_failed(path);
	complain("Wrote %s data to \"%s\"\n", name, path);
	return 0;
}

/* --Istdout and --Iraw: the raw page, where the disk has one. */
static int show_raw(struct device *dev, const struct settings *s, enum opt_id opt, const struct disk_pages *p)
{
	const void *bytes;
	size_t len;
	const char *name;

	if (!dev->disk->pages_raw || !dev->disk->pages_raw(p, &bytes, &len, &name)) {
		if (!dev->disk->no_ata)
			return refuse_missing_command(dev, s->v[opt].name);
		complain(" %s: %s %s: it has no IDENTIFY page (-I shows what it reports)\n", s->v[opt].name, dev->path,
			 dev->disk->no_ata);
		return EOPNOTSUPP;
	}
	if (opt == OPT_IRAW)
		return write_raw(s->v[OPT_IRAW].str, bytes, len, name);
	dump_words(bytes, len);
	return 0;
}

int describe_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct disk_pages *p = NULL;
	struct disk_cause cause = { 0 };
	enum pages_form form;
	int err;

	if (opt == OPT_ISTDOUT || opt == OPT_IRAW)
		form = PAGES_RAW;
	else if (opt == OPT_IDENTITY)
		/* -i's JSON gives way to -I's "identify" object where both are asked. */
		form = dev->run.json && !s->v[OPT_IDENTIFY].given ? PAGES_BRIEF_JSON : PAGES_BRIEF;
	else
		form = dev->run.json ? PAGES_JSON : PAGES_TEXT;
	if (!dev->disk->pages_read)
		return refuse_missing_command(dev, s->v[opt].name);
	err = dev->disk->pages_read(dev, form, &p, &cause);
	say_cause(&cause, err);
	if (!err && form == PAGES_RAW)
		err = show_raw(dev, s, opt, p);
	else if (!err) {
		if (form == PAGES_TEXT)
			bridge_say_text(dev);
		err = dev->disk->pages_show(p, form);
	}
	/* Behind a USB bridge, -I says too whether a discard reaches the disk. */
	if (!err && (form == PAGES_TEXT || form == PAGES_JSON))
		usb_trim_show(dev);
	if (p)
		dev->disk->pages_free(p);
	return err;
}
