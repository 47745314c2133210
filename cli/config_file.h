/*
 * /etc/hdparm.conf's syntax, as Debian's hdparm-functions reads it: global
 * lines, then blocks "DEVICE {" ... "}", each line a bare word or
 * "key = value".  What the keys mean is config_keys.h's.
 */
#ifndef HDPARM_CONFIG_FILE_H
#define HDPARM_CONFIG_FILE_H

#include <stdarg.h>
#include <stddef.h>

/* One line of the file that says something. */
struct config_entry {
	const char *key;	/* the word before '=', or the bare word */
	const char *value;	/* after '=' (NULL: a bare word) */
	int block;		/* the block it is in; -1: a global line */
	unsigned int line, key_col, value_col;	/* where, counted from 1 */
};

struct config_block {
	const char *device;	/* as written */
	unsigned int line, col;
	size_t first, count;	/* its entries */
	size_t globals_before;	/* the global entries above it: they apply to it too */
	int command_line;	/* a "command_line {" block: Debian ignores its lines since 9.39 */
};

struct config_file {
	const char *name;	/* as given, for messages */
	char *text;		/* the file, cut into the strings below */
	struct config_entry *entries;
	size_t nentries;
	struct config_block *blocks;
	size_t nblocks;
};

/*
 * Parse text (len bytes, no NUL needed) into *cf, which then owns a copy.
 * 0, or EINVAL with "NAME:LINE:COL: what is wrong" in err; ENOMEM.
 */
int config_parse(const char *name, const char *text, size_t len, struct config_file *cf, char *err, size_t errsize);

/* Read and parse the file; 0, or an errno with the one line in err. */
int config_load(const char *path, struct config_file *cf, char *err, size_t errsize);

void config_free(struct config_file *cf);

/* "NAME:LINE:COL: KEY: " (no key: NULL) and the message into err; returns EINVAL. */
int config_verror(char *err, size_t size, const char *name, unsigned int line, unsigned int col, const char *key,
		  const char *fmt, va_list ap);

#endif
