/*
 * Erasing a SCSI disk with SANITIZE (SBC-4): the same options as on ATA
 * start an overwrite, a block erase or a cryptographic erase with IMMED
 * set, and REQUEST SENSE's progress indication says how far it is.  What
 * the disk supports comes from REPORT SUPPORTED OPERATION CODES; a disk
 * that cannot say is sent the SANITIZE, and an ILLEGAL REQUEST then is a
 * refusal like any other.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "array.h"
#include "json.h"
#include "report.h"
#include "scsi.h"
#include "scsi_erase.h"
#include "unaligned.h"

static const struct scsi_sanitize_op {
	uint8_t sa;
	const char *name;
	const char *option;
} sanitize_ops[] = {
	[SANITIZE_BLOCK_ERASE] = { SANITIZE_SA_BLOCK_ERASE, "block erase", "--sanitize-block-erase" },
	[SANITIZE_CRYPTO_ERASE] = { SANITIZE_SA_CRYPTO_ERASE, "cryptographic erase", "--sanitize-crypto-scramble" },
	[SANITIZE_OVERWRITE] = { SANITIZE_SA_OVERWRITE, "overwrite", "--sanitize-overwrite" },
	[SANITIZE_EXIT_FAILURE] = { SANITIZE_SA_EXIT_FAILURE, "exit failure mode", "--sanitize-exit-failure-mode" },
};

#define ERASE_OPS 3	/* the first three rows erase */

/*
 * The erase actions the disk reports (bit i: sanitize_ops[i]); false when
 * it cannot say (REPORT SUPPORTED OPERATION CODES refused or empty).
 */
static bool reported_actions(struct device *dev, unsigned int *mask)
{
	*mask = 0;
	for (unsigned int i = 0; i < ERASE_OPS; i++) {
		struct scsi_result res;
		bool supported;

		if (scsi_supports(dev, SCSI_SANITIZE, sanitize_ops[i].sa, &supported, &res))
			return false;
		if (supported)
			*mask |= 1u << i;
	}
	return true;
}

/* "SANITIZE block erase and overwrite" (or "no SANITIZE"), and the options for them. */
static void supported_text(unsigned int mask, char *what, size_t wsize, char *use, size_t usize)
{
	unsigned int total = 0, n = 0;

	for (unsigned int i = 0; i < ERASE_OPS; i++)
		total += (mask >> i) & 1;
	snprintf(what, wsize, total ? "SANITIZE " : "no SANITIZE");
	use[0] = '\0';
	for (unsigned int i = 0; i < ERASE_OPS; i++) {
		if (!(mask & (1u << i)))
			continue;
		snprintf(what + strlen(what), wsize - strlen(what), "%s%s", n == 0 ? "" : n + 1 == total ? " and " : ", ",
			 sanitize_ops[i].name);
		snprintf(use + strlen(use), usize - strlen(use), "%s%s", n == 0 ? "" : n + 1 == total ? " or " : ", ",
			 sanitize_ops[i].option);
		n++;
	}
}

void scsi_erase_choices(struct device *dev, char *text, size_t size)
{
	unsigned int mask;
	char what[120], use[160];

	if (!reported_actions(dev, &mask)) {
		snprintf(text, size, "this SCSI disk does not report whether it has SANITIZE: try --sanitize-block-erase,"
			 " --sanitize-crypto-scramble or --sanitize-overwrite (refused at once where it has not)");
		return;
	}
	supported_text(mask, what, sizeof(what), use, sizeof(use));
	if (mask)
		snprintf(text, size, "this SCSI disk supports %s: use %s", what, use);
	else
		snprintf(text, size, "this SCSI disk reports no SANITIZE command: hdparm has no erase command for it");
}

/* Where a sanitize stands, from the sense data REQUEST SENSE returns. */
enum sanitize_state { SANITIZE_STATE_IDLE, SANITIZE_STATE_RUNNING, SANITIZE_STATE_FAILED };

static enum sanitize_state state_of(const struct sense *now)
{
	if (now->asc == ASC_NOT_READY && now->ascq == ASCQ_SANITIZE_IN_PROGRESS)
		return SANITIZE_STATE_RUNNING;
	if (now->asc == ASC_MEDIUM_FORMAT_CORRUPTED && now->ascq == ASCQ_SANITIZE_FAILED)
		return SANITIZE_STATE_FAILED;
	return SANITIZE_STATE_IDLE;
}

static const char *const state_names[] = {
	[SANITIZE_STATE_IDLE] = "no sanitize operation in progress",
	[SANITIZE_STATE_RUNNING] = "in progress",
	[SANITIZE_STATE_FAILED] = "failed",
};

/* --sanitize-status: REQUEST SENSE's sanitize state, and how a failed one is left. */
int scsi_sanitize_status(struct device *dev, struct sanitize_poll *p)
{
	struct scsi_result res;
	struct sense now;
	enum sanitize_state st;
	int err = scsi_request_sense(dev, &now, &res);

	if (err)
		return scsi_cause(&p->cause, "REQUEST SENSE", &res, err);
	st = state_of(&now);
	p->phase = st == SANITIZE_STATE_RUNNING ? SANITIZE_RUNNING : st == SANITIZE_STATE_FAILED ? SANITIZE_FAILED : SANITIZE_NONE;
	p->status = p->state_text = state_names[st];
	p->has_progress = st == SANITIZE_STATE_RUNNING && now.has_progress;
	p->progress = now.progress;
	p->percent = now.progress * 100u / 65536u;
	p->failed_advice = st == SANITIZE_STATE_FAILED;
	return 0;
}

/* The disk may be sent the action: it reports it, or cannot say; no NVMe switch was asked of it. */
int scsi_sanitize_check(struct device *dev, struct sanitize_request *r, struct disk_cause *c)
{
	const struct scsi_sanitize_op *op = &sanitize_ops[r->action];
	unsigned int mask, i = (unsigned int)r->action;
	char what[120], use[160];

	if (r->action == SANITIZE_STATUS)
		return 0;	/* REQUEST SENSE is there to be sent */
	c->about_option = true;
	if (r->no_deallocate) {
		snprintf(c->why, sizeof(c->why), "SCSI SANITIZE has no choice of deallocation: --sanitize-no-deallocate is for NVMe");
		return EOPNOTSUPP;
	}
	if (i < ERASE_OPS && reported_actions(dev, &mask) && !(mask & (1u << i))) {
		supported_text(mask, what, sizeof(what), use, sizeof(use));
		snprintf(c->why, sizeof(c->why), "this SCSI disk does not support SANITIZE %s (it supports %s)", op->name, what);
		return EOPNOTSUPP;
	}
	c->about_option = false;
	snprintf(r->command, sizeof(r->command), "SCSI SANITIZE (%s)", op->name);
	r->leaves = r->action == SANITIZE_CRYPTO_ERASE ? ERASE_CRYPTO
		    : r->action == SANITIZE_OVERWRITE ? ERASE_TO_PATTERN : ERASE_TO_SOME_PATTERN;
	return 0;
}

/* SANITIZE with IMMED: an overwrite's parameter list (passes, the pattern); a disk that refuses it lacks it. */
int scsi_sanitize_start(struct device *dev, const struct sanitize_request *r, struct disk_cause *c)
{
	const struct scsi_sanitize_op *op = &sanitize_ops[r->action];
	uint8_t param[SANITIZE_OVERWRITE_HEADER + 4] = { 0 };
	struct scsi_result res;
	size_t len = 0;
	int err;

	if (r->action == SANITIZE_OVERWRITE) {
		/* hdparm's 0 is 16 passes, as on ATA; the pattern goes out as it was written, most significant byte first. */
		param[0] = (uint8_t)(r->passes ? r->passes : 16);
		put_be16(param + 2, 4);
		put_be32(param + SANITIZE_OVERWRITE_HEADER, r->pattern);
		len = sizeof(param);
	}
	err = scsi_sanitize(dev, (uint8_t)(op->sa | SANITIZE_IMMED | (r->ause ? SANITIZE_AUSE : 0)), len ? param : NULL, len,
			    &res);
	if (err && scsi_refused(err, &res)) {
		c->about_option = true;
		snprintf(c->why, sizeof(c->why), "this SCSI disk refused SANITIZE %s (%s): it does not support it", op->name,
			 res.cause);
		return EOPNOTSUPP;
	}
	return scsi_cause(c, "SANITIZE", &res, err);
}

/* --sanitize-wait: REQUEST SENSE's sanitize state and progress; idle says nothing of one that ended. */
int scsi_sanitize_poll(struct device *dev, struct sanitize_poll *p)
{
	struct scsi_result res;
	struct sense now;
	int err = scsi_request_sense(dev, &now, &res);

	if (err)
		return scsi_cause(&p->cause, "REQUEST SENSE", &res, err);
	p->left = ERASE_TO_SOME_PATTERN;
	p->has_progress = now.has_progress;
	p->progress = now.progress;
	switch (state_of(&now)) {
	case SANITIZE_STATE_RUNNING:
		p->phase = SANITIZE_RUNNING;
		p->status = "in progress";
		break;
	case SANITIZE_STATE_FAILED:
		p->phase = SANITIZE_FAILED;
		p->status = "failed";
		snprintf(p->detail, sizeof(p->detail), "the sanitize operation failed (--sanitize-exit-failure-mode leaves that"
			 " state where it was started with --sanitize-ause; else start another sanitize)");
		break;
	default:
		p->phase = SANITIZE_NONE;
		p->status = state_names[SANITIZE_STATE_IDLE];
		p->no_record = true;
		break;
	}
	return 0;
}
