/*
 * Erasing an NVMe disk, the disk's part: Sanitize (block erase, crypto
 * erase, overwrite) checked against SANICAP and sent, its Sanitize Status
 * log read, and Format NVM with a secure erase checked against OACS and
 * FNA and sent.  Nothing here is said: sanitize_start.c, sanitize_wait.c
 * and format_erase.c word it; --sanitize-status is still this file's text.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "reach.h"
#include "json.h"
#include "nvme.h"
#include "nvme_erase.h"
#include "nvme_spec.h"
#include "report.h"

/* What Identify Controller says about erasing. */
struct erase_caps {
	uint32_t sanicap;
	uint16_t oacs;
	uint8_t fna;
};

/* Identify Controller's erase capabilities; a failure in *cause, nothing said. */
static int read_caps(struct device *dev, struct erase_caps *c, struct disk_cause *cause)
{
	int err;
	struct nvme_id_ctrl *ctrl = nvme_identify_controller(dev, &err, cause);

	*c = (struct erase_caps){ 0 };
	if (ctrl) {
		c->sanicap = le32toh(ctrl->sanicap);
		c->oacs = le16toh(ctrl->oacs);
		c->fna = ctrl->fna;
	}
	free(ctrl);
	return err;
}

/* What a sanitize action leaves: zeros after a block erase, a pattern after an overwrite. */
static enum erase_kind erase_kind_of(unsigned int sanact)
{
	return sanact == NVME_SANACT_CRYPTO_ERASE ? ERASE_CRYPTO
	       : sanact == NVME_SANACT_OVERWRITE ? ERASE_TO_SOME_PATTERN
						 : ERASE_TO_ZEROS;
}

static const struct nvme_sanitize_act {
	uint32_t sanact;
	uint32_t cap;		/* its SANICAP bit (0: any controller with Sanitize) */
	const char *name;
} sanitize_actions[] = {
	[SANITIZE_BLOCK_ERASE] = { NVME_SANACT_BLOCK_ERASE, NVME_SANICAP_BLOCK_ERASE, "block erase" },
	[SANITIZE_CRYPTO_ERASE] = { NVME_SANACT_CRYPTO_ERASE, NVME_SANICAP_CRYPTO_ERASE, "crypto erase" },
	[SANITIZE_OVERWRITE] = { NVME_SANACT_OVERWRITE, NVME_SANICAP_OVERWRITE, "overwrite" },
	[SANITIZE_EXIT_FAILURE] = { NVME_SANACT_EXIT_FAILURE, 0, "exit failure mode" },
};

#define SANICAP_ACTIONS (NVME_SANICAP_BLOCK_ERASE | NVME_SANICAP_CRYPTO_ERASE | NVME_SANICAP_OVERWRITE)

/* Append "what" to a list being written as "a, b and c" (conj: " and ", " or "; n: items so far). */
static void list_add(char *buf, size_t size, unsigned int *n, unsigned int total, const char *conj, const char *what)
{
	size_t len = strlen(buf);

	snprintf(buf + len, size - len, "%s%s", *n == 0 ? "" : *n + 1 == total ? conj : ", ", what);
	(*n)++;
}

/* "sanitize block erase and crypto erase, and format with user-data erase" (or "no erase command"). */
static void supported_erases(const struct erase_caps *c, char *buf, size_t size)
{
	unsigned int total = 0, n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(sanitize_actions); i++)
		total += sanitize_actions[i].cap && (c->sanicap & sanitize_actions[i].cap);
	if (total) {
		snprintf(buf, size, "sanitize ");
		for (size_t i = 0; i < ARRAY_SIZE(sanitize_actions); i++)
			if (sanitize_actions[i].cap && (c->sanicap & sanitize_actions[i].cap))
				list_add(buf, size, &n, total, " and ", sanitize_actions[i].name);
	}
	if (c->oacs & NVME_OACS_FORMAT)
		snprintf(buf + strlen(buf), size - strlen(buf), "%sformat with user-data erase%s", total ? ", and " : "",
			 (c->fna & NVME_FNA_CRYPTO_ERASE) ? " and crypto erase" : "");
	if (!buf[0])
		snprintf(buf, size, "no erase command");
}

void nvme_erase_choices(struct device *dev, char *text, size_t size)
{
	static const struct {
		uint32_t cap;
		const char *option;
	} options[] = {
		{ NVME_SANICAP_BLOCK_ERASE, "--sanitize-block-erase" },
		{ NVME_SANICAP_CRYPTO_ERASE, "--sanitize-crypto-scramble" },
		{ NVME_SANICAP_OVERWRITE, "--sanitize-overwrite" },
	};
	struct erase_caps c;
	char what[200], use[200] = "";
	unsigned int total = 0, n = 0;

	if (read_caps(dev, &c, &(struct disk_cause){ 0 }))
		return;
	supported_erases(&c, what, sizeof(what));
	for (size_t i = 0; i < ARRAY_SIZE(options); i++)
		total += (c.sanicap & options[i].cap) != 0;
	total += (c.oacs & NVME_OACS_FORMAT) != 0;
	for (size_t i = 0; i < ARRAY_SIZE(options); i++)
		if (c.sanicap & options[i].cap)
			list_add(use, sizeof(use), &n, total, " or ", options[i].option);
	if (c.oacs & NVME_OACS_FORMAT)
		list_add(use, sizeof(use), &n, total, " or ", (c.fna & NVME_FNA_CRYPTO_ERASE) ? "--format-erase user|crypto" : "--format-erase user");
	snprintf(text, size, "this NVMe disk supports %s%s%s", what, total ? ": use " : "", use);
}

enum reach_scope nvme_erase_scope(struct device *dev, enum erase_method how)
{
	struct erase_caps c;

	if (how == ERASE_BY_SANITIZE)
		return REACH_NVME_SUBSYSTEM;
	/* FNA bits 0 and 1: a format, or its secure erase, applies to every namespace of the subsystem. */
	return read_caps(dev, &c, &(struct disk_cause){ 0 }) == 0 && (c.fna & (NVME_FNA_ERASE_ALL | NVME_FNA_FORMAT_ALL))
		       ? REACH_NVME_SUBSYSTEM : REACH_NAMED;
}

/* ---- Sanitize ---- */

static const char *const sanitize_states[] = {
	[NVME_SSTAT_NEVER] = "never sanitized",
	[NVME_SSTAT_COMPLETED] = "completed",
	[NVME_SSTAT_IN_PROGRESS] = "in progress",
	[NVME_SSTAT_FAILED] = "failed",
	[NVME_SSTAT_COMPLETED_NO_DEALLOC] = "completed without deallocation",
};

/* The log's fields in host order. */
struct sanitize_log {
	unsigned int progress;	/* of 65536 */
	unsigned int status;	/* enum nvme_sanitize_status, or another value */
	unsigned int passes;
	bool global_erased;
	uint32_t last_cdw10;
	uint32_t estimate[3];	/* seconds: overwrite, block erase, crypto erase */
};

static int read_sanitize_log(struct device *dev, struct sanitize_log *l, struct disk_cause *c)
{
	struct nvme_sanitize_log raw;
	int err;

	c->what = "NVMe Get Log Page (sanitize status)";
	err = nvme_admin_get_log(dev, NVME_LOG_SANITIZE_STATUS, &raw, sizeof(raw), c);
	uint16_t sstat = le16toh(raw.sstat);

	l->progress = le16toh(raw.sprog);
	l->status = sstat & NVME_SSTAT_STATUS_MASK;
	l->passes = (sstat >> 3) & 0x1f;
	l->global_erased = sstat & 0x100;
	l->last_cdw10 = le32toh(raw.scdw10);
	l->estimate[0] = le32toh(raw.eto);
	l->estimate[1] = le32toh(raw.etbe);
	l->estimate[2] = le32toh(raw.etce);
	return err;
}

static const char *state_name(unsigned int status)
{
	return status < ARRAY_SIZE(sanitize_states) ? sanitize_states[status] : "reserved";
}

/* The controller's estimate in seconds for the action of CDW10 (0: none given). */
static uint32_t estimate_for(const struct sanitize_log *l, uint32_t cdw10)
{
	static const int slot[] = { [NVME_SANACT_OVERWRITE] = 0, [NVME_SANACT_BLOCK_ERASE] = 1, [NVME_SANACT_CRYPTO_ERASE] = 2 };
	unsigned int act = cdw10 & 7;
	uint32_t e;

	if (act != NVME_SANACT_OVERWRITE && act != NVME_SANACT_BLOCK_ERASE && act != NVME_SANACT_CRYPTO_ERASE)
		return 0;
	e = l->estimate[slot[act]];
	return e == NVME_SANITIZE_NO_ESTIMATE ? 0 : e;
}

/* The action and the switches asked for are the controller's, as SANICAP says. */
int nvme_sanitize_check(struct device *dev, struct sanitize_request *r, struct disk_cause *cause)
{
	const struct nvme_sanitize_act *a = &sanitize_actions[r->action];
	struct erase_caps c;
	char what[200];
	int err;

	if (r->action == SANITIZE_STATUS)
		return 0;	/* the log is there to be read */
	if ((err = read_caps(dev, &c, cause)))
		return err;
	supported_erases(&c, what, sizeof(what));
	cause->about_option = true;
	if (!(c.sanicap & SANICAP_ACTIONS)) {
		snprintf(cause->why, sizeof(cause->why), "this NVMe controller has no Sanitize command (it supports %s)", what);
		return EOPNOTSUPP;
	}
	if (a->cap && !(c.sanicap & a->cap)) {
		snprintf(cause->why, sizeof(cause->why), "this NVMe controller does not support sanitize %s (it supports %s)",
			 a->name, what);
		return EOPNOTSUPP;
	}
	if (r->no_deallocate && (c.sanicap & NVME_SANICAP_NO_DEALLOC_INHIBITED)) {
		snprintf(cause->why, sizeof(cause->why), "this NVMe controller always deallocates after a sanitize"
			 " (No-Deallocate Inhibited): --sanitize-no-deallocate refused");
		return EOPNOTSUPP;
	}
	cause->about_option = false;
	snprintf(r->command, sizeof(r->command), "NVMe Sanitize (%s)", a->name);
	r->leaves = a->sanact == NVME_SANACT_OVERWRITE ? ERASE_TO_PATTERN : erase_kind_of(a->sanact);
	return 0;
}

/* Sanitize: SANACT, AUSE, No-Deallocate, an overwrite's passes in CDW10 and its pattern in CDW11. */
int nvme_sanitize_start(struct device *dev, const struct sanitize_request *r, struct disk_cause *c)
{
	uint32_t cdw10 = sanitize_actions[r->action].sanact;

	if (r->ause)
		cdw10 |= NVME_SANITIZE_AUSE;
	if (r->no_deallocate)
		cdw10 |= NVME_SANITIZE_NO_DEALLOC;
	if (r->action == SANITIZE_OVERWRITE)
		cdw10 |= (uint32_t)r->passes << NVME_SANITIZE_OWPASS_SHIFT;
	return nvme_admin_sanitize(dev, cdw10, r->action == SANITIZE_OVERWRITE ? r->pattern : 0, c);
}

/* --sanitize-status: the log's state, progress, passes and estimates. */
int nvme_sanitize_status(struct device *dev, struct sanitize_poll *p)
{
	int err = nvme_sanitize_poll(dev, p);

	p->state_text = p->status;
	p->percent = p->progress * 100 / 65536;
	return err;
}

/* --sanitize-wait: the Sanitize Status log's state, progress and estimates. */
int nvme_sanitize_poll(struct device *dev, struct sanitize_poll *p)
{
	struct sanitize_log l;
	int err = read_sanitize_log(dev, &l, &p->cause);

	if (err)
		return err;
	p->status = state_name(l.status);
	p->has_progress = true;
	p->progress = l.progress;
	p->estimate_s = estimate_for(&l, l.last_cdw10);
	/* The log does not keep an overwrite's pattern: unless this run started it, the first block sampled gives it. */
	p->left = erase_kind_of(l.last_cdw10 & 7);
	p->has_log = true;
	p->passes = l.passes;
	p->global_erased = l.global_erased;
	for (size_t i = 0; i < ARRAY_SIZE(l.estimate); i++)
		p->estimates[i] = l.estimate[i] == NVME_SANITIZE_NO_ESTIMATE ? UINT32_MAX : l.estimate[i];
	switch (l.status) {
	case NVME_SSTAT_IN_PROGRESS:
		p->phase = SANITIZE_RUNNING;
		break;
	case NVME_SSTAT_COMPLETED:
		p->phase = SANITIZE_COMPLETED;
		break;
	case NVME_SSTAT_COMPLETED_NO_DEALLOC:
		p->phase = SANITIZE_COMPLETED_NO_DEALLOC;
		break;
	case NVME_SSTAT_FAILED:
		p->phase = SANITIZE_FAILED;
		snprintf(p->detail, sizeof(p->detail), "the last sanitize operation failed (--sanitize-exit-failure-mode leaves"
			 " that state where it was started with --sanitize-ause; else start another sanitize)");
		break;
	default:
		p->phase = SANITIZE_NONE;
		snprintf(p->detail, sizeof(p->detail), "no sanitize operation is running, and none has completed (status: %s)",
			 state_name(l.status));
		break;
	}
	return 0;
}

/* ---- Format NVM with a secure erase ---- */

/* CDW10 that keeps the namespace's format (LBA format, metadata, protection) and asks for ses. */
static uint32_t format_cdw10(const struct nvme_id_ns *ns, unsigned int ses)
{
	uint32_t cdw10 = (ns->flbas & NVME_FLBAS_LOW_MASK) |
			 (uint32_t)((ns->flbas >> NVME_FLBAS_HIGH_SHIFT) & 3) << NVME_FORMAT_LBAFU_SHIFT |
			 (uint32_t)(ns->dps & NVME_DPS_TYPE_MASK) << NVME_FORMAT_PI_SHIFT |
			 (uint32_t)ses << NVME_FORMAT_SES_SHIFT;

	if (ns->flbas & NVME_FLBAS_EXTENDED)
		cdw10 |= NVME_FORMAT_MSET;
	if (ns->dps & NVME_DPS_FIRST)
		cdw10 |= NVME_FORMAT_PIL;
	return cdw10;
}

/* The controller can format the namespace with the erase asked for; the command keeps the namespace's format. */
int nvme_format_check(struct device *dev, struct format_request *r, struct disk_cause *cause)
{
	unsigned int ses = r->crypto ? NVME_SES_CRYPTO : NVME_SES_USER_DATA;
	struct nvme_id_ns *ns;
	struct erase_caps c;
	char what[200];
	int err = read_caps(dev, &c, cause);

	if (err)
		return err;
	supported_erases(&c, what, sizeof(what));
	cause->about_option = true;
	if (nvme_nsid(dev) == NVME_NSID_ALL) {
		snprintf(cause->why, sizeof(cause->why), "%s has no namespace to format", dev->path);
		return EOPNOTSUPP;
	}
	if (!(c.oacs & NVME_OACS_FORMAT)) {
		snprintf(cause->why, sizeof(cause->why), "this NVMe controller has no Format NVM command (it supports %s)", what);
		return EOPNOTSUPP;
	}
	if (r->crypto && !(c.fna & NVME_FNA_CRYPTO_ERASE)) {
		snprintf(cause->why, sizeof(cause->why),
			 "this NVMe controller does not support a cryptographic erase in a format (it supports %s)", what);
		return EOPNOTSUPP;
	}
	cause->about_option = false;
	ns = malloc(sizeof(*ns));
	err = ns ? nvme_identify_namespace(dev, ns, cause) : ENOMEM;
	if (!err)
		r->cdw10 = format_cdw10(ns, ses);
	r->nsid = nvme_nsid(dev);
	free(ns);
	/* FNA bits 0 and 1: a format, or its secure erase, applies to every namespace of the subsystem. */
	r->all_namespaces = c.fna & (NVME_FNA_ERASE_ALL | NVME_FNA_FORMAT_ALL);
	return err;
}

int nvme_format_start(struct device *dev, const struct format_request *r, struct disk_cause *c)
{
	return nvme_admin_format(dev, nvme_nsid(dev), r->cdw10, c);
}

/* ---- Format NVM to another LBA format (--set-sector-size), no secure erase ---- */

int nvme_block_formats(struct device *dev, struct disk_block_formats *b)
{
	struct nvme_id_ns *ns;
	struct erase_caps c;
	int err = read_caps(dev, &c, &b->cause);

	if (err)
		return err;
	if (nvme_nsid(dev) == NVME_NSID_ALL || !(c.oacs & NVME_OACS_FORMAT)) {
		b->cause.about_option = true;
		snprintf(b->cause.why, sizeof(b->cause.why), nvme_nsid(dev) == NVME_NSID_ALL ? "%s has no namespace to format"
			 : "this NVMe controller has no Format NVM command", dev->path);
		return EOPNOTSUPP;
	}
	if (!(ns = malloc(sizeof(*ns))))
		return ENOMEM;
	if (!(err = nvme_identify_namespace(dev, ns, &b->cause))) {
		b->n = ns->nlbaf < 16 ? ns->nlbaf + 1u : 16u;
		for (unsigned int i = 0; i < b->n; i++) {
			b->f[i].data_bytes = (uint32_t)nvme_lba_bytes(&ns->lbaf[i]);
			b->f[i].metadata_bytes = le16toh(ns->lbaf[i].ms);
			b->f[i].performance = ns->lbaf[i].rp & 3;
			/* Protection information takes 8 bytes of a block's metadata: only formats with that much. */
			b->f[i].pi_types = 1u | (b->f[i].metadata_bytes >= 8 ? (unsigned int)(ns->dpc & NVME_DPC_TYPES) << 1 : 0);
		}
		b->rated = true;
		b->command = "Format NVM";
		b->current = (ns->flbas & NVME_FLBAS_LOW_MASK) | (unsigned int)((ns->flbas >> NVME_FLBAS_HIGH_SHIFT) & 3) << 4;
		b->blocks = le64toh(ns->nsze);
		b->pi_type = ns->dps & NVME_DPS_TYPE_MASK;
		b->pi_types = ns->dpc & NVME_DPC_TYPES;
	}
	free(ns);
	return err;
}

int nvme_block_format_set(struct device *dev, const struct disk_format_request *r, struct disk_cause *c)
{
	/* No secure erase (SES 0), metadata in a separate buffer, the protection information (if any) last. */
	uint32_t cdw10 = (r->index & NVME_FORMAT_LBAF_MASK) | (uint32_t)((r->index >> 4) & 3) << NVME_FORMAT_LBAFU_SHIFT |
			 (uint32_t)(r->pi_type & NVME_DPS_TYPE_MASK) << NVME_FORMAT_PI_SHIFT;

	return nvme_admin_format(dev, nvme_nsid(dev), cdw10, c);
}

