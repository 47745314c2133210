/*
 * Every block of a disk, read back after an erase.  It must keep up with
 * the disk: the reads go through the read queue (io_uring, else AIO, else
 * pread) in 1 MiB requests, several in flight, and a block is judged with
 * two memcmp() calls: a block whose bytes repeat every four (its first
 * four against the rest shifted by four) is zeros or a 32-bit pattern,
 * anything else is other data.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "erase_verify.h"
#include "json.h"
#include "largefile.h"
#include "progress.h"
#include "readq.h"
#include "report.h"
#include "unaligned.h"

#define VERIFY_CHUNK (1u << 20)
#define VERIFY_DEPTH 8u

/* The kinds of block (enum erase_block), as the JSON names them. */
static const char *const block_names[] = { "zeros", "pattern", "other" };

bool erase_block_expected(enum erase_kind k, enum erase_block b)
{
	switch (k) {
	case ERASE_TO_PATTERN:
		return b == ERASED_PATTERN;
	case ERASE_CRYPTO:
		return b == ERASED_OTHER;
	default:
		/* A block erase or a user-data format: zeros, or the one fill the drive chose. */
		return b != ERASED_OTHER;
	}
}

static uint32_t swap32(uint32_t x)
{
	return x >> 24 | (x >> 8 & 0xff00u) | (x << 8 & 0xff0000u) | x << 24;
}

/* One block: zeros, the pattern (either byte order; an overwrite's also inverted), or other. */
static enum erase_block judge_block(const uint8_t *b, size_t n, enum erase_kind kind, struct verify_full *v)
{
	uint32_t first;

	if (memcmp(b, b + 4, n - 4) != 0)
		return ERASED_OTHER;
	first = get_be32(b);
	if (!first)
		return ERASED_ZEROS;
	/* The first repeated pattern after a block erase is the drive's fill: held against the rest. */
	if (!v->have_pattern && (kind == ERASE_TO_ZEROS || kind == ERASE_TO_SOME_PATTERN)) {
		v->pattern = first;
		v->have_pattern = true;
	}
	if (v->have_pattern && (first == v->pattern || first == swap32(v->pattern)))
		return ERASED_PATTERN;
	if (kind == ERASE_TO_PATTERN && (first == ~v->pattern || first == swap32(~v->pattern)))
		return ERASED_PATTERN;
	return ERASED_OTHER;
}

/* Keep the VERIFY_LISTED lowest LBAs (completions come back in any order). */
static void list_lba(uint64_t *list, unsigned int *n, uint64_t lba)
{
	unsigned int i = *n < VERIFY_LISTED ? (*n)++ : VERIFY_LISTED;

	if (i == VERIFY_LISTED && lba > list[VERIFY_LISTED - 1])
		return;
	if (i == VERIFY_LISTED)
		i--;
	while (i > 0 && list[i - 1] > lba) {
		list[i] = list[i - 1];
		i--;
	}
	list[i] = lba;
}

/*
 * The blocks of one read whose bytes all repeat every four (a zeroed or
 * patterned disk: nearly every read after most erases): every block then
 * starts with the same four bytes and is judged as the first is, with one
 * memcmp() over the whole read instead of one a block.  Those calls, some
 * 2048 a MiB on 512-byte blocks, each with its judgement and its count,
 * cost the verify of a zeroed disk a fifth of the device's speed in
 * memory.  Those not expected: the lowest LBAs of the read listed.
 */
static bool judge_periodic(const uint8_t *buf, size_t bytes, uint64_t lba, enum erase_kind kind, struct verify_full *v)
{
	const unsigned int bs = v->block_bytes;
	enum erase_block b;

	if (bytes < 2 * (size_t)bs || memcmp(buf, buf + 4, bytes - 4) != 0)
		return false;
	b = judge_block(buf, bs, kind, v);
	v->count[b] += bytes / bs;
	for (uint64_t i = 0; !erase_block_expected(kind, b) && i < bytes / bs && i < VERIFY_LISTED; i++)
		list_lba(v->listed[b], &v->n_listed[b], lba + i);
	return true;
}

/* The blocks of one read at lba: counted, and those not expected listed. */
static void judge_chunk(const uint8_t *buf, size_t bytes, uint64_t lba, enum erase_kind kind,
			const struct erase_before *before, struct verify_full *v)
{
	const unsigned int bs = v->block_bytes;
	const uint64_t end = lba + bytes / bs;

	if (!judge_periodic(buf, bytes, lba, kind, v))
		for (size_t off = 0; off < bytes; off += bs) {
			enum erase_block b = judge_block(buf + off, bs, kind, v);

			v->count[b]++;
			if (!erase_block_expected(kind, b))
				list_lba(v->listed[b], &v->n_listed[b], lba + off / bs);
		}
	v->read += bytes / bs;
	for (unsigned int i = 0; before && i < before->blocks; i++) {
		const uint8_t *blk;

		if (before->lba[i] < lba || before->lba[i] >= end)
			continue;
		blk = buf + (before->lba[i] - lba) * bs;
		if (judge_block(blk, bs, kind, v) != ERASED_OTHER || erase_block_hash(blk, bs) != before->hash[i])
			continue;
		v->unchanged++;
		list_lba(v->listed_unchanged, &v->n_listed_unchanged, before->lba[i]);
	}
}

static void draw(struct status_line *st, const struct verify_full *v, double t0)
{
	double t = monotonic_seconds() - t0, done = (double)v->read / (double)(v->blocks ? v->blocks : 1);
	double rate = t > 0 ? (double)v->read * v->block_bytes / t : 0;
	unsigned long left = rate > 0 ? (unsigned long)((double)(v->blocks - v->read) * v->block_bytes / rate) : 0;
	char text[128];

	snprintf(text, sizeof(text), "verify: %.0f%% of %.1f GB read, %.0f MB/s, %lu:%02lu left", 100 * done,
		 (double)v->blocks * v->block_bytes / 1e9, rate / 1e6, left / 60, left % 60);
	status_draw(st, text);
}

/* The reads in whole chunks; the tail (less than a chunk) is the caller's. */
static int read_chunks(struct readq *q, uint64_t chunks, enum erase_kind kind, const struct erase_before *before,
		       struct verify_full *v, struct status_line *st, double t0)
{
	struct readq_done done[VERIFY_DEPTH];
	unsigned int inflight = 0;
	uint64_t next = 0;
	double drawn = t0;
	int err = 0;

	for (unsigned int slot = 0; slot < q->depth && next < chunks; slot++, next++, inflight++)
		readq_queue(q, slot, next * q->block);
	while (inflight) {
		int n = readq_wait(q, inflight > 1 ? inflight / 2 : 1, done);

		if (n < 0) {
			err = -n;
			complain(" --erase-verify: the reads failed (%s): %s\n", readq_engine_name(q), strerror(err));
			break;
		}
		for (int i = 0; i < n; i++) {
			unsigned int slot = done[i].slot;
			unsigned long long off = q->offsets[slot];

			inflight--;
			if (done[i].res != (long long)q->block) {
				err = err ? err : done[i].res < 0 ? (int)-done[i].res : EIO;
				v->failed_at = off / v->block_bytes;
				continue;
			}
			judge_chunk((const uint8_t *)q->buffers + (size_t)slot * q->block, q->block, off / v->block_bytes,
				    kind, before, v);
			if (!err && next < chunks) {
				readq_queue(q, slot, next++ * q->block);
				inflight++;
			}
		}
		/* Ctrl-C or SIGTERM: what is queued comes back, nothing more is asked, the record still gets written. */
		if (!err && poll_wait_interrupted()) {
			err = EINTR;
			v->interrupted = true;
		}
		if (st->shown && monotonic_seconds() - drawn > 0.25) {
			drawn = monotonic_seconds();
			draw(st, v, t0);
		}
	}
	/* What is still queued finishes before the buffers go. */
	for (int n; inflight && (n = readq_wait(q, inflight, done)) > 0;)
		inflight -= (unsigned int)n;
	return err;
}

int erase_verify_full(const char *path, enum erase_kind kind, uint32_t pattern, const struct erase_before *before,
		      bool show, struct verify_full *v)
{
	struct status_line st;
	struct readq q;
	uint64_t chunks, tail;
	double t0 = monotonic_seconds();
	ssize_t got;
	int err;

	memset(v, 0, sizeof(*v));
	v->pattern = pattern;
	v->have_pattern = kind == ERASE_TO_PATTERN;
	err = readq_open_or_one(&q, path, VERIFY_DEPTH, VERIFY_CHUNK, "--erase-verify");
	if (err)
		return err;
	v->block_bytes = q.sector;
	v->blocks = q.size / q.sector;
	chunks = q.size / q.block;
	tail = q.size - chunks * q.block;
	status_begin(&st, show);
	poll_wait_begin();
	err = read_chunks(&q, chunks, kind, before, v, &st, t0);
	if (!err && tail && !poll_wait_interrupted()) {
		/* The last, shorter read, with the first slot's buffer (a multiple of the block size). */
		got = pread(q.fd, q.buffers, (size_t)tail, (off_t)(chunks * q.block));
		if (got == (ssize_t)tail)
			judge_chunk((const uint8_t *)q.buffers, (size_t)tail, chunks * q.block / v->block_bytes, kind, before, v);
		else {
			err = got < 0 ? errno : EIO;
			v->failed_at = chunks * q.block / v->block_bytes;
		}
	}
	poll_wait_end();
	status_end(&st);
	v->seconds = monotonic_seconds() - t0;
	if (v->interrupted)
		complain(" --erase-verify: interrupted after %llu of the %llu blocks of %s: the read-back is incomplete\n",
			 (unsigned long long)v->read, (unsigned long long)v->blocks, path);
	else if (err)
		complain(" --erase-verify: reading %s failed at LBA %llu: %s\n", path, (unsigned long long)v->failed_at,
			 strerror(err));
	readq_close(&q);
	return err;
}

/* "; at LBA 5, 9" or "; the first 8 at LBA 0, 1, ..." */
static void say_lbas(const uint64_t *lba, unsigned int n, uint64_t of)
{
	if (n < of)
		out("; the first %u at LBA", n);
	else
		out("; at LBA");
	for (unsigned int i = 0; i < n; i++)
		out("%s %llu", i ? "," : "", (unsigned long long)lba[i]);
	out("\n");
}

/* Blocks the erase does not leave (zeros after a cryptographic erase are: deallocated), or unchanged. */
bool erase_verify_failed(const struct verify_full *v, enum erase_kind kind)
{
	if (v->interrupted)
		return true;
	for (int b = ERASED_ZEROS; b <= ERASED_OTHER; b++)
		if (v->count[b] && !erase_block_expected(kind, (enum erase_block)b) && !(kind == ERASE_CRYPTO && b == ERASED_ZEROS))
			return true;
	return v->unchanged != 0;
}

static void json_lbas(const char *key, const uint64_t *lba, unsigned int n)
{
	json_array_begin(key);
	for (unsigned int i = 0; i < n; i++)
		json_uint(NULL, lba[i]);
	json_array_end();
}

int erase_verify_say(const struct verify_full *v, enum erase_kind kind, const char *who)
{
	static const char *const as[] = { "as zeros", "as the pattern", "as other data" };
	static const char *const leaves[] = {
		[ERASE_TO_ZEROS] = "zeros or one fill pattern", [ERASE_TO_PATTERN] = "the pattern written",
		[ERASE_TO_SOME_PATTERN] = "zeros or one fill pattern", [ERASE_CRYPTO] = "data that is not zeros",
	};
	uint64_t wrong = 0;
	double bytes = (double)v->read * v->block_bytes;

	out("after the erase:%s every block read back (%llu blocks of %u bytes, %.1f %s in %.1f s, %.0f MB/s): %llu as"
	    " zeros, %llu as ", who, (unsigned long long)v->read, v->block_bytes, bytes >= 1e9 ? bytes / 1e9 : bytes / 1e6,
	    bytes >= 1e9 ? "GB" : "MB", v->seconds, v->seconds > 0 ? bytes / v->seconds / 1e6 : 0.0,
	    (unsigned long long)v->count[ERASED_ZEROS], (unsigned long long)v->count[ERASED_PATTERN]);
	if (v->have_pattern)
		out("the pattern 0x%08x", v->pattern);
	else
		out("a pattern");
	out(", %llu as other data\n", (unsigned long long)v->count[ERASED_OTHER]);
	for (int b = ERASED_ZEROS; b <= ERASED_OTHER; b++) {
		if (!v->count[b] || erase_block_expected(kind, (enum erase_block)b))
			continue;
		/* Blocks a drive deallocated read as zeros: no sign that old data survived a cryptographic erase. */
		if (kind == ERASE_CRYPTO && b == ERASED_ZEROS) {
			out("after the erase:%s %llu blocks read as zeros (deallocated, as a drive may leave them after a"
			    " cryptographic erase)", who, (unsigned long long)v->count[b]);
		} else {
			wrong += v->count[b];
			out("after the erase:%s %llu blocks read %s, which is not %s", who, (unsigned long long)v->count[b],
			    as[b], leaves[kind]);
		}
		say_lbas(v->listed[b], v->n_listed[b], v->count[b]);
	}
	if (v->unchanged) {
		out("after the erase:%s %llu blocks of the sample taken before it read as they did (the erase did not change"
		    " them)", who, (unsigned long long)v->unchanged);
		say_lbas(v->listed_unchanged, v->n_listed_unchanged, v->unchanged);
	}
	if (!wrong && !v->unchanged)
		return 0;
	wrong += v->unchanged;
	complain(" after the erase:%s %llu blocks are not what the erase leaves\n", who, (unsigned long long)wrong);
	return EIO;
}

void erase_verify_json(const struct verify_full *v, enum erase_kind kind)
{
	json_object_begin("full");
	json_uint("blocks", v->read);
	json_uint("block_bytes", v->block_bytes);
	for (int b = ERASED_ZEROS; b <= ERASED_OTHER; b++)
		json_uint(block_names[b], v->count[b]);
	if (v->have_pattern)
		json_uint("pattern_value", v->pattern);
	json_uint("unchanged", v->unchanged);
	json_fixed("seconds", v->seconds, 3);
	json_object_begin("first_lbas_not_expected");
	for (int b = ERASED_ZEROS; b <= ERASED_OTHER; b++)
		if (!erase_block_expected(kind, (enum erase_block)b))
			json_lbas(block_names[b], v->listed[b], v->n_listed[b]);
	json_lbas("unchanged", v->listed_unchanged, v->n_listed_unchanged);
	json_object_end();
	json_bool("interrupted", v->interrupted);
	json_string("verdict", v->interrupted ? "interrupted" : erase_verify_failed(v, kind) ? "not_as_expected" : "as_expected");
	json_object_end();
}

void erase_verify_say_hidden(const struct disk_hidden *h, const char *who)
{
	if (h->native > h->accessible)
		out("after the erase:%s LBA %llu to %llu, hidden by a host protected area, were not read back: what was read"
		    " is what the host reaches, not the whole medium\n", who, (unsigned long long)h->accessible,
		    (unsigned long long)h->native - 1);
	if (h->native && h->dco > h->native)
		out("after the erase:%s LBA %llu to %llu, hidden by a device configuration overlay, were not read back\n",
		    who, (unsigned long long)h->native, (unsigned long long)h->dco - 1);
}
