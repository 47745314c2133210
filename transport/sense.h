/*
 * SCSI sense data, normalised once (sg3_utils' model): whatever its
 * format, fixed or descriptor, a sense buffer becomes a key, an ASC and
 * an ASCQ, and the callers decide on those.  Texts for messages.
 */
#ifndef HDPARM_SENSE_H
#define HDPARM_SENSE_H

#include <stdbool.h>
#include <stdint.h>

enum sense_key {
	SENSE_NO_SENSE = 0x0,
	SENSE_RECOVERED_ERROR = 0x1,
	SENSE_NOT_READY = 0x2,
	SENSE_MEDIUM_ERROR = 0x3,
	SENSE_ILLEGAL_REQUEST = 0x5,
	SENSE_UNIT_ATTENTION = 0x6,
	SENSE_ABORTED_COMMAND = 0xb,
};

/* Additional sense codes decided on. */
#define ASC_INVALID_OPCODE 0x20
#define ASC_INVALID_FIELD_IN_CDB 0x24
#define ASC_INVALID_FIELD_IN_PARAMETERS 0x26
#define ASC_LOW_POWER_CONDITION_ON 0x5e
#define ASC_NOT_READY 0x04

#define ASCQ_FORMAT_IN_PROGRESS 0x04	/* with ASC_NOT_READY */
#define ASCQ_SANITIZE_IN_PROGRESS 0x1b	/* with ASC_NOT_READY */
#define ASC_MEDIUM_FORMAT_CORRUPTED 0x31
#define ASCQ_FORMAT_FAILED 0x01	/* with ASC_MEDIUM_FORMAT_CORRUPTED: FORMAT COMMAND FAILED */
#define ASCQ_SANITIZE_FAILED 0x03	/* with ASC_MEDIUM_FORMAT_CORRUPTED */

struct sense {
	bool valid;		/* long enough to hold a sense key */
	bool descriptor;	/* descriptor format (72h/73h), else fixed (70h/71h) */
	uint8_t key, asc, ascq;
	bool has_progress;	/* SENSE KEY SPECIFIC holds a progress indication (SKSV, key NO SENSE or NOT READY) */
	uint16_t progress;	/* ... numerator over 65536 */
};

/*
 * The power condition sense data reports (SPC-4 table 51): a stopped disk
 * (NOT READY, 04h/02h) and LOW POWER CONDITION ON (5Eh) with its ASCQ.
 */
enum sense_power {
	SENSE_POWER_NONE,	/* none reported */
	SENSE_POWER_LOW,	/* 5Eh/00h: a low power condition, which one not said */
	SENSE_POWER_IDLE,
	SENSE_POWER_STANDBY,	/* standby by timer or command, or stopped */
};
enum sense_power sense_power_condition(const struct sense *s);

/* Normalise len bytes of sense data; returns s->valid. */
bool sense_normalise(const uint8_t *buf, unsigned int len, struct sense *s);

/* "illegal request"; never NULL. */
const char *sense_key_text(uint8_t key);

/* "invalid command operation code", or NULL for a code not in the table. */
const char *sense_asc_text(uint8_t asc, uint8_t ascq);

/* "illegal request (invalid command operation code)" into buf; returns buf. */
char *sense_describe(const struct sense *s, char *buf, unsigned int size);

#endif
