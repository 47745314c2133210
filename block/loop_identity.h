/*
 * What a loop device (or a partition of one) is made of: the file behind
 * it, named by its file system and inode rather than by its path, so that
 * an image replaced at the same path, or the same image seen at another
 * offset, is another disk.
 */
#ifndef HDPARM_LOOP_IDENTITY_H
#define HDPARM_LOOP_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

/* "MAJ:MIN:INODE+OFFSET" of the file behind fd's loop device into buf; false where fd is no loop device (or a part of one). */
bool loop_backing_inode(int fd, char *buf, size_t size);

#endif
