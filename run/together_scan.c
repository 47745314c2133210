/*
 * Many disks scanned at once (--surface-scan DEV1 DEV2 ...): one status
 * line for them all on a terminal, not one per disk.  Each disk's process
 * relays its scan's own line ("scan: 12.5% done, LBA 8192, 180 MB/s,
 * 0:01:10 left, 0 unreadable"); this process keeps the last of each and
 * draws "scan of 3 disks: 12.5-40.0% done, 540 MB/s, 0:01:10 left, 0
 * unreadable" (short enough for 80 columns): the least and most done, the
 * rates added, the slowest disk's time left, the unreadable sectors of all.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "together_parts.h"

/* p past the text want, or NULL where it does not follow (or p is NULL). */
static const char *expect(const char *p, const char *want)
{
	size_t n = strlen(want);

	return p && strncmp(p, want, n) == 0 ? p + n : NULL;
}

/* A number at p into *v, p past it; NULL where none is there. */
static const char *number(const char *p, double *v)
{
	char *end;

	if (!p || !isdigit((unsigned char)*p))
		return NULL;
	*v = strtod(p, &end);
	return end;
}

void scan_status_take(struct scan_seen *seen, const char *text)
{
	struct scan_seen now = { .seen = true };
	const char *p = strstr(text, ": ");
	double lba, h, mi, s, bad;

	/* The scan's own word before the colon ("scan", or another pass's): any. */
	p = number(expect(p, ": "), &now.share);
	p = number(expect(p, "% done, LBA "), &lba);
	p = number(expect(p, ", "), &now.rate);
	p = number(expect(p, " MB/s, "), &h);
	p = number(expect(p, ":"), &mi);
	p = number(expect(p, ":"), &s);
	p = number(expect(p, " left, "), &bad);
	if (!expect(p, " unreadable"))
		return;
	now.left = (unsigned long)(h * 3600 + mi * 60 + s);
	now.bad = (size_t)bad;
	*seen = now;
}

void scan_line(const struct member *m, int n, char *line, size_t size)
{
	double least = 100, most = 0, rate = 0;
	unsigned long left = 0;
	size_t bad = 0;
	int scanned = 0;

	for (int i = 0; i < n; i++) {
		/* A disk still in its checks has read nothing; one whose scan ended, all it will. */
		double share = m[i].stage == RUNNING ? m[i].scan.share : m[i].stage == ENDED ? 100 : 0;

		bad += m[i].scan.bad;
		/* One refused, or whose process died, is scanned no further: it holds no share back. */
		if (m[i].stage != CHECKING && m[i].stage != READY && m[i].stage != RUNNING && m[i].stage != ENDED)
			continue;
		scanned++;
		least = share < least ? share : least;
		most = share > most ? share : most;
		if (m[i].stage == RUNNING) {
			rate += m[i].scan.rate;
			left = m[i].scan.left > left ? m[i].scan.left : left;
		}
	}
	if (!scanned)
		least = most = 0;
	if (most - least < 0.05)
		snprintf(line, size, "scan of %d disk%s: %.1f%% done, %.0f MB/s, %lu:%02lu:%02lu left, %zu unreadable",
			 scanned, scanned == 1 ? "" : "s", least, rate, left / 3600, left / 60 % 60, left % 60, bad);
	else
		snprintf(line, size, "scan of %d disk%s: %.1f-%.1f%% done, %.0f MB/s, %lu:%02lu:%02lu left, %zu"
			 " unreadable", scanned, scanned == 1 ? "" : "s", least, most, rate, left / 3600, left / 60 % 60, left % 60, bad);
}
