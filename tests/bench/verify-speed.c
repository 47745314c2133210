/*
 * The benchmark's driver of --erase-verify full (ops/erase/erase_verify.c): every
 * block of DEVICE read and judged as after a cryptographic erase, nothing
 * compared with before.  Prints "MB/s BLOCKS" (MB: 10^6 bytes).
 */
#include <stdio.h>

#include "erase_verify.h"

int main(int argc, char **argv)
{
	struct verify_full v;

	if (argc != 2) {
		fprintf(stderr, "usage: verify-speed DEVICE\n");
		return 2;
	}
	if (erase_verify_full(argv[1], ERASE_CRYPTO, 0, NULL, false, &v))
		return 1;
	printf("%.2f %llu\n", (double)v.read * v.block_bytes / v.seconds / 1e6, (unsigned long long)v.read);
	return 0;
}
