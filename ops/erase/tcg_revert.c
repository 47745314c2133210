/*
 * --tcg-psid-revert PSID: a self-encrypting drive back to its factory
 * state with the PSID printed on its label (TCG Storage Feature Set: PSID;
 * Opal SSC 2.01 5.1.3): a session to the Admin SP opened as the PSID
 * authority with the PSID as its challenge, Revert on the Admin SP, then
 * Level 0 Discovery again.  Like the erases: refused before anything is
 * sent where the drive cannot do it, a sample of blocks read before and
 * after (a revert that left them readable and unchanged is a failure),
 * and a record where one is asked for.  Nothing else that changes TCG
 * state is built here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "checks.h"
#include "commands.h"
#include "erase_verify.h"
#include "erasecheck.h"
#include "erase_record.h"
#include "json.h"
#include "progress.h"
#include "reach.h"
#include "report.h"
#include "secret.h"
#include "tcg_ask.h"
#include "tcg_methods.h"
#include "tcg_revert.h"
#include "unaligned.h"

/* How long a drive may take to answer: a session's set-up, and the revert (an erase of every range). */
#define ANSWER_SECONDS 30
#define REVERT_SECONDS 600
/* Our HostSessionID: any number the host picks (Core 5.2.3.1). */
#define HOST_SESSION 1

/* Method status codes (Core 5.1.5) that get advice. */
enum {
	STATUS_SUCCESS = 0x00,
	STATUS_NOT_AUTHORIZED = 0x01,
	STATUS_SP_BUSY = 0x03,
	STATUS_NO_SESSIONS_AVAILABLE = 0x07,
	STATUS_AUTHORITY_LOCKED_OUT = 0x12,
};

/* The call a session ended at: its name in --json and as the Core Specification names the method. */
struct stage {
	const char *json, *method;
};
static const struct stage PROPERTIES = { "properties", "Properties" }, START_SESSION = { "start_session", "StartSession" },
			  REVERT = { "revert", "Revert" };

struct target {
	struct tcg_asked a;
	uint16_t ssc, comid;
};

struct session {
	struct device *dev;
	uint16_t comid;
	uint32_t tsn, hsn;
	uint8_t buf[TCG_HOST_MAX_COMPACKET];
	struct tcg_response r;
	struct disk_cause cause;
};

static const char *ssc_name(uint16_t code)
{
	const struct tcg_feature_desc *fd = tcg_feature_desc(code);

	return fd ? fd->text : "?";
}

/* The drive's Level 0 Discovery, and the SSC and ComID a revert goes to; a refusal in *c. */
static int find_target(struct device *dev, struct target *t, struct disk_cause *c)
{
	int err;

	if (!dev->disk->security_send)
		return EOPNOTSUPP;
	if ((err = tcg_ask_level0(dev, &t->a, c)))
		return err;
	c->about_option = true;
	if (!tcg_ssc_of(t->a.buf, &t->a.l0, &t->ssc, &t->comid)) {
		snprintf(c->why, sizeof(c->why), "the drive's Level 0 Discovery names no Security"
			 " Subsystem Class (Opal, Opalite, Pyrite, Ruby): it has no Admin SP to revert");
		return EOPNOTSUPP;
	}
	if (t->ssc == TCG_FEATURE_ENTERPRISE) {
		snprintf(c->why, sizeof(c->why), "an Enterprise SSC drive: its standard defines"
			 " neither a PSID authority nor Revert (a drive that has them has them beyond it: its vendor's tool"
			 " knows)");
		return EOPNOTSUPP;
	}
	c->about_option = false;
	return 0;
}

/* The target found, or the refusal said (nothing sent); dev->refused where the drive cannot do it. */
static int target_or_refusal(struct device *dev, const struct settings *s, enum opt_id opt, struct target *t)
{
	struct disk_cause cause = { 0 };
	int err;

	t->ssc = t->comid = 0;
	if (!dev->disk->security_recv || !dev->disk->security_send)
		return refuse_on_this_disk(dev, s->v[opt].name);
	if ((err = find_target(dev, t, &cause))) {
		if (!cause.about_option && err != EOPNOTSUPP && err != EACCES && err != EBADMSG)
			return say_cause_for(&cause, err, s->v[opt].name);
		/* The drive cannot do it (no TCG, no SSC, Enterprise, no readable Level 0), or the kernel will not send it. */
		dev->refused = true;
		complain(" %s: refused, nothing sent: %s\n", s->v[opt].name, cause.why);
		return err == EBADMSG ? EIO : err;
	}
	return 0;
}

int tcg_psid_revert_check(struct device *dev, const struct settings *s, enum opt_id opt)
{
	struct target t;

	return target_or_refusal(dev, s, opt, &t);
}

static double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The ComPacket of w's tokens sent (IF-SEND), then IF-RECV until the
 * drive has its answer (a ComPacket of length 0: not yet), for at most
 * seconds; the answer opened into ss->r.  A signal (poll_wait_begin) ends
 * the wait where signal_ends is true; else it is noted and the wait goes on.
 */
static int exchange(struct session *ss, const struct tcg_writer *w, unsigned int seconds, bool signal_ends)
{
	struct device *dev = ss->dev;
	size_t n = w->overflow ? 0 : tcg_packetize(ss->buf, sizeof(ss->buf), ss->comid, ss->tsn, ss->hsn, w->p, w->len);
	double deadline = now_seconds() + seconds;
	useconds_t pause = 1000;
	const char *why;
	size_t got;
	int err;

	if (!n) {
		snprintf(ss->cause.why, sizeof(ss->cause.why), "a method call longer than a ComPacket of %d bytes",
			 TCG_HOST_MAX_COMPACKET);
		return EOVERFLOW;
	}
	err = dev->disk->security_send(dev, TCG_PROTOCOL_TCG, ss->comid, ss->buf, n, &ss->cause);
	/* Sent, or not: the packet is not kept (StartSession's holds the PSID). */
	explicit_bzero(ss->buf, n);
	if (err)
		return err;
	for (;;) {
		if ((err = dev->disk->security_recv(dev, TCG_PROTOCOL_TCG, ss->comid, ss->buf, sizeof(ss->buf), &got,
						    &ss->cause)))
			return err;
		if (got >= TCG_COMPACKET_HEADER && get_be32(ss->buf + 16) != 0)
			break;
		/* SIGINT, SIGTERM or SIGHUP: the wait ends here, so that the session can still be ended. */
		if (signal_ends && poll_wait_interrupted()) {
			snprintf(ss->cause.why, sizeof(ss->cause.why), "interrupted while the drive had not answered");
			return EINTR;
		}
		if (now_seconds() > deadline) {
			snprintf(ss->cause.why, sizeof(ss->cause.why), "the drive gave no answer in %u s", seconds);
			return ETIMEDOUT;
		}
		usleep(pause);
		if (pause < 100000)
			pause *= 2;
	}
	if (!tcg_unpacketize(ss->buf, got, &ss->r, &why)) {
		snprintf(ss->cause.why, sizeof(ss->cause.why), "the drive's answer cannot be read: %s", why);
		return EPROTO;
	}
	return 0;
}

/* The end of an open session (END OF SESSION), on every path that leaves one open; its answer is not needed. */
static void end_session(struct session *ss)
{
	uint8_t token[4];
	struct tcg_writer w = { .p = token, .cap = sizeof(token) };
	struct disk_cause keep = ss->cause;

	tcg_write_end_session(&w);
	exchange(ss, &w, 2, false);
	ss->cause = keep;
}

/* The method status of the answer in ss->r; a missing one is a malformed answer. */
static int status_of(struct session *ss, int *status)
{
	*status = tcg_method_status(ss->r.data, ss->r.len);
	if (*status >= 0)
		return 0;
	snprintf(ss->cause.why, sizeof(ss->cause.why), "the drive's answer carries no method status");
	return EPROTO;
}

/* StartSession refused the PSID: what looks wrong in it, and that tries are limited. */
static void explain_psid(const char *psid, bool sid_blocked)
{
	size_t len = strlen(psid);
	bool dashes = strchr(psid, '-') != NULL, spaces = strchr(psid, ' ') != NULL, lower = false;

	for (const char *p = psid; *p; p++)
		lower = lower || (*p >= 'a' && *p <= 'z');
	complain(" The drive did not take the PSID given.");
	if (dashes || spaces || lower || len != 32)
		complain(" It has%s%s%s%s%s%s: labels print the PSID as 32 capitals and digits, without dashes.",
			 dashes ? " dashes" : "", dashes && (spaces || lower) ? "," : "", spaces ? " spaces" : "",
			 spaces && lower ? "," : "", lower ? " lower case" : "", len != 32 ? " (not 32 characters)" : "");
	complain(" Tries are limited: past the drive's limit it refuses the PSID until it is powered off and on.\n");
	if (sid_blocked)
		complain(" (The drive also reports SID authentication blocked until its next power cycle: Block SID.)\n");
}

/*
 * A method status other than SUCCESS, in words, with what to do; the
 * errno it ends the run with.  psid: StartSession's (NULL for the Revert,
 * by then wiped).
 */
static int explain(const char *method, int status, const char *psid, bool sid_blocked)
{
	char name[24];

	complain(" %s: the drive answered %s\n", method, tcg_status_name(status, name, sizeof(name)));
	switch (status) {
	case STATUS_NOT_AUTHORIZED:
		if (psid)
			explain_psid(psid, sid_blocked);
		return EACCES;
	case STATUS_AUTHORITY_LOCKED_OUT:
		complain(" Too many wrong PSIDs: the drive refuses the PSID until it is powered off and on (a reset is not"
			 " enough on most drives); then type it again, carefully.\n");
		return EACCES;
	case STATUS_SP_BUSY:
		complain(" The Admin SP is busy: another session is open on it (another program?). Close it, or power the"
			 " drive off and on, and try again.\n");
		return EBUSY;
	case STATUS_NO_SESSIONS_AVAILABLE:
		complain(" The drive has no session free: power it off and on, and try again.\n");
		return EBUSY;
	default:
		return EIO;
	}
}

/* The JSON object of what was done. */
static void revert_json(const struct target *t, const struct stage *stage, int status, const struct tcg_locking *after)
{
	char name[24];

	json_object_begin("tcg_psid_revert");
	json_string("ssc", tcg_feature_desc(t->ssc) ? tcg_feature_desc(t->ssc)->json : NULL);
	json_uint("base_comid", t->comid);
	json_string("stage", stage->json);
	if (status >= 0)
		json_string("method_status", tcg_status_name(status, name, sizeof(name)));
	else
		json_null("method_status");
	json_bool("reverted", status == STATUS_SUCCESS && stage == &REVERT);
	if (after && after->present) {
		json_object_begin("locking_after");
		json_bool("enabled", after->enabled);
		json_bool("locked", after->locked);
		json_object_end();
	}
	json_object_end();
}

/* A signal came between two calls: EINTR, said in the cause. */
static int interrupted(struct session *ss, const char *next)
{
	if (!poll_wait_interrupted())
		return 0;
	snprintf(ss->cause.why, sizeof(ss->cause.why), "interrupted before %s was sent", next);
	return EINTR;
}

/*
 * The session: Properties, StartSession as the PSID authority, Revert.
 * *stage names the call that ended it; *status its method status (-1: none
 * came).  A signal (poll_wait_begin) ends it between two calls or in a
 * wait for an answer other than StartSession's, and a session opened is
 * ended first.  The PSID's copies are wiped as soon as the session is
 * open: the call's tokens, its packet (exchange), the PSID itself.
 */
static int run_session(struct session *ss, const char *psid, const struct stage **stage, int *status)
{
	uint8_t tokens[512];
	struct tcg_writer w = { .p = tokens, .cap = sizeof(tokens) };
	uint32_t hsn, tsn;
	int err;

	*status = -1;
	*stage = &PROPERTIES;
	tcg_write_properties(&w);
	if ((err = exchange(ss, &w, ANSWER_SECONDS, true)) || (err = status_of(ss, status)) || *status != STATUS_SUCCESS)
		return err;
	*stage = &START_SESSION;
	w.len = 0;
	tcg_write_start_session_psid(&w, HOST_SESSION, psid, strlen(psid));
	if ((err = interrupted(ss, "it")))
		return err;
	/*
	 * Once StartSession is sent, the drive may open the session whatever
	 * comes: a signal is noted and SyncSession still waited for (within
	 * its limit), so that a session opened is ended before the run stops.
	 */
	err = exchange(ss, &w, ANSWER_SECONDS, false);
	explicit_bzero(tokens, sizeof(tokens));	/* the call held the PSID */
	if (err)
		return err;
	if (!tcg_read_sync_session(ss->r.data, ss->r.len, &hsn, &tsn)) {
		/* Refused: no session was opened, none to end. */
		if ((err = status_of(ss, status)))
			return err;
		if (*status != STATUS_SUCCESS)
			return 0;
		snprintf(ss->cause.why, sizeof(ss->cause.why), "StartSession answered SUCCESS without SyncSession's"
			 " session numbers");
		return EPROTO;
	}
	/* The session is open: the PSID has done its work.  The Revert's own status is still to come. */
	secret_forget(psid);
	*status = -1;
	ss->hsn = hsn;
	ss->tsn = tsn;
	if ((err = interrupted(ss, "Revert"))) {
		end_session(ss);
		return err;
	}
	*stage = &REVERT;
	w.len = 0;
	tcg_write_revert_admin_sp(&w);
	if ((err = exchange(ss, &w, REVERT_SECONDS, true)) || (err = status_of(ss, status))) {
		end_session(ss);
		return err;
	}
	/* Opal 2.01 5.1.3.2: a Revert of the Admin SP ends the session itself; where it failed, the session is ours to end. */
	if (*status != STATUS_SUCCESS)
		end_session(ss);
	return 0;
}

static int revert(struct device *dev, const struct settings *s, enum opt_id opt)
{
	const char *psid = s->v[opt].str;
	const struct stage *stage;
	struct disk_cause cause = { 0 };
	struct tcg_locking after = { 0 };
	struct target t;
	struct tcg_asked again;
	struct session *ss;
	char command[120];
	bool sid_blocked;
	int err, status;

	if ((err = target_or_refusal(dev, s, opt, &t)))
		return err;
	sid_blocked = tcg_sid_blocked(t.a.buf, &t.a.l0);
	snprintf(command, sizeof(command), "TCG PSID revert (Revert of the Admin SP, %s, ComID %04Xh)", ssc_name(t.ssc),
		 t.comid);
	if (dev->reach_valid && dev->reach.n > 1) {
		char names[600];

		reach_list(&dev->reach, names, sizeof(names));
		out("This revert erases every namespace of the NVM subsystem: %s\n", names);
	}
	if ((err = erase_about_to_send(dev, ERASE_CRYPTO, 0, command)))
		return err;
	if (erase_proof_asked(s))
		erase_run_hidden(dev);
	out("Issuing %s\n", command);
	fflush(stdout);
	if (!(ss = calloc(1, sizeof(*ss))))
		return ENOMEM;
	*ss = (struct session){ .dev = dev, .comid = t.comid };
	poll_wait_begin();
	err = run_session(ss, psid, &stage, &status);
	poll_wait_end();
	if (err) {
		/* No method status came: where the Revert was sent, only the drive knows whether it ran. */
		const char *why = ss->cause.why[0] ? ss->cause.why : strerror(err);

		erase_run_status(dev, err == EINTR ? "interrupted" : why);
		complain(" --tcg-psid-revert: %s%s: %s;%s %s\n", stage->method, err == EINTR ? "" : " failed", why,
			 ss->tsn ? " the session was ended (END OF SESSION);" : "",
			 stage == &REVERT ? "the drive may have reverted: --tcg shows its state" : "nothing was reverted");
	} else if (status != STATUS_SUCCESS) {
		char name[24];

		erase_run_status(dev, tcg_status_name(status, name, sizeof(name)));
		err = explain(stage->method, status, stage == &START_SESSION ? psid : NULL, sid_blocked);
	}
	free(ss);
	if (err) {
		revert_json(&t, stage, status, NULL);
		return err;
	}
	erase_run_status(dev, "reverted");
	/* What the drive says of itself now. */
	cause = (struct disk_cause){ 0 };
	if (tcg_ask_level0(dev, &again, &cause) == 0)
		tcg_locking_of(again.buf, &again.l0, &after);
	out(" Revert: SUCCESS, the drive's TCG state is its factory's");
	if (after.present)
		out("; Locking now %s, %s", after.enabled ? "enabled" : "not enabled", after.locked ? "LOCKED" : "not locked");
	out("\n");
	revert_json(&t, stage, status, &after);
	if (after.present && (after.enabled || after.locked)) {
		complain(" --tcg-psid-revert: the drive answered SUCCESS, yet its Level 0 Discovery still says locking is"
			 " %s\n", after.locked ? "enabled and locked" : "enabled");
		return EIO;
	}
	drop_cached_sectors(dev);
	return erase_check(dev, ERASE_CRYPTO, 0, verify_full(s));
}

int tcg_psid_revert_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	int err = revert(dev, s, opt);

	/* Wiped once the session is open (run_session); on every other way out, here. */
	secret_forget(s->v[opt].str);
	return err;
}
