/*
 * --fibmap and --fallocate: they work on a file, not a device, and run
 * through the runner like every other option.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/fiemap.h>
#include <linux/fs.h>

#include "largefile.h"
#include "files.h"
#include "partition.h"
#include "sysfs.h"
#include "report.h"

int open_with_stat(const char *path, struct stat *st)
{
	/* O_NONBLOCK: a FIFO opens at once (to be refused as no regular file) instead of waiting for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd == -1 || fstat(fd, st) == -1) {
		int err = errno;

		complain_errno(path);
		if (fd != -1)
			close(fd);
		return -err;
	}
	return fd;
}

int fallocate_file(const struct settings *s)
{
	const struct opt_value *v = &s->v[OPT_FALLOCATE];
	int fd = open(v->str, O_WRONLY | O_CREAT | O_EXCL, 0600);
	int err = 0;

	if (fd == -1) {
		err = errno;
		complain_errno(v->str);
		return err;
	}
	/* The blocks are reserved only once the metadata that says so is on disk. */
	if (fallocate(fd, 0, 0, (off_t)(v->num * 1024)) || fsync(fd))
		err = errno;
	if (close(fd) && !err)
		err = errno;
	if (err) {
		complain("%s: %s\n", v->str, strerror(err));
		/* We made it: a failure leaves nothing behind that a retry would trip over. */
		unlink(v->str);
	}
	return err;
}

static void print_extent(uint64_t offset, uint64_t first_lba, uint64_t sectors, bool mapped)
{
	if (mapped)
		out("%12llu %10llu %10llu %10llu\n", (unsigned long long)offset, (unsigned long long)first_lba,
		       (unsigned long long)(first_lba + sectors - 1), (unsigned long long)sectors);
	else
		out("%12llu %s %10llu\n", (unsigned long long)offset, "      -          -   ", (unsigned long long)sectors);
}

int fibmap_file(const struct settings *s)
{
	const char *path = s->v[OPT_FIBMAP].str;
	unsigned long long start = 0;
	struct fiemap *fm;
	struct stat st = { 0 };
	uint64_t next = 0;
	unsigned int count = 64;
	bool last = false;
	int fd, err = 0;

	fd = open_with_stat(path, &st);
	if (fd < 0)
		return -fd;
	if (!S_ISREG(st.st_mode)) {
		complain("%s: not a regular file\n", path);
		close(fd);
		return EINVAL;
	}
	/* Extents are relative to the filesystem: add where its partition starts. */
	if ((err = partition_start(st.st_dev, -1, path, &start))) {
		close(fd);
		return err;
	}
	out("\n%s:\n filesystem blocksize %lu, begins at LBA %llu; assuming 512 byte sectors.\n", path,
	       (unsigned long)st.st_blksize, start);
	out("%12s %10s %10s %10s\n", "byte_offset", "begin_LBA", "end_LBA", "sectors");

	fm = calloc(1, sizeof(*fm) + count * sizeof(struct fiemap_extent));
	if (!fm) {
		close(fd);
		return ENOMEM;
	}
	while (!last && next < (uint64_t)st.st_size) {
		memset(fm, 0, sizeof(*fm));
		fm->fm_start = next;
		fm->fm_length = FIEMAP_MAX_OFFSET - next;
		fm->fm_flags = FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = count;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) == -1) {
			err = errno;
			complain_errno("ioctl(FIEMAP)");
			break;
		}
		if (fm->fm_mapped_extents == 0)
			break;
		for (unsigned int i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *e = &fm->fm_extents[i];

			if (e->fe_logical > next)	/* a hole */
				print_extent(next, 0, (e->fe_logical - next) / 512, false);
			print_extent(e->fe_logical, start + e->fe_physical / 512, e->fe_length / 512, true);
			next = e->fe_logical + e->fe_length;
			if (e->fe_flags & FIEMAP_EXTENT_LAST)
				last = true;
		}
	}
	if (!err && next < (uint64_t)st.st_size)
		print_extent(next, 0, ((uint64_t)st.st_size - next + 511) / 512, false);
	free(fm);
	close(fd);
	return err;
}
