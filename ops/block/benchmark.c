/*
 * Read timings, by hdparm 9.65's method so the figures compare with the
 * ones posted over the years: a locked 2 MiB buffer, -T rereads the same
 * 2 MiB from the page cache for 2 s and takes out the cost of the seeks,
 * -t reads 2 MiB blocks in sequence for 3 s or to the end of the device.
 * Unlike 9.65, the buffer cache is flushed before -t too (so a second run
 * does not time cached data) and a failed read prints no figure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/fs.h>

#include "clock.h"
#include "benchmark.h"
#include "iodepth.h"
#include "largefile.h"
#include "report.h"
#include "tcg_locked.h"

#define TIMING_MB 2
#define TIMING_BYTES (TIMING_MB * 1024 * 1024)

/*
 * The 2 MiB buffer, allocated, faulted in and locked once per run: with
 * -tT 9.65 set up (and waited 3 s for) a buffer per timing.
 */
static char *timing_buffer(void)
{
	static char *buf;

	if (buf)
		return buf;
	buf = mmap(NULL, TIMING_BYTES, PROT_READ | PROT_WRITE, MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
	if (buf == MAP_FAILED) {
		complain_errno("could not allocate timing buf");
		buf = NULL;
		return NULL;
	}
	/* Fault every page in, then pin them: page faults must not be timed. */
	for (size_t i = 0; i < TIMING_BYTES; i += 4096)
		buf[i] = 0;
	if (mlock(buf, TIMING_BYTES)) {
		complain_errno("mlock() failed on timing buf");
		munmap(buf, TIMING_BYTES);
		buf = NULL;
		return NULL;
	}
	sync();
	sleep(3);	/* let I/O started by others settle */
	return buf;
}

/* Drop the device's page cache so the next reads go to the drive. */
static int flush_device_cache(struct device *dev)
{
	sync();
	fsync(dev->fd);
	fdatasync(dev->fd);
	sync();
	if (ioctl(dev->fd, BLKFLSBUF, NULL)) {
		int err = errno;

		complain(" BLKFLSBUF failed: %s\n", strerror(err));
		return err;
	}
	sync();
	return 0;
}

/* One 2 MiB read at the current position; a message naming the offset on failure. */
static int read_block(struct device *dev, char *buf, unsigned long long offset)
{
	ssize_t n = read(dev->fd, buf, TIMING_BYTES);

	if (n == TIMING_BYTES) {
		/* Touch every sector so the read has really landed. */
		for (size_t i = 0; i < TIMING_BYTES; i += 512)
			buf[i] &= 1;
		return 0;
	}
	if (n < 0) {
		int err = errno;

		complain("read() failed at byte offset %llu: %s\n", offset, strerror(err));
		tcg_say_if_locked(dev);
		return err;
	}
	if (n == 0) {
		complain("read() hit EOF at byte offset %llu - device too small\n", offset);
		return EIO;
	}
	/* A short read stops where the error is: read on to get its errno. */
	offset += (unsigned long long)n;
	if (read(dev->fd, buf, TIMING_BYTES - (size_t)n) < 0) {
		int err = errno;

		complain("read() failed at byte offset %llu: %s\n", offset, strerror(err));
		tcg_say_if_locked(dev);
		return err;
	}
	complain("read(%d) returned %zd bytes at byte offset %llu\n", TIMING_BYTES, n, offset - (unsigned long long)n);
	return EIO;
}

static int need_block_device(struct device *dev, const char *what)
{
	struct stat st;

	if (fstat(dev->fd, &st))
		return errno;
	if (!S_ISBLK(st.st_mode)) {
		complain(" %s: not supported on %s: timings need a block device\n", what, dev->path);
		return ENOTBLK;
	}
	return 0;
}

static void print_rate(unsigned int total_mb, double elapsed)
{
	if (total_mb / elapsed > 1.0)
		out("%3u MB in %5.2f seconds = %6.2f MB/sec\n", total_mb, elapsed, total_mb / elapsed);
	else
		out("%3u MB in %5.2f seconds = %6.2f kB/sec\n", total_mb, elapsed, total_mb / elapsed * 1024);
}

int time_cached_reads(struct device *dev, const struct settings *s, enum opt_id opt)
{
	char *buf;
	unsigned int iterations = 0;
	double start, elapsed, seek_cost;
	int err;

	(void)opt;
	err = need_block_device(dev, "-T");
	if (err)
		return err;
	buf = timing_buffer();
	if (!buf)
		return ENOMEM;
	/* Prime the cache with the block the loop will reread. */
	if (lseek(dev->fd, 0, SEEK_SET) || (err = read_block(dev, buf, 0)))
		goto out;
	if ((err = flush_device_cache(dev)))
		goto out;
	sleep(1);
	start = monotonic_seconds();
	do {
		iterations++;
		if (lseek(dev->fd, 0, SEEK_SET)) {
			err = errno;
			complain_errno("lseek() failed");
			goto out;
		}
		if ((err = read_block(dev, buf, 0)))
			goto out;
		elapsed = monotonic_seconds() - start;
	} while (elapsed < 2.0);

	/* Take out what the seeks and clock reads cost. */
	start = monotonic_seconds();
	for (unsigned int i = 0; i < iterations; i++) {
		if (lseek(dev->fd, 0, SEEK_SET)) {
			err = errno;
			complain_errno("lseek() failed");
			goto out;
		}
	}
	seek_cost = monotonic_seconds() - start;
	elapsed -= seek_cost;
	out(" Timing %scached reads:   ", s->v[OPT_DIRECT].given ? "O_DIRECT " : "");
	print_rate(iterations * TIMING_MB, elapsed);
	dev->cached_reads = (struct timing_result){ .valid = true, .mib = iterations * TIMING_MB, .seconds = elapsed,
						    .direct = s->v[OPT_DIRECT].given };
	err = flush_device_cache(dev);
	sleep(1);
out:
	return err;
}

int time_device_reads(struct device *dev, const struct settings *s, enum opt_id opt)
{
	unsigned long long bytes, offset = 0, pos;
	unsigned int max_iterations, iterations = 0;
	double start, elapsed;
	char *buf;
	int err;

	(void)opt;
	if (s->v[OPT_IODEPTH].given)
		return time_iodepth_reads(dev, s);
	err = need_block_device(dev, "-t");
	if (err)
		return err;
	if (ioctl(dev->fd, BLKGETSIZE64, &bytes)) {
		err = errno;
		complain(" BLKGETSIZE failed: %s\n", strerror(err));
		return err;
	}
	if (s->v[OPT_OFFSET].given) {
		offset = s->v[OPT_OFFSET].num << 30;
		if (offset >= bytes) {
			complain(" --offset %llu: beyond the end of the device (%llu bytes)\n",
				(unsigned long long)s->v[OPT_OFFSET].num, bytes);
			return EINVAL;
		}
	}
	max_iterations = (unsigned int)((bytes - offset) / TIMING_BYTES);
	if (max_iterations == 0) {
		complain(" -t: the device is smaller than one %d MB block\n", TIMING_MB);
		return EINVAL;
	}
	buf = timing_buffer();
	if (!buf)
		return ENOMEM;
	if ((err = flush_device_cache(dev)))
		goto out;
	/* Writes still in the drive's cache would compete with the timed reads. */
	if (dev->disk->flush_quietly)
		dev->disk->flush_quietly(dev);
	/* The heading before the reads, as 9.65 prints it: a read that fails leaves it on stdout. */
	out(" Timing %s disk reads", s->v[OPT_DIRECT].given ? "O_DIRECT" : "buffered");
	if (s->v[OPT_OFFSET].given)
		out(" (offset %llu GB)", (unsigned long long)s->v[OPT_OFFSET].num);
	out(": ");
	fflush(stdout);
	if (lseek(dev->fd, (off_t)offset, SEEK_SET) == (off_t)-1) {
		err = errno;
		complain_errno("lseek() failed");
		goto out;
	}
	pos = offset;
	start = monotonic_seconds();
	do {
		iterations++;
		if ((err = read_block(dev, buf, pos)))
			goto out;
		pos += TIMING_BYTES;
		elapsed = monotonic_seconds() - start;
	} while (elapsed < 3.0 && iterations < max_iterations);

	print_rate(iterations * TIMING_MB, elapsed);
	dev->disk_reads = (struct timing_result){ .valid = true, .mib = iterations * TIMING_MB, .seconds = elapsed,
						  .direct = s->v[OPT_DIRECT].given,
						  .has_offset = s->v[OPT_OFFSET].given,
						  .offset_gib = s->v[OPT_OFFSET].num };
out:
	flush_device_cache(dev);
	return err;
}
