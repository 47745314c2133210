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

/*
 * "INODE+OFFSET/GENERATION" of the file behind fd's loop device into
 * buf (without "/GENERATION" where path, the file's path as the loop device
 * names it, is not that file or its file system keeps none); false where fd
 * is no loop device (or a part of one).  Not its file system's device
 * number, which a file system mounted again (FUSE, NFS) changes.
 */
bool loop_backing_inode(int fd, const char *path, char *buf, size_t size);

#endif
