/*
 * The PSID revert's method calls.  The UIDs are the Core Specification's
 * (Session Manager, its methods) and the Opal SSC's (Admin SP, PSID
 * authority, Revert); the parameter numbers those of StartSession
 * (Core 5.2.3.1: HostChallenge 0, HostSigningAuthority 3).
 */
#include <string.h>

#include "tcg_methods.h"

static const uint8_t smuid[TCG_UID_BYTES] = { 0, 0, 0, 0, 0, 0, 0, 0xff };
static const uint8_t properties[TCG_UID_BYTES] = { 0, 0, 0, 0, 0, 0, 0xff, 0x01 };
static const uint8_t start_session[TCG_UID_BYTES] = { 0, 0, 0, 0, 0, 0, 0xff, 0x02 };
static const uint8_t sync_session[TCG_UID_BYTES] = { 0, 0, 0, 0, 0, 0, 0xff, 0x03 };
static const uint8_t admin_sp[TCG_UID_BYTES] = { 0, 0, 0x02, 0x05, 0, 0, 0, 0x01 };
static const uint8_t psid_authority[TCG_UID_BYTES] = { 0, 0, 0, 0x09, 0, 0x01, 0xff, 0x01 };
static const uint8_t revert[TCG_UID_BYTES] = { 0, 0, 0, 0x06, 0, 0, 0x02, 0x02 };

enum { HOST_CHALLENGE = 0, HOST_SIGNING_AUTHORITY = 3 };

/* name = value, a property of the host's. */
static void put_property(struct tcg_writer *w, const char *name, uint64_t value)
{
	tcg_put_token(w, TCG_START_NAME);
	tcg_put_bytes(w, (const uint8_t *)name, strlen(name));
	tcg_put_uint(w, value);
	tcg_put_token(w, TCG_END_NAME);
}

void tcg_write_properties(struct tcg_writer *w)
{
	/* Core 3.3.10.3.1 (tables 168, 169): what every TPer must accept, no more. */
	static const struct {
		const char *name;
		uint64_t value;
	} host[] = {
		{ "MaxComPacketSize", TCG_HOST_MAX_COMPACKET },
		{ "MaxPacketSize", TCG_HOST_MAX_COMPACKET - TCG_COMPACKET_HEADER },
		{ "MaxIndTokenSize", TCG_HOST_MAX_COMPACKET - TCG_HEADERS },
		{ "MaxPackets", 1 },
		{ "MaxSubpackets", 1 },
		{ "MaxMethods", 1 },
	};

	tcg_call_begin(w, smuid, properties);
	tcg_put_token(w, TCG_START_NAME);
	tcg_put_uint(w, 0);	/* HostProperties */
	tcg_put_token(w, TCG_START_LIST);
	for (size_t i = 0; i < sizeof(host) / sizeof(host[0]); i++)
		put_property(w, host[i].name, host[i].value);
	tcg_put_token(w, TCG_END_LIST);
	tcg_put_token(w, TCG_END_NAME);
	tcg_call_end(w);
}

void tcg_write_start_session_psid(struct tcg_writer *w, uint32_t host_session, const char *psid, size_t psid_len)
{
	tcg_call_begin(w, smuid, start_session);
	tcg_put_uint(w, host_session);
	tcg_put_uid(w, admin_sp);
	tcg_put_uint(w, 1);	/* Write */
	tcg_put_token(w, TCG_START_NAME);
	tcg_put_uint(w, HOST_CHALLENGE);
	tcg_put_bytes(w, (const uint8_t *)psid, psid_len);
	tcg_put_token(w, TCG_END_NAME);
	tcg_put_token(w, TCG_START_NAME);
	tcg_put_uint(w, HOST_SIGNING_AUTHORITY);
	tcg_put_uid(w, psid_authority);
	tcg_put_token(w, TCG_END_NAME);
	tcg_call_end(w);
}

void tcg_write_revert_admin_sp(struct tcg_writer *w)
{
	tcg_call_begin(w, admin_sp, revert);
	tcg_call_end(w);
}

void tcg_write_end_session(struct tcg_writer *w)
{
	tcg_put_token(w, TCG_END_OF_SESSION);
}

static bool is_uid(const struct tcg_item *it, const uint8_t uid[TCG_UID_BYTES])
{
	return it->kind == TCG_ITEM_ATOM && it->bytes && it->n == TCG_UID_BYTES && memcmp(it->data, uid, TCG_UID_BYTES) == 0;
}

static bool is_control(const struct tcg_item *it, uint8_t token)
{
	return it->kind == TCG_ITEM_CONTROL && it->control == token;
}

static bool is_uint32(const struct tcg_item *it)
{
	return it->kind == TCG_ITEM_ATOM && !it->bytes && it->value <= UINT32_MAX;
}

bool tcg_read_sync_session(const uint8_t *data, size_t len, uint32_t *host_session, uint32_t *tper_session)
{
	/* Core 5.2.3.2: CALL SMUID SyncSession [ HostSessionID SPSessionID ... ] */
	struct tcg_item it[6];
	size_t pos = 0;

	for (int i = 0; i < 6; i++)
		if (!tcg_next(data, len, &pos, &it[i]))
			return false;
	if (!is_control(&it[0], TCG_CALL) || !is_uid(&it[1], smuid) || !is_uid(&it[2], sync_session) ||
	    !is_control(&it[3], TCG_START_LIST) || !is_uint32(&it[4]) || !is_uint32(&it[5]))
		return false;
	*host_session = (uint32_t)it[4].value;
	*tper_session = (uint32_t)it[5].value;
	return true;
}
