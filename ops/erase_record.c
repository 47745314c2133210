/*
 * The erase record: who the disk is (each kind's identity), what was sent
 * and when, what the drive said at the end, what was read back, and the
 * outcome, as one JSON document of its own (json_side_begin), then made
 * durable: a temporary file in the same folder, fsync, rename, fsync of
 * the folder.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "array.h"
#include "erase_record.h"
#include "erase_verify.h"
#include "erasecheck.h"
#include "json.h"
#include "report.h"
#include "sector_format.h"
#include "version.h"

/*
 * The erase options, their technique and SP 800-88 Rev. 1's method for
 * it (Appendix A: the sanitize commands and the enhanced security erase
 * purge; the normal security erase and a user-data format clear).
 */
static const struct technique {
	enum opt_id opt;
	const char *technique, *method;
} techniques[] = {
	{ OPT_SANITIZE_BLOCK_ERASE, "block_erase", "purge" },
	{ OPT_SANITIZE_CRYPTO, "crypto_erase", "purge" },
	{ OPT_SANITIZE_OVERWRITE, "overwrite", "purge" },
	{ OPT_FORMAT_ERASE, NULL, NULL },	/* user or crypto: below */
	{ OPT_SECURITY_ERASE_ENHANCED, "enhanced_security_erase", "purge" },
	{ OPT_SECURITY_ERASE, "security_erase", "clear" },
	/* Not claimed as a purge: that depends on the drive encrypting all it stores (Locking's media encryption). */
	{ OPT_TCG_PSID_REVERT, "tcg_psid_revert", NULL },
	{ OPT_SANITIZE_WAIT, "sanitize", NULL },	/* the wait alone: the action is not known here */
	/* A format to another block size is no sanitization method: its blocks are not read back. */
	{ OPT_SET_SECTOR_SIZE, "format", NULL },
	{ OPT_FORMAT_WAIT, "format", NULL },
};

static bool is_format(const struct technique *t)
{
	return t->opt == OPT_SET_SECTOR_SIZE || t->opt == OPT_FORMAT_WAIT;
}

static const struct technique *technique_of(const struct settings *s)
{
	for (size_t i = 0; i < ARRAY_SIZE(techniques); i++)
		if (s->v[techniques[i].opt].given)
			return &techniques[i];
	return NULL;
}

static void json_time(const char *key, time_t t)
{
	char text[32];
	struct tm tm;

	if (!t || !gmtime_r(&t, &tm) || !strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", &tm)) {
		json_null(key);
		return;
	}
	json_string(key, text);
}

static void json_text_or_null(const char *key, const char *text)
{
	json_string(key, text && text[0] ? text : NULL);
}

static void record_device(struct device *dev, struct disk_identity *id)
{
	json_object_begin("device");
	json_string("path", dev->path);
	json_text_or_null("transport", dev->disk ? dev->disk->kind : NULL);
	json_text_or_null("model", id->model);
	json_text_or_null("serial_number", id->serial);
	json_text_or_null("firmware_version", id->firmware);
	json_text_or_null("wwn", id->wwn);
	if (id->capacity_bytes)
		json_uint("capacity_bytes", id->capacity_bytes);
	else
		json_null("capacity_bytes");
	json_string("media_type", id->media);
	json_object_end();
}

static void record_erase(const struct settings *s, const struct technique *t, const struct erase_run *run)
{
	bool crypto_format = t->opt == OPT_FORMAT_ERASE && s->v[OPT_FORMAT_ERASE].num == 1;

	json_object_begin("erase");
	json_string("option", s->v[t->opt].name);
	json_text_or_null("command", run ? run->command : NULL);
	if (t->opt == OPT_FORMAT_ERASE) {
		json_string("technique", crypto_format ? "format_crypto_erase" : "format_user_data_erase");
		json_string("method", crypto_format ? "purge" : "clear");
	} else {
		json_string("technique", t->technique);
		json_string("method", t->method);
	}
	if (t->opt == OPT_SANITIZE_OVERWRITE)
		json_uint("pattern", run ? run->pattern : 0);
	json_bool("sent", run && run->sent);
	json_time("began", run ? run->began : 0);
	json_time("ended", run && (run->checked || run->format) ? run->ended : 0);
	json_object_end();
}

static void json_sectors(const char *key, uint64_t n)
{
	if (n)
		json_uint(key, n);
	else
		json_null(key);
}

/* What the disk hid from the host before the erase (null: a disk that cannot hide any, or not read). */
static void record_hidden(const struct erase_run *run)
{
	const struct disk_hidden *h = run && run->have_hidden ? &run->hidden : NULL;

	if (!h) {
		json_null("hidden_areas");
		return;
	}
	json_object_begin("hidden_areas");
	json_uint("accessible_sectors", h->accessible);
	json_sectors("native_max_sectors", h->native);
	json_sectors("hpa_sectors", h->native > h->accessible ? h->native - h->accessible : 0);
	json_sectors("dco_max_sectors", h->dco);
	json_sectors("dco_hidden_sectors", h->native && h->dco > h->native ? h->dco - h->native : 0);
	json_bool("amac", h->amac);
	json_object_begin("security");
	json_bool("supported", h->security_supported);
	json_bool("enabled", h->security_enabled);
	json_bool("locked", h->security_locked);
	json_bool("frozen", h->security_frozen);
	json_object_end();
	json_bool("sanitize_supported", h->sanitize_supported);
	json_object_end();
}

/* A format's disk before and after it. */
static void record_format(const struct erase_run *run)
{
	json_object_begin("format");
	sector_format_json("before", run && run->have_before ? &run->format_before : NULL);
	sector_format_json("after", run && run->have_after ? &run->format_after : NULL);
	json_object_end();
}

/* Read back: the method, and each disk's object as the run's JSON has it. */
static void record_verification(const struct settings *s, const struct technique *t, const struct erase_run *run)
{
	json_object_begin("verification");
	json_string("method", is_format(t) ? "none" : verify_full(s) ? "full" : "sample");
	json_array_begin("disks");
	for (unsigned int i = 0; run && i < run->n_checked; i++)
		erase_json_checked(&run->checked_disk[i], run->kind);
	json_array_end();
	json_object_end();
}

/* A read-back that found blocks the erase did not leave, or could not read them. */
static bool verification_failed(const struct erase_run *run)
{
	static const char *const bad[] = { "unchanged", "not_pattern", "not_read" };

	for (unsigned int i = 0; i < run->n_checked; i++) {
		const struct erase_checked *c = &run->checked_disk[i];

		if (c->full && erase_verify_failed(c->full, run->kind))
			return true;
		for (size_t k = 0; k < ARRAY_SIZE(bad); k++)
			if (strcmp(c->verdict, bad[k]) == 0)
				return true;
	}
	return false;
}

/* A read-back that SIGINT or SIGTERM stopped. */
static bool verification_interrupted(const struct erase_run *run)
{
	for (unsigned int i = 0; i < run->n_checked; i++)
		if (run->checked_disk[i].full && run->checked_disk[i].full->interrupted)
			return true;
	return false;
}

static const char *outcome(const struct technique *t, const struct erase_run *run, int status)
{
	if (is_format(t) && run && run->ended)
		return status ? "failed" : "formatted";
	if (run && run->checked && verification_interrupted(run))
		return "verification_interrupted";
	if (run && run->checked)
		return verification_failed(run) ? "verification_failed" : status ? "failed" : "erased_and_verified";
	/* A security erase runs to its end in one command, and is not read back. */
	if (t->opt == OPT_SECURITY_ERASE || t->opt == OPT_SECURITY_ERASE_ENHANCED)
		return status ? "failed" : "erased_not_verified";
	if (!run || !run->sent)
		return status && status != ECANCELED ? "refused" : "not_started";
	if (status == EINTR)
		return "wait_interrupted";
	return status ? "failed" : "started_not_waited_for";
}

static bool in_folder(const char *given)
{
	size_t n = strlen(given);

	return n && given[n - 1] == '/';
}

/* The file's path: the option's, or in its folder, named by the serial number and the time. */
static void record_path(const char *given, const struct disk_identity *id, const struct device *dev, char *path,
			size_t size)
{
	char stamp[32] = "", name[96];
	time_t now = time(NULL);
	struct tm tm;

	if (!in_folder(given)) {
		snprintf(path, size, "%s", given);
		return;
	}
	if (gmtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(name, sizeof(name), "%s", id->serial[0] ? id->serial : dev->path);
	/* A serial number (or a path) may hold anything: only what is safe in a file name is kept. */
	for (char *c = name; *c; c++)
		if (!((*c >= '0' && *c <= '9') || (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || *c == '-' ||
		      *c == '_' || *c == '.'))
			*c = '_';
	snprintf(path, size, "%serase-%s-%s.json", given, name, stamp);
}

/*
 * tmp, a whole file, under path's name, or where another record took that
 * name (many disks of one serial number in one second), under "NAME-2.json"
 * and on: link() never replaces a file, where rename() would.
 */
static int link_unique(const char *tmp, char *path, size_t size)
{
	size_t n = strlen(path);
	char base[4096];

	if (n < 5 || n >= sizeof(base) || strcmp(path + n - 5, ".json") != 0)
		return rename(tmp, path) ? errno : 0;
	snprintf(base, sizeof(base), "%.*s", (int)(n - 5), path);
	for (unsigned int k = 2; link(tmp, path); k++) {
		if (errno != EEXIST || k > 999)
			return errno;
		if (snprintf(path, size, "%s-%u.json", base, k) >= (int)size)
			return ENAMETOOLONG;
	}
	unlink(tmp);
	return 0;
}

/*
 * text, whole, at path: a temporary file beside it, synced, renamed over
 * it (in a folder: linked under a name no other record has, path updated),
 * the folder synced.
 */
static int write_durably(char *path, size_t size, bool in_folder, const char *text, size_t len)
{
	char tmp[4096], folder[4096];
	ssize_t done = 0;
	int fd, dir, err = 0;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return errno;
	while (!err && (size_t)done < len) {
		ssize_t n = write(fd, text + done, len - (size_t)done);

		if (n < 0 && errno != EINTR)
			err = errno;
		else if (n > 0)
			done += n;
	}
	if (!err && (fchmod(fd, 0644) || fsync(fd)))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	if (!err && in_folder)
		err = link_unique(tmp, path, size);
	else if (!err && rename(tmp, path))
		err = errno;
	if (err) {
		unlink(tmp);
		return err;
	}
	snprintf(folder, sizeof(folder), "%s", path);
	dir = open(dirname(folder), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir >= 0) {
		fsync(dir);
		close(dir);
	}
	return 0;
}

int erase_record_check(struct device *dev, const struct settings *s)
{
	const char *given = s->v[OPT_ERASE_RECORD].str;
	char folder[4096];
	const char *dir = folder;

	if (strcmp(given, "-") == 0)
		return 0;
	snprintf(folder, sizeof(folder), "%s", given);
	if (!in_folder(given))
		dir = dirname(folder);
	if (access(dir, W_OK | X_OK) == 0)
		return 0;
	dev->refused = dev->record_unwritable = true;
	complain(" --erase-record %s: %s cannot be written to (%s): the erase was not started, since its record could"
		 " not be kept\n", given, dir, strerror(errno));
	return errno == ENOENT || errno == ENOTDIR ? errno : EACCES;
}

const char *erase_outcome(const struct device *dev, const struct settings *s, int status)
{
	const struct technique *t = technique_of(s);

	return t ? outcome(t, dev->erase, status) : NULL;
}

int erase_record_write(struct device *dev, const struct settings *s, int status)
{
	const struct technique *t = technique_of(s);
	const struct erase_run *run = dev->erase;
	struct disk_identity id = { .model = "" };
	char path[4096], *text;
	size_t len;
	int err;

	if (!t)
		return 0;
	if (dev->fd >= 0 && dev->disk && dev->disk->identity)
		dev->disk->identity(dev, &id);	/* what it could not read stays null */
	json_side_begin();
	json_string("record", "erase");
	json_uint("record_format_version", ERASE_RECORD_VERSION);
	json_object_begin("tool");
	json_string("name", HDPARM_NAME);
	json_string("version", HDPARM_VERSION);
	json_object_end();
	json_text_or_null("operator", s->v[OPT_ERASE_OPERATOR].given ? s->v[OPT_ERASE_OPERATOR].str : NULL);
	record_device(dev, &id);
	record_erase(s, t, run);
	json_text_or_null("drive_status_after", run ? run->drive_status : NULL);
	record_hidden(run);
	record_verification(s, t, run);
	if (is_format(t))
		record_format(run);
	json_string("outcome", outcome(t, run, status));
	json_uint("exit_status", (unsigned int)status);
	text = json_side_end(&len);
	if (!text) {
		complain(" --erase-record: out of memory\n");
		return ENOMEM;
	}
	record_path(s->v[OPT_ERASE_RECORD].str, &id, dev, path, sizeof(path));
	if (strcmp(path, "-") == 0)
		err = fwrite(text, 1, len, stdout) == len && fflush(stdout) == 0 ? 0 : EIO;
	else
		err = write_durably(path, sizeof(path), in_folder(s->v[OPT_ERASE_RECORD].str), text, len);
	free(text);
	if (err)
		complain(" --erase-record: %s could not be written: %s\n", path, strerror(err));
	return err;
}
