/*
 * mutate SEED < page.hex: print a seeded random mutation of an IDENTIFY
 * page, in the --Istdout format.  Mutations favour the words the decoder
 * reads (flags, capability and feature words), so a few hundred seeds
 * reach most of its branches.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t state;

static uint64_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static const int decoded_words[] = {
	0, 1, 2, 3, 4, 5, 6, 20, 21, 22, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61,
	62, 63, 64, 65, 66, 67, 68, 69, 71, 72, 73, 74, 75, 76, 78, 79, 80, 81, 82, 83, 84, 85, 86,
	87, 88, 89, 90, 91, 92, 93, 94, 100, 101, 102, 103, 105, 106, 108, 109, 110, 111, 116, 117,
	118, 119, 120, 127, 128, 160, 162, 163, 164, 168, 169, 176, 196, 206, 209, 217, 222, 223, 255,
};

static const uint16_t special_values[] = {
	0x0000, 0xffff, 0x4000, 0x8000, 0xc000, 0x0001, 0x0401, 0x0402, 0x00a5, 0x7fff, 0x80ff, 0x00ff,
};

int main(int argc, char **argv)
{
	uint16_t w[256];
	unsigned int v;

	if (argc != 2) {
		fprintf(stderr, "usage: mutate SEED < page.hex\n");
		return 2;
	}
	state = strtoull(argv[1], NULL, 0) * 0x9e3779b97f4a7c15ULL + 1;
	for (int i = 0; i < 256; i++) {
		if (scanf("%4x", &v) != 1) {
			fprintf(stderr, "mutate: short page\n");
			return 1;
		}
		w[i] = (uint16_t)v;
	}
	int changes = 1 + (int)(next() % 6);
	for (int c = 0; c < changes; c++) {
		int word = next() % 100 < 85
				   ? decoded_words[next() % (sizeof(decoded_words) / sizeof(decoded_words[0]))]
				   : (int)(next() % 256);
		unsigned int kind = next() % 100;

		if (kind < 40)
			w[word] ^= (uint16_t)(1u << (next() % 16));
		else if (kind < 55)
			w[word] = special_values[next() % (sizeof(special_values) / sizeof(special_values[0]))];
		else
			w[word] = (uint16_t)next();
	}
	for (int i = 0; i < 256; i += 8)
		printf("%04x %04x %04x %04x %04x %04x %04x %04x\n", w[i], w[i + 1], w[i + 2], w[i + 3],
		       w[i + 4], w[i + 5], w[i + 6], w[i + 7]);
	return 0;
}
