/*
 * A file written whole or not at all, synced: what a record or a scrape
 * leaves must survive a crash and never be read half written.  Every file
 * hdparm makes or replaces goes through here, and only a regular file is
 * ever replaced.
 */
#ifndef HDPARM_FILE_WRITE_H
#define HDPARM_FILE_WRITE_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * The error of a name that is not a regular file (a device node, a FIFO,
 * a socket, a symbolic link), left alone: an errno that no call on files
 * returns, worded by file_strerror().
 */
#define FILE_NOT_REGULAR ENOTBLK

/* len bytes of text through fd, then blanks up to pad bytes; synced; fd closed.  0 or an errno. */
int file_fill(int fd, const char *text, size_t len, size_t pad);

/* fsync of the folder that holds path, so that a file made or renamed there stays. */
void file_sync_folder(const char *path);

/*
 * Why path may not be written, before anything is done: "a device node",
 * "a FIFO", "a socket", "a symbolic link", "a folder"; NULL where it may
 * (nothing there yet, a regular file, or with folder_ok a folder or a
 * link to one, where a new file of its own is made).
 */
const char *file_refusal(const char *path, bool folder_ok);

/*
 * The same, said on stderr where it refuses ("OPTION PATH: a FIFO, not a
 * regular file: refused, nothing was sent"): EINVAL; else 0.  Called when
 * the option is read, before any disk is opened.
 */
int file_check_writable(const char *option, const char *path, bool folder_ok);

/*
 * Whether paths a and b name one file: the same file where both are there,
 * else the same last name in the same folder ("x", "./x", "d/../x").
 */
bool file_same(const char *a, const char *b);

/* strerror(err), and FILE_NOT_REGULAR's words. */
const char *file_strerror(int err);

/*
 * text at path, whole or not at all: a temporary file beside it (path's
 * name and ".XXXXXX", mode 0644), filled as file_fill does, renamed over
 * path, the folder synced.  0 or an errno (FILE_NOT_REGULAR: path is
 * there and is not a regular file, checked again just before the rename);
 * nothing is left on failure, nor where SIGINT, SIGTERM or SIGHUP come
 * meanwhile: they wait until the temporary file is renamed or removed.
 */
int file_write_whole(const char *path, const char *text, size_t len, size_t pad);

/* A new file at path (EEXIST where the name is taken), filled as file_fill does; the same signals wait. */
int file_create_new(const char *path, const char *text, size_t len, size_t pad);

/*
 * Over path's own bytes (no temporary file: a full file system), a regular
 * file only, looked at before it is opened (nothing else is opened: that
 * acts on a device node and wakes a FIFO's reader); filled as file_fill does.
 */
int file_write_in_place(const char *path, const char *text, size_t len, size_t pad);

#endif
