/*
 * What a block reads as after an erase, and its fingerprint: the pieces
 * that the sample around an erase (erasecheck.c) and the full read-back
 * (erase_verify.c) both hold blocks against.
 */
#ifndef HDPARM_ERASE_BLOCKS_H
#define HDPARM_ERASE_BLOCKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define ERASE_SAMPLE_BLOCKS 64

/* What one block read as. */
enum erase_block { ERASED_ZEROS, ERASED_PATTERN, ERASED_OTHER };

/* The block's bytes: all zero, the 32-bit pattern repeated (either byte order), or other. */
enum erase_block erase_classify(const uint8_t *block, size_t bytes, uint32_t pattern, bool have_pattern);

/* The LBA of sample i (0..n-1) of n over a disk of blocks blocks: first, last, evenly between. */
uint64_t erase_sample_lba(unsigned int i, unsigned int n, uint64_t blocks);

/* A block's fingerprint (64-bit FNV-1a), to tell whether it changed. */
uint64_t erase_block_hash(const uint8_t *block, size_t bytes);

/* One disk's sample before the erase. */
struct erase_before {
	dev_t devnum;
	unsigned int blocks;	/* blocks read: 0 when none could be */
	uint64_t lba[ERASE_SAMPLE_BLOCKS];
	uint64_t hash[ERASE_SAMPLE_BLOCKS];
};

#endif
