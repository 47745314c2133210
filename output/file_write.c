/*
 * Files written whole: the text and its padding, synced, through a
 * temporary file renamed over the name (rename() replaces a file on every
 * file system, FAT and exFAT too, where link() is refused).  Only a
 * regular file is ever replaced: a name that is a device node, a FIFO, a
 * socket or a symbolic link (/dev/stdout, /dev/null, a link into another
 * folder) is left alone, checked when the option is read and again just
 * before the rename.  SIGINT, SIGTERM and SIGHUP wait while a temporary
 * file exists, so that no signal leaves one behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_write.h"
#include "path_text.h"
#include "report.h"

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

/* The signals that stop hdparm, held (saved: the mask before) while a file is half made. */
static void stops_held(sigset_t *saved)
{
	sigset_t stops;

	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stops, saved);
}

/* What lstat() found at a name, in words; NULL for a regular file or nothing there. */
static const char *kind_of(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return NULL;
	if (S_ISDIR(st->st_mode))
		return "a folder";
	if (S_ISLNK(st->st_mode))
		return "a symbolic link";
	if (S_ISCHR(st->st_mode) || S_ISBLK(st->st_mode))
		return "a device node";
	if (S_ISFIFO(st->st_mode))
		return "a FIFO";
	return S_ISSOCK(st->st_mode) ? "a socket" : "not a regular file";
}

const char *file_refusal(const char *path, bool folder_ok)
{
	struct stat st;
	const char *kind;

	/* Nothing there (or nothing that can be looked at): the write itself says what is wrong. */
	if (lstat(path, &st) != 0 || !(kind = kind_of(&st)))
		return NULL;
	/* A folder, or a link to one, takes a new file of its own: nothing in it is replaced. */
	if (folder_ok && (S_ISDIR(st.st_mode) || (S_ISLNK(st.st_mode) && stat(path, &st) == 0 && S_ISDIR(st.st_mode))))
		return NULL;
	return kind;
}

int file_check_writable(const char *option, const char *path, bool folder_ok)
{
	const char *kind = file_refusal(path, folder_ok);
	char shown[1200];

	if (!kind)
		return 0;
	/* A name with a newline in it said quoted, $'...', on one line. */
	complain("%s %s: %s, not a regular file%s: refused, nothing was sent\n", option,
		 path_text(path, shown, sizeof(shown)), kind, folder_ok ? " or a folder" : "");
	return EINVAL;
}

/* The folder that holds path, looked at, and path's last name; false where the folder cannot be. */
static bool folder_of(const char *path, struct stat *st, const char **name)
{
	const char *slash = strrchr(path, '/');
	char folder[4096];

	*name = slash ? slash + 1 : path;
	if (!slash)
		return stat(".", st) == 0;
	if ((size_t)(slash - path) >= sizeof(folder))
		return false;
	memcpy(folder, path, (size_t)(slash - path));
	folder[slash - path] = '\0';
	return stat(slash == path ? "/" : folder, st) == 0;
}

bool file_same(const char *a, const char *b)
{
	struct stat sa, sb;
	const char *na, *nb;
	bool ea = lstat(a, &sa) == 0, eb = lstat(b, &sb) == 0;

	if (ea || eb)
		return ea && eb && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	return folder_of(a, &sa, &na) && folder_of(b, &sb, &nb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino &&
	       strcmp(na, nb) == 0;
}

const char *file_strerror(int err)
{
	return err == FILE_NOT_REGULAR ? "not a regular file (a device node, FIFO, socket or symbolic link is left alone)"
				       : strerror(err);
}

/* 0 where path is a regular file or nothing; FILE_NOT_REGULAR where a rename would replace something else. */
static int may_replace(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) ? FILE_NOT_REGULAR : 0;
}

int file_write_whole(const char *path, const char *text, size_t len, size_t pad)
{
	char tmp[4096];
	sigset_t saved;
	int fd, err;

	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return ENAMETOOLONG;
	if ((err = may_replace(path)))
		return err;
	stops_held(&saved);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = errno;
		pthread_sigmask(SIG_SETMASK, &saved, NULL);
		return err;
	}
	if (fchmod(fd, 0644)) {
		err = errno;
		close(fd);
	} else
		err = file_fill(fd, text, len, pad);
	/* Again: the name may have become something else while the text was written. */
	if (!err)
		err = may_replace(path);
	/* rename() replaces a file on every file system, FAT and exFAT too (link() is refused there). */
	if (!err && rename(tmp, path))
		err = errno;
	if (err)
		unlink(tmp);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (!err)
		file_sync_folder(path);
	return err;
}

int file_create_new(const char *path, const char *text, size_t len, size_t pad)
{
	sigset_t saved;
	int fd, err;

	stops_held(&saved);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		err = errno;
	else if ((err = file_fill(fd, text, len, pad)))
		unlink(path);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	if (!err)
		file_sync_folder(path);
	return err;
}

int file_write_in_place(const char *path, const char *text, size_t len, size_t pad)
{
	struct stat was, st;
	int fd;

	/*
	 * Looked at before it is opened: opening is itself an act on a device node (a watchdog starts, a
	 * tape rewinds, a disk closed after writing is read again by udev) and wakes a FIFO's reader.
	 */
	if (lstat(path, &was) != 0)
		return errno;
	if (!S_ISREG(was.st_mode))
		return FILE_NOT_REGULAR;
	/* O_NONBLOCK, O_NOFOLLOW: whatever it became since is not waited on, nor followed... */
	fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP || errno == ENXIO ? FILE_NOT_REGULAR : errno;
	/* ... and is written only where it is still the file looked at. */
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_dev != was.st_dev || st.st_ino != was.st_ino) {
		close(fd);
		return FILE_NOT_REGULAR;
	}
	return file_fill(fd, text, len, pad);
}
