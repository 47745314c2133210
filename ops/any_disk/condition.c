/*
 * --condition on every kind of disk: what the kind reads of its condition
 * (condition_read, disk/condition_facts.h) said as findings, a line each
 * with its source, then one verdict with the rule that decided it.  The
 * rules (issue 67, hdparm.8's DISK CONDITION):
 *   worn: percentage used 80 or more, or spare within 10 points of its threshold;
 *   failing: sectors pending, offline-uncorrectable or reported-uncorrectable
 *     above 0, a failed self-test, a critical warning, SMART status failing;
 *   history suspect: hours sources that disagree by more than a day and more
 *     than 1 %, or more than 100 TB written in fewer than 100 hours.
 * Several can hold; the worst leads (failing, history suspect, worn), and
 * the exit status is its own (condition.h).  A value the disk sent but
 * which could not be read is said unreadable and decides nothing.
 *
 * A sleeping disk is left asleep, as -H leaves it, unless --condition is
 * all that was asked of it: then the logs are read, and the text says the
 * disk was woken for them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "checks.h"
#include "condition.h"
#include "json.h"
#include "report.h"

enum verdict { V_GOOD, V_WORN, V_SUSPECT, V_FAILING, V_COUNT };

static const char *const verdict_words[V_COUNT] = { "good", "worn", "history suspect", "failing" };
static const int verdict_exit[V_COUNT] = { 0, CONDITION_EXIT_WORN, CONDITION_EXIT_SUSPECT, CONDITION_EXIT_FAILING };

/* One finding: what, its value, its source; rule and verdict where it decides one. */
#define FINDINGS 48
struct finding {
	const char *source;
	char what[48];
	char value[160];
	const char *rule;	/* NULL: said, decides nothing */
	enum verdict verdict;
};

struct findings {
	struct finding f[FINDINGS];
	unsigned int n;
	bool holds[V_COUNT];
};

static struct finding *add(struct findings *fs, const char *source, const char *what)
{
	static struct finding unsaid;	/* more than any disk gives: the rest written here, not said */
	struct finding *f;

	if (fs->n >= FINDINGS)
		return &unsaid;
	f = &fs->f[fs->n++];
	memset(f, 0, sizeof(*f));
	f->source = source ? source : "";
	snprintf(f->what, sizeof(f->what), "%s", what);
	return f;
}

static void decides(struct findings *fs, struct finding *f, enum verdict v, const char *rule)
{
	f->verdict = v;
	f->rule = rule;
	fs->holds[v] = true;
}

/* More than a day and more than 1 % apart: the smaller is not the disk's life (a wiped or rewritten count). */
static bool hours_disagree(uint64_t a, uint64_t b)
{
	uint64_t lo = a < b ? a : b, hi = a < b ? b : a, gap = hi - lo;

	return gap > 24 && gap > hi / 100;
}

static void hours_findings(const struct disk_condition *d, struct findings *fs)
{
	unsigned int lo = 0, hi = 0;

	for (unsigned int i = 0; i < d->n_hours; i++) {
		struct finding *f = add(fs, d->hours[i].source, "power-on hours");

		snprintf(f->value, sizeof(f->value), "%" PRIu64, d->hours[i].hours);
		if (d->hours[i].hours < d->hours[lo].hours)
			lo = i;
		if (d->hours[i].hours > d->hours[hi].hours)
			hi = i;
	}
	if (d->n_hours > 1 && hours_disagree(d->hours[lo].hours, d->hours[hi].hours)) {
		struct finding *f = add(fs, d->hours[lo].source, "history rewritten?");

		snprintf(f->value, sizeof(f->value), "%s says %" PRIu64 " h, %s says %" PRIu64 " h", d->hours[lo].source,
			 d->hours[lo].hours, d->hours[hi].source, d->hours[hi].hours);
		decides(fs, f, V_SUSPECT, "hours sources disagree by more than a day and more than 1 %");
	}
}

static uint64_t most_hours(const struct disk_condition *d)
{
	uint64_t h = 0;

	for (unsigned int i = 0; i < d->n_hours; i++)
		if (d->hours[i].hours > h)
			h = d->hours[i].hours;
	return h;
}

static double terabytes(const struct disk_condition *d)
{
	return (double)d->data_written.value * (double)(d->data_unit ? d->data_unit : 512) / 1e12;
}

static void wear_findings(const struct disk_condition *d, struct findings *fs)
{
	struct finding *f;

	if (d->percentage_used.state == COND_READ) {
		f = add(fs, d->percentage_used.source, "percentage used");
		snprintf(f->value, sizeof(f->value), "%" PRIu64 " %%", d->percentage_used.value);
		if (d->percentage_used.value >= 80)
			decides(fs, f, V_WORN, "percentage used is 80 or more");
	}
	if (d->available_spare.state == COND_READ) {
		f = add(fs, d->available_spare.source, "available spare");
		if (d->spare_threshold.state == COND_READ)
			snprintf(f->value, sizeof(f->value), "%" PRIu64 " %% (threshold %" PRIu64 " %%)",
				 d->available_spare.value, d->spare_threshold.value);
		else
			snprintf(f->value, sizeof(f->value), "%" PRIu64 " %%", d->available_spare.value);
		if (d->spare_threshold.state == COND_READ && d->available_spare.value <= d->spare_threshold.value + 10)
			decides(fs, f, V_WORN, "available spare within 10 points of its threshold");
	}
	if (d->critical_warning.state == COND_READ) {
		f = add(fs, d->critical_warning.source, "critical warning");
		snprintf(f->value, sizeof(f->value), d->critical_warning.value ? "%02" PRIx64 "h" : "none",
			 d->critical_warning.value);
		if (d->critical_warning.value)
			decides(fs, f, V_FAILING, "a critical warning is set");
	}
	if (d->data_written.state == COND_READ) {
		f = add(fs, d->data_written.source, "data written");
		snprintf(f->value, sizeof(f->value), "%.2f TB", terabytes(d));
		if (terabytes(d) > 100 && d->n_hours && most_hours(d) < 100)
			decides(fs, f, V_SUSPECT, "more than 100 TB written in fewer than 100 power-on hours");
	}
}

/* The counts by what they count: the words, and whether above 0 decides failing. */
static const struct count_words {
	const char *what, *key, *note;
	bool failing;
} count_words[COND_COUNTS] = {
	[COND_REALLOCATED] = { "reallocated sectors", "reallocated_sectors", NULL, false },
	[COND_REALLOCATION_EVENTS] = { "reallocation events", "reallocation_events", NULL, false },
	[COND_PENDING] = { "pending sectors", "pending_sectors", NULL, true },
	[COND_OFFLINE_UNCORRECTABLE] = { "offline uncorrectable", "offline_uncorrectable", NULL, true },
	[COND_REPORTED_UNCORRECTABLE] = { "reported uncorrectable", "reported_uncorrectable", NULL, true },
	[COND_INTERFACE_CRC] = { "interface CRC errors", "interface_crc_errors", " (the cable or bridge, not the medium)",
				 false },
	[COND_ERROR_LOG] = { "error log entries", "error_log_entries", NULL, false },
	[COND_MEDIA_ERRORS] = { "media errors", "media_errors", NULL, false },
	[COND_GROWN_DEFECTS] = { "grown defects", "grown_defects", NULL, false },
	[COND_READ_UNCORRECTED] = { "read errors uncorrected", "read_uncorrected_errors", NULL, false },
	[COND_WRITE_UNCORRECTED] = { "write errors uncorrected", "write_uncorrected_errors", NULL, false },
};

static void count_findings(const struct disk_condition *d, struct findings *fs)
{
	static const char *const rules[COND_COUNTS] = {
		[COND_PENDING] = "sectors pending above 0",
		[COND_OFFLINE_UNCORRECTABLE] = "offline uncorrectable sectors above 0",
		[COND_REPORTED_UNCORRECTABLE] = "reported uncorrectable errors above 0",
	};

	for (unsigned int i = 0; i < COND_COUNTS; i++) {
		const struct cond_value *v = &d->counts[i];
		struct finding *f;

		if (v->state != COND_READ)
			continue;
		f = add(fs, v->source, count_words[i].what);
		snprintf(f->value, sizeof(f->value), "%" PRIu64 "%s", v->value,
			 v->value && count_words[i].note ? count_words[i].note : "");
		if (count_words[i].failing && v->value)
			decides(fs, f, V_FAILING, rules[i]);
	}
	if (d->health_failing.state == COND_READ) {
		struct finding *f = add(fs, d->health_failing.source, "SMART status");

		snprintf(f->value, sizeof(f->value), "%s", d->health_failing.value ? "FAILING" : "passed");
		if (d->health_failing.value)
			decides(fs, f, V_FAILING, "the drive's own SMART status is failing");
	}
}

static const char *const test_results[] = {
	[COND_TEST_PASSED] = "passed", [COND_TEST_FAILED] = "FAILED", [COND_TEST_ABORTED] = "aborted",
	[COND_TEST_RUNNING] = "running", [COND_TEST_OTHER] = "other",
};

static void test_findings(const struct disk_condition *d, struct findings *fs)
{
	if (d->self_test_log.state == COND_READ && !d->n_tests) {
		struct finding *f = add(fs, d->self_test_log.source, "self-tests");

		snprintf(f->value, sizeof(f->value), "none in the log");
	}
	for (unsigned int i = 0; i < d->n_tests && i < COND_SELF_TESTS; i++) {
		const struct cond_self_test *t = &d->tests[i];
		struct finding *f = add(fs, d->self_test_log.source, "self-test");
		size_t len;

		snprintf(f->value, sizeof(f->value), "%s, %s (code %u), at hour %" PRIu64, t->kind ? t->kind : "unknown",
			 test_results[t->result <= COND_TEST_OTHER ? t->result : COND_TEST_OTHER], t->code, t->hour);
		len = strlen(f->value);
		if (t->has_lba)
			snprintf(f->value + len, sizeof(f->value) - len, ", first failing LBA %" PRIu64, t->lba);
		if (t->result == COND_TEST_FAILED)
			decides(fs, f, V_FAILING, "a self-test failed");
	}
}

static void unreadable_findings(const struct disk_condition *d, struct findings *fs)
{
	for (unsigned int i = 0; i < d->n_unreadable && i < COND_UNREADABLES; i++) {
		struct finding *f = add(fs, d->unreadable[i].source, "unreadable");

		snprintf(f->value, sizeof(f->value), "%s (left out of the verdict)", d->unreadable[i].why);
	}
}

static void find_all(const struct disk_condition *d, struct findings *fs)
{
	hours_findings(d, fs);
	wear_findings(d, fs);
	count_findings(d, fs);
	test_findings(d, fs);
	unreadable_findings(d, fs);
}

/* The verdicts that hold, worst first. */
static unsigned int verdicts(const struct findings *fs, enum verdict v[V_COUNT])
{
	unsigned int n = 0;

	for (int i = V_FAILING; i > V_GOOD; i--)
		if (fs->holds[i])
			v[n++] = (enum verdict)i;
	if (!n)
		v[n++] = V_GOOD;
	return n;
}

static void say_text(const struct findings *fs, const enum verdict *v, unsigned int nv, bool woken)
{
	if (woken)
		out(" drive state was:  standby (woken to read its logs: --condition was all that was asked)\n");
	for (unsigned int i = 0; i < fs->n; i++) {
		const struct finding *f = &fs->f[i];

		out(" %-24s %s  [%s]\n", f->what, f->value, f->source);
		if (f->rule)
			out("   -> %s: %s\n", verdict_words[f->verdict], f->rule);
	}
	out(" verdict:  %s", verdict_words[v[0]]);
	for (unsigned int i = 1; i < nv; i++)
		out(", also %s", verdict_words[v[i]]);
	if (v[0] == V_GOOD)
		out(" (no finding decided otherwise)\n");
	else
		for (unsigned int i = 0; i < fs->n; i++)
			if (fs->f[i].rule && fs->f[i].verdict == v[0]) {
				out(" (%s)\n", fs->f[i].rule);
				break;
			}
}

/* smartctl's keys of a SCSI disk's log pages. */
static void json_scsi(const struct disk_condition *d)
{
	if (d->counts[COND_GROWN_DEFECTS].state == COND_READ)
		json_uint("scsi_grown_defect_list", d->counts[COND_GROWN_DEFECTS].value);
	if (d->percentage_used.state == COND_READ)
		json_uint("scsi_percentage_used_endurance_indicator", d->percentage_used.value);
	if (d->counts[COND_READ_UNCORRECTED].state != COND_READ && d->counts[COND_WRITE_UNCORRECTED].state != COND_READ)
		return;
	json_object_begin("scsi_error_counter_log");
	for (int i = 0; i < 2; i++) {
		const struct cond_value *v = &d->counts[i ? COND_WRITE_UNCORRECTED : COND_READ_UNCORRECTED];

		if (v->state != COND_READ)
			continue;
		json_object_begin(i ? "write" : "read");
		json_uint("total_uncorrected_errors", v->value);
		json_object_end();
	}
	json_object_end();
}

/* smartctl's objects where it has one for the value. */
static void json_smartctl(const struct disk_condition *d)
{
	if (d->n_hours) {
		json_object_begin("power_on_time");
		json_uint("hours", d->hours[0].hours);
		json_object_end();
	}
	/* smartctl's NVMe verdict is the Critical Warning byte's: any bit set fails it. */
	if (d->health_failing.state == COND_READ || (d->critical_warning.state == COND_READ && d->family &&
						     strcmp(d->family, "nvme") == 0)) {
		json_object_begin("smart_status");
		json_bool("passed", d->health_failing.state == COND_READ ? !d->health_failing.value : !d->critical_warning.value);
		json_object_end();
	}
	if (d->family && strcmp(d->family, "nvme") == 0) {
		json_object_begin("nvme_smart_health_information_log");
		if (d->critical_warning.state == COND_READ)
			json_uint("critical_warning", d->critical_warning.value);
		if (d->available_spare.state == COND_READ)
			json_uint("available_spare", d->available_spare.value);
		if (d->spare_threshold.state == COND_READ)
			json_uint("available_spare_threshold", d->spare_threshold.value);
		if (d->percentage_used.state == COND_READ)
			json_uint("percentage_used", d->percentage_used.value);
		if (d->data_written.state == COND_READ)
			json_uint("data_units_written", d->data_written.value);
		if (d->n_hours)
			json_uint("power_on_hours", d->hours[0].hours);
		if (d->counts[COND_MEDIA_ERRORS].state == COND_READ)
			json_uint("media_errors", d->counts[COND_MEDIA_ERRORS].value);
		if (d->counts[COND_ERROR_LOG].state == COND_READ)
			json_uint("num_err_log_entries", d->counts[COND_ERROR_LOG].value);
		json_object_end();
	}
	if (d->family && strcmp(d->family, "scsi") == 0)
		json_scsi(d);
	if (d->n_attributes) {
		json_object_begin("ata_smart_attributes");
		json_array_begin("table");
		for (unsigned int i = 0; i < d->n_attributes && i < COND_ATTRIBUTES; i++) {
			const struct cond_attribute *a = &d->attributes[i];

			json_object_begin(NULL);
			json_uint("id", a->id);
			json_string("name", a->name ? a->name : "Unknown_Attribute");
			json_uint("value", a->value);
			json_uint("worst", a->worst);
			json_uint("thresh", a->thresh);
			json_object_begin("raw");
			json_uint("value", a->raw);
			json_object_end();
			json_object_end();
		}
		json_array_end();
		json_object_end();
	}
}

/* smartctl's words for an ATA self-test's type (ataprint.cpp, ataPrintSmartSelfTestEntry). */
static void ata_test_type(uint8_t type, char *buf, size_t size)
{
	static const char *const offline[] = { "Offline", "Short offline", "Extended offline", "Conveyance offline",
					       "Selective offline" };
	static const char *const captive[] = { NULL, "Short captive", "Extended captive", "Conveyance captive",
					       "Selective captive" };

	if (type <= 4)
		snprintf(buf, size, "%s", offline[type]);
	else if (type == 0x7f)
		snprintf(buf, size, "Abort offline test");
	else if (type >= 0x81 && type <= 0x84)
		snprintf(buf, size, "%s", captive[type - 0x80]);
	else
		snprintf(buf, size, "%s (0x%02x)", (type >= 0x40 && type <= 0x7e) || type >= 0x90 ? "Vendor" : "Reserved", type);
}

/*
 * ata_smart_self_test_log as smartctl -x --json writes it: "extended" from the Extended log (07h), else
 * "standard"; each entry's type and status (the whole byte) with smartctl's words; passed left out where
 * the test was stopped (1h, 2h) or ended in a fatal or unknown error (3h), as smartctl leaves it; the LBA
 * of a failed test where the log holds one (has_lba: not all ones). The newest COND_SELF_TESTS entries.
 */
static void json_ata_self_tests(const struct disk_condition *d)
{
	static const char *const status_words[16] = {
		"Completed without error", "Aborted by host", "Interrupted (host reset)", "Fatal or unknown error",
		"Completed: unknown failure", "Completed: electrical failure", "Completed: servo/seek failure",
		"Completed: read failure", "Completed: handling damage??", [15] = "Self-test routine in progress",
	};

	json_object_begin("ata_smart_self_test_log");
	json_object_begin(d->self_test_log_extended ? "extended" : "standard");
	json_array_begin("table");
	for (unsigned int i = 0; i < d->n_tests && i < COND_SELF_TESTS; i++) {
		const struct cond_self_test *t = &d->tests[i];
		unsigned int status = t->code & 0x0f;
		bool failed = status >= 3 && status <= 8;
		char words[40];

		json_object_begin(NULL);
		json_object_begin("type");
		json_uint("value", t->type);
		ata_test_type(t->type, words, sizeof(words));
		json_string("string", words);
		json_object_end();
		json_object_begin("status");
		json_uint("value", status << 4 | (t->remaining & 0x0f));
		if (status_words[status])
			json_string("string", status_words[status]);
		else {
			snprintf(words, sizeof(words), "Unknown status (0x%x)", status);
			json_string("string", words);
		}
		if (t->remaining & 0x0f)
			json_uint("remaining_percent", (t->remaining & 0x0fu) * 10);
		if (status < 1 || status > 3)
			json_bool("passed", !failed);
		json_object_end();
		json_uint("lifetime_hours", t->hour);
		if (t->has_lba)
			json_uint("lba", t->lba);
		json_object_end();
	}
	json_array_end();
	json_object_end();
	json_object_end();
}

/*
 * nvme_self_test_log's table as smartctl -x --json (7.4 and later) writes it: nvmeprint.cpp's words, the
 * failed segment of result 7h, the LBA where the entry says it is valid. An entry without a Self-test
 * Code is left out (smartctl writes null in its place).
 */
static void json_nvme_self_tests(const struct disk_condition *d)
{
	static const char *const results[16] = {
		"Completed without error", "Aborted: Self-test command", "Aborted: Controller Reset",
		"Aborted: Namespace removed", "Aborted: Format NVM command", "Fatal or unknown test error",
		"Completed: unknown failed segment", "Completed: failed segments", "Aborted: unknown reason",
		"Aborted: sanitize operation",
	};
	char words[40];

	json_object_begin("nvme_self_test_log");
	json_array_begin("table");
	for (unsigned int i = 0; i < d->n_tests && i < COND_SELF_TESTS; i++) {
		const struct cond_self_test *t = &d->tests[i];

		if (!t->type)
			continue;	/* smartctl's unused entry: no Self-test Code */
		json_object_begin(NULL);
		json_object_begin("self_test_code");
		json_uint("value", t->type);
		if (t->type == 0x1 || t->type == 0x2 || t->type == 0xe)
			snprintf(words, sizeof(words), "%s", t->type == 0x1 ? "Short" : t->type == 0x2 ? "Extended" : "Vendor specific");
		else
			snprintf(words, sizeof(words), "Unknown (0x%x)", t->type);
		json_string("string", words);
		json_object_end();
		json_object_begin("self_test_result");
		json_uint("value", t->code);
		if (t->code < 16 && results[t->code])
			snprintf(words, sizeof(words), "%s", results[t->code]);
		else
			snprintf(words, sizeof(words), "Unknown result (0x%x)", t->code);
		json_string("string", words);
		json_object_end();
		json_uint("power_on_hours", t->hour);
		if (t->code == 0x7)
			json_uint("segment", t->segment);
		if (t->has_lba)
			json_uint("lba", t->lba);
		json_object_end();
	}
	json_array_end();
	json_object_end();
}

/* hdparm's own array of the self-tests, the same on every kind, and smartctl's object for ATA and NVMe. */
static void json_tests(const struct disk_condition *d)
{
	if (d->self_test_log.state != COND_READ)
		return;
	json_array_begin("self_tests");
	for (unsigned int i = 0; i < d->n_tests && i < COND_SELF_TESTS; i++) {
		const struct cond_self_test *t = &d->tests[i];

		json_object_begin(NULL);
		json_string("kind", t->kind);
		json_string("result", test_results[t->result <= COND_TEST_OTHER ? t->result : COND_TEST_OTHER]);
		json_bool("passed", t->result == COND_TEST_PASSED);
		json_uint("code", t->code);
		json_uint("lifetime_hours", t->hour);
		if (t->has_lba)
			json_uint("lba", t->lba);
		json_object_end();
	}
	json_array_end();
	if (d->family && strcmp(d->family, "ata") == 0)
		json_ata_self_tests(d);
	else if (d->family && strcmp(d->family, "nvme") == 0)
		json_nvme_self_tests(d);
}

static void say_json(const struct disk_condition *d, const struct findings *fs, const enum verdict *v, unsigned int nv,
		     bool woken)
{
	json_object_begin("condition");
	if (woken)
		json_bool("woken", true);
	json_smartctl(d);
	json_array_begin("hours_sources");
	for (unsigned int i = 0; i < d->n_hours && i < COND_HOURS_SOURCES; i++) {
		json_object_begin(NULL);
		json_string("source", d->hours[i].source);
		json_uint("hours", d->hours[i].hours);
		json_object_end();
	}
	json_array_end();
	json_object_begin("counts");
	for (unsigned int i = 0; i < COND_COUNTS; i++)
		if (d->counts[i].state == COND_READ)
			json_uint(count_words[i].key, d->counts[i].value);
	json_object_end();
	if (d->data_written.state == COND_READ)
		json_fixed("data_written_tb", terabytes(d), 2);
	json_tests(d);
	json_array_begin("findings");
	for (unsigned int i = 0; i < fs->n; i++) {
		json_object_begin(NULL);
		json_string("source", fs->f[i].source);
		json_string("what", fs->f[i].what);
		json_string("value", fs->f[i].value);
		json_string("rule", fs->f[i].rule);
		json_object_end();
	}
	json_array_end();
	json_array_begin("verdict");
	for (unsigned int i = 0; i < nv; i++)
		json_string(NULL, verdict_words[v[i]]);
	json_array_end();
	json_object_end();
}

/* --condition is all that was asked of the disk (--json and -q ask nothing of it): it may be woken. */
static bool condition_alone(const struct settings *s, enum opt_id opt)
{
	for (int i = 0; i < OPT_COUNT; i++)
		if (s->v[i].given && i != (int)opt && i != OPT_JSON && i != OPT_QUIET && i != OPT_CONTINUE_ON_REFUSAL)
			return false;
	return true;
}

int condition_step(struct device *dev, const struct settings *s, enum opt_id opt)
{
	static struct disk_condition d;
	static struct findings fs;
	struct disk_cause cause = { 0 };
	enum verdict v[V_COUNT] = { V_GOOD };
	unsigned int nv;
	bool woken = false;
	int err;

	if (!dev->disk->condition_read)
		return refuse_missing_command(dev, s->v[opt].name);
	/* A disk that lets one command time out (hung) is asked nothing more: a timeout a log would stall the run. */
	dev->stop_at_timeout = true;
	if (disk_asleep(dev)) {
		if (!condition_alone(s, opt)) {
			say_left_asleep(s, "its condition", "condition", NULL);
			return 0;
		}
		woken = true;
	}
	memset(&d, 0, sizeof(d));
	memset(&fs, 0, sizeof(fs));
	err = dev->disk->condition_read(dev, &d, &cause);
	if (dev->timed_out && err == ETIMEDOUT)
		return say_cause_for(&cause, err, s->v[opt].name);
	if (dev->timed_out) {
		/* Whatever came before it, a verdict from half the logs of a disk that stopped answering would mislead. */
		complain(" %s: the disk stopped answering (a command timed out): nothing more is asked of it, no verdict\n",
			 s->v[opt].name);
		return ETIMEDOUT;
	}
	if (err)
		return say_cause_for(&cause, err, s->v[opt].name);
	find_all(&d, &fs);
	/* Nothing read (no log, or every one unreadable): no verdict, for nothing could decide one. */
	if (fs.n <= d.n_unreadable) {
		unsigned int i;

		for (i = 0; i < fs.n; i++)
			out(" %-24s %s  [%s]\n", fs.f[i].what, fs.f[i].value, fs.f[i].source);
		say_json(&d, &fs, v, 0, woken);
		cause.about_option = true;
		snprintf(cause.why, sizeof(cause.why), "the disk gave no log of its condition that could be read: no verdict");
		return say_cause_for(&cause, EOPNOTSUPP, s->v[opt].name);
	}
	nv = verdicts(&fs, v);
	say_text(&fs, v, nv, woken);
	say_json(&d, &fs, v, nv, woken);
	return verdict_exit[v[0]];
}
