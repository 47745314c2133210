/*
 * A path as a line of text shows it: where it holds a control byte (a
 * newline, a tab, ESC: a folder's name may), it is quoted the way bash's
 * printf %q does, $'...', so that the line cannot be read two ways and
 * the path can be pasted back into a shell.  Any other path is shown as
 * it is, as before.
 */
#ifndef HDPARM_PATH_TEXT_H
#define HDPARM_PATH_TEXT_H

#include <stddef.h>

/* path as text, in buf of size bytes (cut short where it does not fit); returns buf. */
const char *path_text(const char *path, char *buf, size_t size);

#endif
