/*
 * Files written whole: the text and its padding, synced, through a
 * temporary file renamed over the name (rename() replaces a file on every
 * file system, FAT and exFAT too, where link() is refused).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_write.h"

static int write_all(int fd, const char *text, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, text + done, len - done);

		if (n < 0 && errno != EINTR)
			return errno;
		if (n > 0)
			done += (size_t)n;
	}
	return 0;
}

int file_fill(int fd, const char *text, size_t len, size_t pad)
{
	static const char blanks[256] = { [0 ... 255] = ' ' };
	int err = write_all(fd, text, len);

	for (size_t at = len; !err && at < pad; at += sizeof(blanks))
		err = write_all(fd, blanks, pad - at < sizeof(blanks) ? pad - at : sizeof(blanks));
	if (!err && fsync(fd))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	return err;
}

void file_sync_folder(const char *path)
{
	char folder[4096];
	int dir;

	snprintf(folder, sizeof(folder), "%s", path);
	dir = open(dirname(folder), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir >= 0) {
		fsync(dir);
		close(dir);
	}
}

int file_write_whole(const char *path, const char *text, size_t len, size_t pad)
{
	char tmp[4096];
	int fd, err;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return errno;
	if (fchmod(fd, 0644)) {
		err = errno;
		close(fd);
	} else
		err = file_fill(fd, text, len, pad);
	/* rename() replaces a file on every file system, FAT and exFAT too (link() is refused there). */
	if (!err && rename(tmp, path))
		err = errno;
	if (err) {
		unlink(tmp);
		return err;
	}
	file_sync_folder(path);
	return 0;
}
