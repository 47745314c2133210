/*
 * Many disks scanned at once (--surface-scan DEV1 DEV2 ...): one status
 * line for them all on a terminal, not one per disk.  Each disk's process
 * relays its scan's own line ("scan: 12.5% done, LBA 8192, 180 MB/s,
 * 0:01:10 left, 0 unreadable"); this process keeps the last of each and
 * draws "surface scan of 3 disks: 12.5% to 40.0% done, 540 MB/s, 0:01:10
 * left, 0 unreadable": the least and most done, the rates added, the
 * slowest disk's time left, the unreadable sectors of all.
 */
#include <stdio.h>

#include "together_parts.h"

void scan_status_take(struct scan_seen *seen, const char *text)
{
	struct scan_seen now = { .seen = true };
	unsigned long h, mi, s;

	/* The scan's own word before the colon ("scan", or another pass's): any. */
	if (sscanf(text, "%*[^:]: %lf%% done, LBA %*[0-9], %lf MB/s, %lu:%lu:%lu left, %zu unreadable", &now.share,
		   &now.rate, &h, &mi, &s, &now.bad) != 6)
		return;
	now.left = h * 3600 + mi * 60 + s;
	*seen = now;
}

void scan_line(const struct member *m, int n, char *line, size_t size)
{
	double least = 100, most = 0, rate = 0;
	unsigned long left = 0;
	size_t bad = 0;

	for (int i = 0; i < n; i++) {
		/* A disk still in its checks has read nothing; one whose scan ended, all it will. */
		double share = m[i].stage == RUNNING ? m[i].scan.share : m[i].stage == ENDED ? 100 : 0;

		least = share < least ? share : least;
		most = share > most ? share : most;
		if (m[i].stage == RUNNING) {
			rate += m[i].scan.rate;
			left = m[i].scan.left > left ? m[i].scan.left : left;
		}
		bad += m[i].scan.bad;
	}
	if (most - least < 0.05)
		snprintf(line, size, "surface scan of %d disks: %.1f%% done, %.0f MB/s, %lu:%02lu:%02lu left, %zu unreadable",
			 n, least, rate, left / 3600, left / 60 % 60, left % 60, bad);
	else
		snprintf(line, size, "surface scan of %d disks: %.1f%% to %.1f%% done, %.0f MB/s, %lu:%02lu:%02lu left, %zu"
			 " unreadable", n, least, most, rate, left / 3600, left / 60 % 60, left % 60, bad);
}
