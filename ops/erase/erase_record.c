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
#include "file_write.h"
#include "erasecheck.h"
#include "json.h"
#include "path_text.h"
#include "report.h"
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
	if (!run || !run->sent)
		return status && status != ECANCELED ? "refused" : "not_started";
	/* A security erase runs to its end in one command, and is not read back. */
	if (t->opt == OPT_SECURITY_ERASE || t->opt == OPT_SECURITY_ERASE_ENHANCED)
		return status == EINTR ? "interrupted" : status ? "failed" : "erased_not_verified";
	/* A revert is a session of many commands, stopped between two of them; a sanitize goes on in the drive. */
	if (status == EINTR)
		return t->opt == OPT_TCG_PSID_REVERT ? "interrupted" : "wait_interrupted";
	return status ? "failed" : "started_not_waited_for";
}

/* given names a folder: it ends in "/", or it is one already. */
bool erase_record_is_folder(const char *given)
{
	size_t n = strlen(given);
	struct stat st;

	return (n && given[n - 1] == '/') || (stat(given, &st) == 0 && S_ISDIR(st.st_mode));
}

/* The file's path: the option's, or in its folder, named by the serial number and the time. */
static void record_path(const char *given, const struct disk_identity *id, const struct device *dev, char *path,
			size_t size)
{
	size_t n = strlen(given);
	char stamp[32] = "", name[96];
	time_t now = time(NULL);
	struct tm tm;

	if (!erase_record_is_folder(given)) {
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
	snprintf(path, size, "%s%serase-%s-%s.json", given, n && given[n - 1] == '/' ? "" : "/", name, stamp);
}

/*
 * The record's file, kept from before anything is sent to the end of the
 * run: what the record says is rewritten there as the run goes (not
 * started, then sent with its outcome unknown, then the outcome), so that
 * a kill at any point leaves a whole record that says as much as was known.
 * The pending records are padded with blanks to RECORD_RESERVE bytes, room
 * that a full file system cannot take back.
 */
#define RECORD_RESERVE 16384

struct record_file {
	const struct settings *s;
	struct disk_identity id;	/* read when the file was made: nothing is sent to a disk that is erasing */
	char path[4096];
	size_t reserved;	/* bytes the file holds, its room for a record written in place */
};

/*
 * In a folder: a file of its own, under path's name or, where another
 * record took that name (many disks of one serial number in one second),
 * "NAME-2.json" and on (path updated).  O_EXCL never takes another's file,
 * on every file system.
 */
static int create_unique(char *path, size_t size, const char *text, size_t len, size_t pad)
{
	size_t n = strlen(path);
	char base[4096];
	int err;

	if (n < 5 || n >= sizeof(base) || strcmp(path + n - 5, ".json") != 0)
		return EINVAL;
	snprintf(base, sizeof(base), "%.*s", (int)(n - 5), path);
	for (unsigned int k = 2; (err = file_create_new(path, text, len, pad)) == EEXIST; k++)
		if (k > 999 || snprintf(path, size, "%s-%u.json", base, k) >= (int)size)
			return k > 999 ? EEXIST : ENAMETOOLONG;
	return err;
}

/* Where no temporary file fits (a full file system): over the reserved file's own bytes. */
static int write_in_place(const struct record_file *rf, const char *text, size_t len)
{
	return file_write_in_place(rf->path, text, len, rf->reserved);
}

#define NO_EXIT_STATUS (-1)

/* The record of dev's run: its outcome, and hdparm's exit status (NO_EXIT_STATUS: a run not ended yet). */
static char *record_text(struct device *dev, const struct settings *s, const char *outcome_text, int exit_status,
			 struct disk_identity *id, size_t *len)
{
	const struct technique *t = technique_of(s);
	const struct erase_run *run = dev->erase;

	json_side_begin();
	json_string("record", "erase");
	json_uint("record_format_version", ERASE_RECORD_VERSION);
	json_object_begin("tool");
	json_string("name", HDPARM_NAME);
	json_string("version", HDPARM_VERSION);
	json_object_end();
	json_text_or_null("operator", s->v[OPT_ERASE_OPERATOR].given ? s->v[OPT_ERASE_OPERATOR].str : NULL);
	record_device(dev, id);
	record_erase(s, t, run);
	json_text_or_null("drive_status_after", run ? run->drive_status : NULL);
	record_hidden(run);
	record_verification(s, t, run);
	if (is_format(t))
		record_format(run);
	json_string("outcome", outcome_text);
	if (exit_status == NO_EXIT_STATUS)
		json_null("exit_status");
	else
		json_uint("exit_status", (unsigned int)exit_status);
	return json_side_end(len);
}

static void read_identity(struct device *dev, struct disk_identity *id)
{
	*id = (struct disk_identity){ .model = "" };
	if (dev->fd >= 0 && dev->disk && dev->disk->identity)
		dev->disk->identity(dev, id);	/* what it could not read stays null */
}

/* dev's record file made, saying pending: 0, or an errno (nothing said). */
/*
 * FILE may be replaced: nothing is there, or an empty regular file, or an
 * erase record (its first bytes say so, with its format version).  Any
 * other file is someone else's (a folder link can lead FILE onto
 * /etc/passwd): EEXIST; anything but a regular file: FILE_NOT_REGULAR.
 */
static int replaceable(const char *path)
{
	static const char head[] = "{\n  \"record\": \"erase\",\n  \"record_format_version\": ";
	char buf[sizeof(head) + 8];
	struct stat st;
	ssize_t got;
	int fd;

	/* Looked at before it is opened: opening a device node acts, and a FIFO's other end is woken. */
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : errno;
	if (!S_ISREG(st.st_mode))
		return FILE_NOT_REGULAR;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : errno == ELOOP ? FILE_NOT_REGULAR : errno;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return FILE_NOT_REGULAR;
	}
	got = st.st_size ? read(fd, buf, sizeof(buf)) : 0;
	close(fd);
	if (!st.st_size)
		return 0;
	return got > (ssize_t)(sizeof(head) - 1) && memcmp(buf, head, sizeof(head) - 1) == 0 &&
	       buf[sizeof(head) - 1] >= '1' && buf[sizeof(head) - 1] <= '9' ? 0 : EEXIST;
}

/* Said where FILE is someone else's: EEXIST. */
static int refuse_foreign(const char *given)
{
	char shown[1200];

	complain("--erase-record %s: a file that is not an erase record is there: refused, nothing was sent\n",
		 path_text(given, shown, sizeof(shown)));
	return EEXIST;
}

static int reserve(struct device *dev, const struct settings *s, const char *pending)
{
	const char *given = s->v[OPT_ERASE_RECORD].str;
	struct record_file *rf = calloc(1, sizeof(*rf));
	size_t len;
	char *text;
	int err;

	if (!rf)
		return ENOMEM;
	read_identity(dev, &rf->id);
	text = record_text(dev, s, pending, NO_EXIT_STATUS, &rf->id, &len);
	if (!text) {
		free(rf);
		return ENOMEM;
	}
	rf->s = s;
	rf->reserved = len > RECORD_RESERVE ? len : RECORD_RESERVE;
	record_path(given, &rf->id, dev, rf->path, sizeof(rf->path));
	if (erase_record_is_folder(given))
		err = create_unique(rf->path, sizeof(rf->path), text, len, rf->reserved);
	else if ((err = replaceable(rf->path)) == 0)
		err = file_write_whole(rf->path, text, len, rf->reserved);
	free(text);
	if (err) {
		free(rf);
		return err;
	}
	dev->record = rf;
	return 0;
}

/* text as dev's record: beside the file and renamed over it, else in its reserved room. */
static int put(struct device *dev, const char *text, size_t len, size_t pad)
{
	const struct record_file *rf = dev->record;
	int err = file_write_whole(rf->path, text, len, pad);

	return err && write_in_place(rf, text, len) == 0 ? 0 : err;
}

/* A record's errno as hdparm's exit status: the few a user acts on, else EACCES. */
static int record_status(int err)
{
	return err == ENOENT || err == ENOTDIR || err == ENOSPC || err == EROFS || err == FILE_NOT_REGULAR || err == EEXIST
		       ? err : EACCES;
}

int erase_record_path_check(const struct settings *s)
{
	const char *given = s->v[OPT_ERASE_RECORD].str;

	int err;

	if (!s->v[OPT_ERASE_RECORD].given || strcmp(given, "-") == 0)
		return 0;
	if ((err = file_check_writable("--erase-record", given, true)))
		return err;
	return !erase_record_is_folder(given) && replaceable(given) == EEXIST ? refuse_foreign(given) : 0;
}

int erase_record_check(struct device *dev, const struct settings *s)
{
	const char *given = s->v[OPT_ERASE_RECORD].str;
	char folder[4096], shown[1200], shown_folder[1200];
	int err;

	if (strcmp(given, "-") == 0 || !technique_of(s) || dev->record)
		return 0;
	err = reserve(dev, s, "not_started");
	if (!err)
		return 0;
	dev->refused = dev->record_unwritable = true;
	snprintf(folder, sizeof(folder), "%s", given);
	if (err == EEXIST && !erase_record_is_folder(given))
		return refuse_foreign(given);
	if (err == FILE_NOT_REGULAR)
		complain(" --erase-record %s: %s: the erase was not started, since its record could not be kept\n",
			 path_text(given, shown, sizeof(shown)), file_strerror(err));
	else
		complain(" --erase-record %s: %s cannot be written to (%s): the erase was not started, since its record"
			 " could not be kept\n", path_text(given, shown, sizeof(shown)),
			 path_text(erase_record_is_folder(given) ? given : dirname(folder), shown_folder, sizeof(shown_folder)),
			 strerror(err));
	return record_status(err);
}

/*
 * The record says the erase was sent, before it is: 0, or the refusal,
 * said, and the run's erase unmarked (its record, written at the end where
 * it still can be, says refused, not sent).
 */
static int erase_record_sent(struct device *dev)
{
	struct record_file *rf = dev->record;
	char shown[1200];
	size_t len;
	char *text;
	int err;

	if (!rf)
		return 0;
	text = record_text(dev, rf->s, "unknown", NO_EXIT_STATUS, &rf->id, &len);
	err = text ? put(dev, text, len, rf->reserved) : ENOMEM;
	free(text);
	if (!err)
		return 0;
	complain(" --erase-record: %s could not be marked sent (%s): the erase was not sent, since its record could"
		 " not say so\n", path_text(rf->path, shown, sizeof(shown)), file_strerror(err));
	if (dev->erase) {
		dev->erase->sent = false;
		dev->erase->began = 0;
	}
	dev->refused = true;
	return record_status(err);
}

void erase_record_interrupted(void *device, int sig)
{
	struct device *dev = device;
	struct record_file *rf = dev->record;
	size_t len;
	char *text;

	if (!rf)
		return;
	text = record_text(dev, rf->s, "interrupted", 128 + sig, &rf->id, &len);
	if (text && put(dev, text, len, 0))
		note("%.*s", (int)len, text);
	free(text);
}

const char *erase_record_path(const struct device *dev)
{
	return dev->record ? dev->record->path : NULL;
}

const char *erase_outcome(const struct device *dev, const struct settings *s, int status)
{
	const struct technique *t = technique_of(s);

	return t ? outcome(t, dev->erase, status) : NULL;
}

int erase_record_write(struct device *dev, const struct settings *s, int status)
{
	struct disk_identity id;
	size_t len;
	char *text;
	int err = 0;

	if (!technique_of(s))
		return 0;
	read_identity(dev, &id);
	text = record_text(dev, s, outcome(technique_of(s), dev->erase, status), status, &id, &len);
	if (!text) {
		complain(" --erase-record: out of memory\n");
		return ENOMEM;
	}
	if (strcmp(s->v[OPT_ERASE_RECORD].str, "-") == 0)
		err = fwrite(text, 1, len, stdout) == len && fflush(stdout) == 0 ? 0 : EIO;
	else if (!dev->record)
		err = reserve(dev, s, "not_started");
	if (!err && dev->record)
		err = put(dev, text, len, 0);
	if (err) {
		/* The proof is not lost: whoever reads stderr (a terminal, the journal) has it whole. */
		char shown[1200];

		complain(" --erase-record: %s could not be written: %s; the record follows on stderr\n",
			 path_text(dev->record ? dev->record->path : s->v[OPT_ERASE_RECORD].str, shown, sizeof(shown)),
			 file_strerror(err));
		note("%.*s", (int)len, text);
	}
	free(text);
	return err;
}

void erase_record_free(struct device *dev)
{
	free(dev->record);
	dev->record = NULL;
}

int erase_about_to_send(struct device *dev, enum erase_kind kind, uint32_t pattern, const char *command)
{
	erase_sample_before(dev, kind, pattern, command);
	return erase_record_sent(dev);
}

int erase_format_about_to_send(struct device *dev, const char *command, const struct disk_format_summary *before)
{
	erase_run_format_sent(dev, command, before);
	return erase_record_sent(dev);
}
