/* --scan-repair's counts of the drive (scan_counts.h): the kind of disk picked by its table of commands. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "json.h"
#include "report.h"
#include "scan_counts.h"

#define LOOP_MAJOR_NUMBER 7

/* A device that is no drive, and would take a drive's command for something else (or fail it): what it is, or NULL. */
static const char *not_a_drive(const struct device *dev)
{
	struct stat st;
	char path[96];

	if (fstat(dev->fd, &st) || !S_ISBLK(st.st_mode))
		return NULL;
	if (major(st.st_rdev) == LOOP_MAJOR_NUMBER)
		return "a loop device";
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/dm", major(st.st_rdev), minor(st.st_rdev));
	/* md, zram, nbd and the like: the kind's command fails, and says so. */
	return access(path, F_OK) == 0 ? "a device-mapper device" : NULL;
}

void scan_counts_read(struct device *dev, struct scan_counts *sc)
{
	const char *what = not_a_drive(dev);
	int err;

	memset(sc, 0, sizeof(*sc));
	if (what) {
		snprintf(sc->why, sizeof(sc->why), "%s keeps no drive's counts", what);
		return;
	}
	if (!dev->disk || !dev->disk->error_counts) {
		snprintf(sc->why, sizeof(sc->why), "%s devices give no such counts", dev->disk ? dev->disk->kind : "these");
		return;
	}
	if (!(err = dev->disk->error_counts(dev, &sc->c))) {
		sc->available = true;
		return;
	}
	if (sc->c.cause.what && sc->c.cause.why[0])
		snprintf(sc->why, sizeof(sc->why), "%s failed: %s", sc->c.cause.what, sc->c.cause.why);
	else if (sc->c.cause.why[0])
		snprintf(sc->why, sizeof(sc->why), "%s", sc->c.cause.why);
	else
		snprintf(sc->why, sizeof(sc->why), "%s failed: %s", sc->c.cause.what ? sc->c.cause.what : "the command",
			 strerror(err));
}

void scan_counts_text(const char *when, const struct scan_counts *sc)
{
	if (!sc->available) {
		out(" drive's counts %s: not available: %s\n", when, sc->why);
		return;
	}
	out(" drive's counts %s (%s):", when, sc->c.source);
	for (unsigned int i = 0; i < sc->c.n; i++)
		out("%s %s %llu", i ? "," : "", sc->c.c[i].label, (unsigned long long)sc->c.c[i].value);
	out("\n");
}

void scan_counts_json(const char *key, const struct scan_counts *sc)
{
	json_object_begin(key);
	json_bool("available", sc->available);
	if (sc->available) {
		json_string("source", sc->c.source);
		for (unsigned int i = 0; i < sc->c.n; i++)
			json_uint(sc->c.c[i].key, sc->c.c[i].value);
	} else
		json_string("reason", sc->why);
	json_object_end();
}
