/*
 * The method calls of a PSID revert (Core Specification 2.01 5.2 and 5.3,
 * Opal SSC 2.01 5.1.3 and 4.3.1), written as token streams, and the
 * answer that carries a session's numbers (SyncSession) read back.  Pure
 * functions of bytes: what is sent, and when, is the caller's.
 */
#ifndef HDPARM_TCG_METHODS_H
#define HDPARM_TCG_METHODS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tcg_session.h"

/* The longest PIN a C_PIN table holds (Opal SSC 2.01 4.3.5.2: max_bytes_32): a PSID longer is no PSID. */
#define TCG_PIN_MAX 32
/* The ComPacket sizes the host announces with Properties: the Core Specification's minimum, as sedutil sends them. */
#define TCG_HOST_MAX_COMPACKET 2048

/* Session Manager's Properties, with the host's properties. */
void tcg_write_properties(struct tcg_writer *w);
/* StartSession to the Admin SP, for writing, as the PSID authority with the PSID as its challenge. */
void tcg_write_start_session_psid(struct tcg_writer *w, uint32_t host_session, const char *psid, size_t psid_len);
/* Revert on the Admin SP (in a session the PSID authority opened). */
void tcg_write_revert_admin_sp(struct tcg_writer *w);
/* The end of a session: the END OF SESSION token alone. */
void tcg_write_end_session(struct tcg_writer *w);

/*
 * A Session Manager answer of len bytes: SyncSession's host and TPer
 * session numbers; false where it is not SyncSession or its parameters
 * are not two integers.
 */
bool tcg_read_sync_session(const uint8_t *data, size_t len, uint32_t *host_session, uint32_t *tper_session);

#endif
