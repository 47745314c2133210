/* --fibmap and --fallocate: they work on a file, not a device. */
#ifndef HDPARM_FILES_H
#define HDPARM_FILES_H

#include <sys/stat.h>

#include "values.h"

/* 0 or an errno value. */
int fallocate_file(const struct settings *s);
int fibmap_file(const struct settings *s);

/* path opened for reading (O_NONBLOCK), and its stat into *st: the descriptor, or -errno (said on stderr). */
int open_with_stat(const char *path, struct stat *st);

#endif
