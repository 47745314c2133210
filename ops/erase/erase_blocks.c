/* Blocks after an erase: what each reads as, where the sample lies, and fingerprints. */
#include "erase_blocks.h"

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

uint64_t erase_block_hash(const uint8_t *block, size_t bytes)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < bytes; i++)
		h = (h ^ block[i]) * 0x100000001b3ULL;
	return h;
}
