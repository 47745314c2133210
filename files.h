/* --fibmap and --fallocate: they work on a file, not a device. */
#ifndef HDPARM_FILES_H
#define HDPARM_FILES_H

#include "options.h"

/* 0 or an errno value. */
int fallocate_file(const struct settings *s);
int fibmap_file(const struct settings *s);

#endif
