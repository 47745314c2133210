/* ATA transfer mode names and numbers (SET FEATURES 03h, -X and -p). */
#ifndef HDPARM_MODES_H
#define HDPARM_MODES_H

#include <stdbool.h>

/*
 * "udma5" -> 69, "pio4" -> 12, "mdma2" -> 34, "sdma0" -> 16; a plain
 * decimal number is taken as is.  Returns false for anything else.
 */
bool xfermode_parse(const char *text, unsigned int *mode);

/* "UltraDMA mode5" and the like, as -X prints it in parentheses. */
const char *xfermode_describe(unsigned int mode, char *buf, unsigned int size);

#endif
