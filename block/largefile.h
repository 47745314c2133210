/*
 * Offsets into disks and files are 64 bits on every system: on 32-bit
 * glibc off_t is 32 bits unless _FILE_OFFSET_BITS=64 (the Makefile sets
 * it), and then --fibmap fails past 2 GiB and -t --offset reads the wrong
 * place.  A build without it stops here instead of narrowing them.
 */
#ifndef HDPARM_LARGEFILE_H
#define HDPARM_LARGEFILE_H

#include <sys/types.h>

_Static_assert(sizeof(off_t) == 8, "off_t must be 64 bits: build with -D_FILE_OFFSET_BITS=64");

#endif
