/*
 * After an erase: what the disk now reads.  A sample of blocks spread over
 * the whole disk (the first, the last and evenly between) is read through
 * the block device with O_DIRECT, and one line says whether they read as
 * zeros, as the overwrite pattern, or as something else.
 */
#ifndef HDPARM_ERASECHECK_H
#define HDPARM_ERASECHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "device.h"

#define ERASE_SAMPLE_BLOCKS 64

/* What one block read as. */
enum erase_block { ERASED_ZEROS, ERASED_PATTERN, ERASED_OTHER };

/* The block's bytes: all zero, the 32-bit pattern repeated (either byte order), or other. */
enum erase_block erase_classify(const uint8_t *block, size_t bytes, uint32_t pattern, bool have_pattern);

/* The LBA of sample i (0..n-1) of n over a disk of blocks blocks: first, last, evenly between. */
uint64_t erase_sample_lba(unsigned int i, unsigned int n, uint64_t blocks);

/* How the erase was done: what the sample is held against. */
enum erase_kind {
	ERASE_TO_ZEROS,		/* block erase, format with user-data erase */
	ERASE_TO_PATTERN,	/* overwrite with the pattern given */
	ERASE_TO_SOME_PATTERN,	/* overwrite with a pattern not known here: the first block's */
	ERASE_CRYPTO,		/* cryptographic erase: anything but the old data */
};

/*
 * Read the sample of dev's disk and print the one-line summary (and the
 * "erase_check" object with --json).  Returns 0, or the errno of a sample
 * that could not be read (said too): the erase itself is not undone.
 */
int erase_check(struct device *dev, enum erase_kind kind, uint32_t pattern);

#endif
