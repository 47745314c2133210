/*
 * --tcg on any disk: the security protocols it lists (protocol 00h), then
 * TCG's Level 0 Discovery (protocol 01h, ComID 0001h), every feature
 * descriptor with its fields, an unknown one with its code, version and
 * length, and the lock in words.  It reads, and never changes anything.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "json.h"
#include "report.h"
#include "tcg_ask.h"
#include "tcg_status.h"

/* The disk has no TCG, or could not be asked: one line, and the JSON says the same. */
static int without_tcg(const char *why, int err)
{
	out(" TCG: none: %s\n", why);
	json_object_begin("tcg");
	json_bool("supported", false);
	json_string("reason", why);
	json_object_end();
	return err;
}

static void field_text(const struct tcg_field *f, uint64_t v, bool first)
{
	out("%s%s ", first ? "" : ", ", f->text);
	if (f->kind == TCG_BIT)
		out("%s", v ? "yes" : "no");
	else if (f->hex)
		out("0x%llx", (unsigned long long)v);
	else
		out("%llu", (unsigned long long)v);
}

static void feature_text(const uint8_t *buf, const struct tcg_level0 *l0, const struct tcg_descriptor *d)
{
	const struct tcg_feature_desc *fd = tcg_feature_desc(d->code);
	bool first = true;
	uint64_t v;

	if (!fd) {
		out("  unknown feature %04Xh v%u, %u bytes\n", d->code, d->version, d->length);
		return;
	}
	out("  %s (%04Xh) v%u: ", fd->text, d->code, d->version);
	for (const struct tcg_field *f = fd->fields; f->text; f++)
		if (tcg_field_value(buf, l0, d, f, &v)) {
			field_text(f, v, first);
			first = false;
		}
	if (d->truncated)
		out("%s(cut short: %zu of its %u bytes came)", first ? "" : " ", l0->used - d->offset - 4, d->length);
	out("\n");
}

static void feature_json(const uint8_t *buf, const struct tcg_level0 *l0, const struct tcg_descriptor *d)
{
	const struct tcg_feature_desc *fd = tcg_feature_desc(d->code);
	uint64_t v;

	json_object_begin(NULL);
	json_uint("code", d->code);
	json_string("name", fd ? fd->json : NULL);
	json_uint("version", d->version);
	json_uint("length", d->length);
	json_bool("truncated", d->truncated);
	for (const struct tcg_field *f = fd ? fd->fields : NULL; f && f->text; f++) {
		if (!tcg_field_value(buf, l0, d, f, &v))
			continue;
		if (f->kind == TCG_BIT)
			json_bool(f->json, v);
		else
			json_uint(f->json, v);
	}
	json_object_end();
}

/* The lock in words, and what gets a locked drive back. */
static void locking_text(const struct tcg_locking *lk)
{
	if (!lk->present)
		out(" Locking: no Locking feature: the drive has no TCG locking\n");
	else if (!lk->enabled)
		out(" Locking: not enabled: no range locks%s\n", lk->supported ? "" : " (locking is not supported)");
	else if (!lk->locked)
		out(" Locking: enabled, no range locked now\n");
	else
		out(" Locking: enabled and LOCKED: reads and writes of the locked ranges fail until the owner's password"
		    " unlocks them, or a PSID revert (the PSID on the drive's label) erases everything\n");
	if (lk->present && lk->mbr_enabled && !lk->mbr_done)
		out(" Shadow MBR: shown in place of the disk's first blocks until the drive is unlocked\n");
}

static void locking_json(const struct tcg_locking *lk)
{
	if (!lk->present)
		return;
	json_object_begin("locking");
	json_bool("supported", lk->supported);
	json_bool("enabled", lk->enabled);
	json_bool("locked", lk->locked);
	json_bool("media_encryption", lk->media_encryption);
	json_bool("mbr_enabled", lk->mbr_enabled);
	json_bool("mbr_done", lk->mbr_done);
	json_object_end();
}

/*
 * An answer whose header, or last descriptor, claims more bytes than came:
 * what came was shown; said, and EIO (exit 5), since what is missing may
 * be what a script looks for.
 */
static int level0_complete(const struct tcg_level0 *l0)
{
	const struct tcg_descriptor *d = tcg_cut_descriptor(l0);

	if (l0->cut)
		complain(" Level 0 Discovery: cut short: its header claims %llu bytes, %zu came; what came is shown\n",
			 (unsigned long long)l0->length + 4, l0->got);
	else if (d)
		complain(" Level 0 Discovery: malformed: feature %04Xh claims %u bytes, %zu are left in the answer; what"
			 " came is shown\n", d->code, d->length, l0->used - d->offset - 4);
	return l0->cut || d ? EIO : 0;
}

int tcg_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct disk_cause cause = { 0 };
	struct tcg_asked a;
	struct tcg_locking lk;
	int err;

	if (!dev->disk->security_recv)
		return refuse_on_this_disk(dev, s->v[opt].name);
	err = tcg_ask_level0(dev, &a, &cause);
	if (err == EOPNOTSUPP)
		return without_tcg(cause.why, 0);
	if (err == EACCES)
		return without_tcg(cause.why, err);
	if (err == EBADMSG)
		return without_tcg(cause.why, EIO);
	if (err)
		return say_cause_for(&cause, err, s->v[opt].name);
	out(" TCG: security protocols");
	for (unsigned int i = 0; i < a.n_protocols; i++)
		out(" %02Xh", a.protocols[i]);
	out("; Level 0 Discovery revision %u, %zu bytes\n", a.l0.revision, a.l0.used);
	for (unsigned int i = 0; i < a.l0.n; i++)
		feature_text(a.buf, &a.l0, &a.l0.d[i]);
	if (a.l0.more)
		out("  (more features than %u: not shown)\n", TCG_MAX_DESCRIPTORS);
	tcg_locking_of(a.buf, &a.l0, &lk);
	locking_text(&lk);
	err = level0_complete(&a.l0);
	json_object_begin("tcg");
	json_bool("supported", true);
	json_array_begin("security_protocols");
	for (unsigned int i = 0; i < a.n_protocols; i++)
		json_uint(NULL, a.protocols[i]);
	json_array_end();
	json_object_begin("level0");
	json_uint("revision", a.l0.revision);
	json_uint("length", a.l0.length);
	json_bool("truncated", err != 0);
	json_array_begin("features");
	for (unsigned int i = 0; i < a.l0.n; i++)
		feature_json(a.buf, &a.l0, &a.l0.d[i]);
	json_array_end();
	json_object_end();
	locking_json(&lk);
	json_object_end();
	return err;
}
