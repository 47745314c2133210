/*
 * --metrics: samples gathered disk by disk, rendered once in Prometheus's
 * text exposition format (0.0.4), each family's HELP and TYPE once and its
 * samples together, whatever order the disks gave them in.
 */
#ifndef HDPARM_PROM_H
#define HDPARM_PROM_H

#include <stddef.h>

struct prom;

/* An empty set of families; NULL where memory ran out. */
struct prom *prom_new(void);
void prom_free(struct prom *p);

/*
 * A gauge sample of family name (its help said once, the first time).
 * labels: "NAME", "VALUE" pairs, NULL-ended; each value escaped as the
 * format wants.  Returns 0, or ENOMEM.
 */
int prom_gauge(struct prom *p, const char *name, const char *help, double value, ...) __attribute__((sentinel));

/* The same, of a counter (its name ends in _total). */
int prom_counter(struct prom *p, const char *name, const char *help, double value, ...) __attribute__((sentinel));

/* from's samples added to into's (one disk's, gathered apart until it answered); 0 or ENOMEM. */
int prom_merge(struct prom *into, const struct prom *from);

/*
 * p's families, each "NAMELEN HELPLEN SAMPLESLEN TYPE\n" and then those
 * bytes, malloc'd (*len its length), for prom_take(): how a disk asked in
 * a process of its own hands its samples over.  NULL where memory ran out
 * or p failed.
 */
char *prom_pack(const struct prom *p, size_t *len);

/* The families packed in buf (len bytes) added to into's; 0, ENOMEM, or EINVAL where buf is not whole. */
int prom_take(struct prom *into, const char *buf, size_t len);

/* The exposition text, NUL-ended and malloc'd (*len without the NUL); NULL where memory ran out. */
char *prom_render(const struct prom *p, size_t *len);

#endif
