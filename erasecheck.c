/*
 * What a disk reads after an erase, from a sample of its blocks: the
 * standards let a block erase leave zeros, ones or anything the drive
 * likes, and a cryptographic erase leave what the old data decrypts to
 * under a new key; the user is told which, from the disk itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/fs.h>

#include "erasecheck.h"
#include "json.h"
#include "largefile.h"
#include "report.h"
#include "unaligned.h"

enum erase_block erase_classify(const uint8_t *block, size_t bytes, uint32_t pattern, bool have_pattern)
{
	bool zeros = true, be = have_pattern, le = have_pattern;

	for (size_t i = 0; i < bytes; i++) {
		unsigned int shift = 8 * (unsigned int)(i % 4);

		zeros = zeros && !block[i];
		be = be && block[i] == (uint8_t)(pattern >> (24 - shift));
		le = le && block[i] == (uint8_t)(pattern >> shift);
	}
	if (zeros)
		return ERASED_ZEROS;
	return be || le ? ERASED_PATTERN : ERASED_OTHER;
}

uint64_t erase_sample_lba(unsigned int i, unsigned int n, uint64_t blocks)
{
	if (n < 2 || blocks < 2)
		return 0;
	/* (blocks - 1) * i / (n - 1), without overflowing 64 bits on a huge disk. */
	uint64_t last = blocks - 1;

	return last / (n - 1) * i + last % (n - 1) * i / (n - 1);
}

struct sample {
	unsigned int counts[3];
	uint64_t first_other;
	bool any_other;
};

/* Read the sample into *sm; 0 or an errno, said. */
static int read_sample(const char *path, struct sample *sm, uint32_t *pattern, bool have_pattern, bool learn_pattern)
{
	unsigned long long size = 0;
	int fd = -1, lbs = 0, err = 0;
	void *buf = NULL;
	struct stat st;

	fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd >= 0 ? fstat(fd, &st) == 0 && !S_ISBLK(st.st_mode) : stat(path, &st) == 0 && !S_ISBLK(st.st_mode)) {
		/* Not a failure: a controller or sg node has no blocks to read. */
		out("after the erase: %s is not a block device, so no blocks were read back (read the disk's"
		    " block device to see what it holds now)\n", path);
		err = ENOTBLK;
		goto out;
	}
	if (fd < 0 || fstat(fd, &st) || ioctl(fd, BLKGETSIZE64, &size) ||
	    ioctl(fd, BLKSSZGET, &lbs) || lbs < 512 || size < (unsigned long long)lbs ||
	    posix_memalign(&buf, 4096, (size_t)lbs)) {
		err = fd < 0 ? errno : EINVAL;
		complain(" after the erase: %s %s, so its blocks were not read back\n", path,
			 fd < 0 ? "could not be opened" : "is not a block device of known size");
		goto out;
	}
	for (unsigned int i = 0; i < ERASE_SAMPLE_BLOCKS; i++) {
		uint64_t lba = erase_sample_lba(i, ERASE_SAMPLE_BLOCKS, size / (unsigned int)lbs);
		ssize_t got = pread(fd, buf, (size_t)lbs, (off_t)(lba * (unsigned int)lbs));
		enum erase_block b;

		if (got != lbs) {
			err = got < 0 ? errno : EIO;
			complain(" after the erase: reading block %llu of %s failed: %s\n", (unsigned long long)lba, path,
				 got < 0 ? strerror(err) : "short read");
			goto out;
		}
		if (i == 0 && learn_pattern)
			*pattern = get_be32(buf);
		b = erase_classify(buf, (size_t)lbs, *pattern, have_pattern);
		sm->counts[b]++;
		if (b == ERASED_OTHER && !sm->any_other) {
			sm->any_other = true;
			sm->first_other = lba;
		}
	}
out:
	free(buf);
	if (fd >= 0)
		close(fd);
	return err;
}

int erase_check(struct device *dev, enum erase_kind kind, uint32_t pattern)
{
	struct sample sm = { { 0 }, 0, false };
	const unsigned int n = ERASE_SAMPLE_BLOCKS;
	const char *verdict;
	bool some = kind == ERASE_TO_SOME_PATTERN;
	int err = read_sample(dev->path, &sm, &pattern, kind == ERASE_TO_PATTERN || some, some);

	if (err) {
		json_object_begin("erase_check");
		json_uint("blocks", 0);
		json_string("verdict", "not_read");
		json_object_end();
		return err;
	}
	if (sm.counts[ERASED_ZEROS] == n) {
		verdict = "zeros";
		out("after the erase: all %u blocks sampled over the disk read as zeros\n", n);
	} else if (sm.counts[ERASED_PATTERN] == n) {
		verdict = "pattern";
		out("after the erase: all %u blocks sampled over the disk read as the pattern 0x%08x\n", n, pattern);
	} else if (sm.counts[ERASED_OTHER] == n && kind == ERASE_CRYPTO) {
		verdict = "not_zeros";
		out("after the erase: the %u blocks sampled over the disk are not zeros, as expected of a cryptographic erase\n", n);
	} else if (sm.counts[ERASED_OTHER] == n && kind == ERASE_TO_SOME_PATTERN) {
		verdict = "not_zeros";
		out("after the erase: none of the %u blocks sampled over the disk reads as zeros or as one repeated pattern"
		    " (as after a cryptographic erase)\n", n);
	} else {
		verdict = "mixed";
		out("after the erase: of %u blocks sampled over the disk, %u read as zeros, %u as the pattern and %u as other data"
		    " (the first at LBA %llu)\n",
		    n, sm.counts[ERASED_ZEROS], sm.counts[ERASED_PATTERN], sm.counts[ERASED_OTHER],
		    (unsigned long long)sm.first_other);
	}
	if (json_active()) {
		json_object_begin("erase_check");
		json_uint("blocks", n);
		json_uint("zeros", sm.counts[ERASED_ZEROS]);
		json_uint("pattern", sm.counts[ERASED_PATTERN]);
		json_uint("other", sm.counts[ERASED_OTHER]);
		json_string("verdict", verdict);
		json_object_end();
	}
	return 0;
}
