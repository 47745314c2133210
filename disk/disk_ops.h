/*
 * The interface each kind of disk fills (ata/, nvme/, scsi/): one table of
 * functions a device is given by run/disk.c.  They send and read, and
 * print nothing; a failure comes back as a disk_cause (disk_facts.h).
 */
#ifndef HDPARM_DISK_OPS_H
#define HDPARM_DISK_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "condition_facts.h"
#include "disk_facts.h"
#include "erase_facts.h"
#include "reach.h"
#include "sector_range.h"

struct device;

/*
 * Those commands, each done the natural way for one transport (ATA, NVMe,
 * SCSI).  Chosen once per device (disk.c); a command calls through
 * dev->disk and never asks which transport it is on: the operations of
 * every disk (ops/any_disk, ops/erase, and the helpers in ops/) ask for a
 * function or a fact, and make lint holds them to it (tests/layers.sh);
 * what is ATA's alone is in ops/ata, or its step row says ATA.  A NULL
 * entry: the disk has no such command, and the option is refused.
 */
struct disk_ops {
	const char *kind;	/* "ATA", "NVMe", "SCSI": for messages */
	bool ata;		/* ATA commands (SET FEATURES, security, ...) reach the drive */
	bool scsi;		/* a SCSI disk without ATA pass-through */
	/* --read-sector: the geometry, and one sector read into buf (bytes long); nothing said. */
	int (*geometry)(struct device *dev, struct disk_geometry *g, struct disk_cause *c);
	int (*sector_read)(struct device *dev, uint64_t lba, void *buf, unsigned int bytes, struct disk_cause *c);
	/*
	 * --scan-verify: sectors at lba checked by the disk itself, no data sent (NULL: no such command); 0, ENODATA
	 * (a medium error among them), EOPNOTSUPP (the disk or its bridge has no such command: *c's why says so,
	 * after the path), or another errno (no answer: timed out, gone); nothing said.  Before the first, the
	 * check (NULL: nothing to ask) says whether the disk reports having the command.
	 */
	int (*media_verify_check)(struct device *dev, struct disk_cause *c);
	int (*media_verify)(struct device *dev, uint64_t lba, uint32_t sectors, struct disk_cause *c);
	/* TRIM: the limits (EOPNOTSUPP with l->none: the disk has none), and one command's ranges sent; nothing said. */
	int (*trim_limits)(struct device *dev, struct trim_limits *l, struct disk_cause *c);
	int (*trim_send)(struct device *dev, const struct sector_range *pieces, unsigned int n, struct disk_cause *c);
	/*
	 * -I, -i, --Istdout, --Iraw: the pages read for a form (nothing said,
	 * but a lesser read that failed may leave *c set), shown by
	 * the kind's decoder (0, or EINVAL for a page it cannot decode), the page
	 * as the drive sent it (false: none, as on SCSI), and freed.
	 */
	int (*pages_read)(struct device *dev, enum pages_form form, struct disk_pages **p, struct disk_cause *c);
	int (*pages_show)(const struct disk_pages *p, enum pages_form form);
	bool (*pages_raw)(const struct disk_pages *p, const void **bytes, size_t *len, const char **name);
	void (*pages_free)(struct disk_pages *p);
	/* Why ATA commands cannot reach it, said after its path ("is a SCSI disk without ATA pass-through"); NULL: not said. */
	const char *no_ata;
	/* An ATA drive's IDENTIFY page, read once (the settings it reports: APM, AAM, ...); NULL with *err where it failed. */
	const uint16_t *(*identify_page)(struct device *dev, int *err);
	/*
	 * TRIM over USB: whether the disk behind a bridge takes a discard, by its own word (NULL: the kind
	 * keeps none, or, for an ATA drive, identify_page's word 169 says it); 0 or an errno with d->cause,
	 * nothing said.
	 */
	int (*discard_support)(struct device *dev, struct disk_discard *d);
	/* -W and -A, queried (a state, which may come with a cause and an errno) and set; nothing said. */
	int (*cache_get)(struct device *dev, enum disk_cache which, enum disk_cache_state *st, struct disk_cause *c);
	int (*cache_set)(struct device *dev, enum disk_cache which, bool on, struct disk_cause *c);
	bool lookahead;		/* the disk has a read look-ahead for -A */
	/* -F: the drive's write cache out to the medium; nothing said. */
	int (*flush)(struct device *dev, struct disk_cause *c);
	/* Write the drive's cache out before a timing; nothing said, whatever happens (may be NULL). */
	void (*flush_quietly)(struct device *dev);
	/* After an erase option this disk has no command for: which options do erase it, and what it supports ("": nothing to say). */
	void (*erase_choices)(struct device *dev, char *text, size_t size);
	/* A power option this disk has no command for: how its power is managed instead. */
	void (*power_managed)(struct device *dev, char *text, size_t size);
	/*
	 * --sanitize-block-erase, -crypto-scramble, -overwrite, -exit-failure-mode:
	 * refused before anything is sent where the disk cannot (EOPNOTSUPP, *c
	 * saying why), then started; nothing said.
	 */
	int (*sanitize_check)(struct device *dev, struct sanitize_request *r, struct disk_cause *c);
	int (*sanitize_start)(struct device *dev, const struct sanitize_request *r, struct disk_cause *c);
	/* --format-erase: refused before anything is sent where the disk cannot, then the format; nothing said. */
	int (*format_check)(struct device *dev, struct format_request *r, struct disk_cause *c);
	int (*format_start)(struct device *dev, const struct format_request *r, struct disk_cause *c);
	/* --sanitize-status (after sanitize_check of SANITIZE_STATUS): the state, with the lines it has; nothing said. */
	int (*sanitize_status)(struct device *dev, struct sanitize_poll *p);
	/* --sanitize-wait: where the sanitize stands now; nothing said. */
	int (*sanitize_poll)(struct device *dev, struct sanitize_poll *p);
	/* -C: the power mode and what goes with it; 0 or an errno, nothing said. */
	int (*power_mode)(struct device *dev, struct disk_power_mode *m);
	/* The power state by a command that does not wake the disk; 0 or an errno, nothing said. */
	int (*power_state)(struct device *dev, enum disk_power *state);
	/*
	 * -y: the standby chosen (NULL: the disk has one; EOPNOTSUPP with *c: none
	 * to be had), then entered: t from standby_target, or NULL for the disk's
	 * own choice (the idle watcher); nothing said.
	 */
	int (*standby_target)(struct device *dev, struct disk_standby *t, struct disk_cause *c);
	int (*standby_now)(struct device *dev, const struct disk_standby *t, struct disk_cause *c);
	/* -Y: asleep (a SCSI disk: stopped) now, and in advice what to know after it ("": nothing); nothing said. */
	int (*sleep_now)(struct device *dev, struct disk_cause *c, char *advice, size_t size);
	/* -S: the standby timer, in ATA's encoding of it (standby.h) and in seconds (-1: none); nothing said. */
	int (*standby_timer)(struct device *dev, unsigned int value, long seconds, struct disk_cause *c);
	/* The temperature (-H), by whatever the disk keeps it in; 0 or an errno, nothing said. */
	int (*temperature)(struct device *dev, struct disk_temperature *t);
	/* --power-on-hours: the powered-on time the disk counts; 0 or an errno, nothing said. */
	int (*power_on)(struct device *dev, struct disk_power_on *p);
	/* --scan-repair: the drive's counts of unreadable and replaced sectors; 0 or an errno, nothing said. */
	int (*error_counts)(struct device *dev, struct disk_error_counts *c);
	/*
	 * --condition: what the disk keeps of its condition, into *d (zeroed by the caller): every
	 * source it has, each value marked read or unreadable (condition_facts.h).  0 where anything was
	 * read (a source missing or failing is left COND_NOT_READ, or noted unreadable); an errno with
	 * *c where nothing could be (NULL: the kind reads none); nothing said.
	 */
	int (*condition_read)(struct device *dev, struct disk_condition *d, struct disk_cause *c);
	/*
	 * --self-test: start the drive's own test (or abort the one running); 0 or an errno with *c, nothing
	 * said.  self_test_progress: whether one runs now and, where the disk says, its per cent done (-1: not
	 * said).  The end is read from the log by condition_read.  NULL: the kind has no self-test.
	 */
	int (*self_test_start)(struct device *dev, enum disk_self_test what, struct disk_cause *c);
	int (*self_test_progress)(struct device *dev, bool *running, int *percent_done, struct disk_cause *c);
	/* Its queries of what the disk records (-H, --power-on-hours) never wake it (NVMe's admin commands): no power check first. */
	bool queries_wake_nothing;
	/* --erc: the error recovery time limits (NULL: the disk has none); 0 or an errno, nothing said. */
	int (*erc_get)(struct device *dev, struct disk_erc *e);
	/* --erc READ,WRITE: set them (e's read_ds and write_ds); 0 or an errno with e->cause, nothing said. */
	int (*erc_set)(struct device *dev, struct disk_erc *e);
	/* --epc: the power conditions (EOPNOTSUPP with a cause: none); 0 or an errno, nothing said. */
	int (*epc_read)(struct device *dev, struct disk_epc *e);
	/* The time in tenths the disk will count for tenths (rounded as it counts); 0: more than it can count. */
	uint64_t (*epc_counts)(uint64_t tenths);
	/* One change of the power conditions, allowed by what epc_read said; 0 or an errno with *c, nothing said. */
	int (*epc_change)(struct device *dev, const struct disk_epc_change *ch, struct disk_cause *c);
	/* --background-scan: the background medium scan, read and switched (NULL: none); nothing said. */
	int (*background_scan_get)(struct device *dev, struct disk_background_scan *b);
	int (*background_scan_set)(struct device *dev, bool on, bool save, struct disk_cause *c);
	/* --set-sector-size: the formats on offer (EOPNOTSUPP with a cause: it cannot format), and a format to f[index] with pi_type; nothing said. */
	int (*block_formats)(struct device *dev, struct disk_block_formats *b);
	int (*block_format_set)(struct device *dev, const struct disk_format_request *r, struct disk_cause *c);
	/* --format-wait: a format block_format_set started, as it stands (NULL: its command ends with it). */
	int (*block_format_poll)(struct device *dev, struct disk_format_poll *p);
	/*
	 * --tcg: IF-RECV of a security protocol and its SP SPECIFIC field into
	 * buf (len a multiple of 512), *got the bytes that came (NULL: the disk
	 * has no such command); 0, or an errno with *c (EOPNOTSUPP: it refuses
	 * the protocol; EACCES: the kernel would not send it), nothing said.
	 */
	int (*security_recv)(struct device *dev, uint8_t protocol, uint16_t sp_specific, uint8_t *buf, size_t len,
			     size_t *got, struct disk_cause *c);
	/* IF-SEND: len bytes of buf (a multiple of 512) to a security protocol; 0 or an errno with *c, nothing said. */
	int (*security_send)(struct device *dev, uint8_t protocol, uint16_t sp_specific, const uint8_t *buf, size_t len,
			     struct disk_cause *c);
	/* Before an erase: what the disk hides from the host (NULL: nothing it can hide); nothing said. */
	int (*hidden_areas)(struct device *dev, struct disk_hidden *h);
	/* Who the disk is (an erase record's device); 0 or an errno with id->cause, nothing said. */
	int (*identity)(struct device *dev, struct disk_identity *id);
	/* How far erase option opt reaches beyond the disk named (NULL: no further); nothing said. */
	enum reach_scope (*erase_scope)(struct device *dev, enum erase_method how);
	/* Its firmware: revision, slots, what a download takes; 0 or an errno with fw->cause, nothing said. */
	int (*firmware)(struct device *dev, struct disk_firmware *fw);
	/*
	 * One piece of an image, len bytes at offset, as fw plans it (the kind may change its plan, to one
	 * that activates the image at once only where now, activation now, was asked); 0 or an errno.
	 */
	int (*firmware_piece)(struct device *dev, struct disk_firmware *fw, const uint8_t *buf, uint32_t len,
			      uint32_t offset, bool now, struct disk_cause *c);
	/* The image downloaded, committed to slot (0: the disk has none) and activated now or at the next reset. */
	enum firmware_commit (*firmware_commit)(struct device *dev, const struct disk_firmware *fw, unsigned int slot,
						bool now, struct disk_cause *c);
	/* The namespace the node names, for what an erase reaches (reach_find()); NULL: the kind has none. */
	uint32_t (*namespace_id)(struct device *dev);
};

#endif
