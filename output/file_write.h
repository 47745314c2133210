/*
 * A file written whole or not at all, synced: what a record or a scrape
 * leaves must survive a crash and never be read half written.
 */
#ifndef HDPARM_FILE_WRITE_H
#define HDPARM_FILE_WRITE_H

#include <stddef.h>

/* len bytes of text through fd, then blanks up to pad bytes; synced; fd closed.  0 or an errno. */
int file_fill(int fd, const char *text, size_t len, size_t pad);

/* fsync of the folder that holds path, so that a file made or renamed there stays. */
void file_sync_folder(const char *path);

/*
 * text at path, whole or not at all: a temporary file beside it (path's
 * name and ".XXXXXX", mode 0644), filled as file_fill does, renamed over
 * path, the folder synced.  0 or an errno; nothing is left on failure.
 */
int file_write_whole(const char *path, const char *text, size_t len, size_t pad);

#endif
