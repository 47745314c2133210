/*
 * What a SCSI disk answers, through every decoder of scsi_pages.c and
 * sense.c.  The input is the answer as it arrived: exactly size bytes, so
 * that a read beyond what came in is a heap overflow the sanitizer sees,
 * whatever lengths the bytes themselves claim.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "scsi_pages.h"
#include "sense.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct scsi_inquiry inq;
	struct scsi_capacity cap;
	struct scsi_identification id;
	struct scsi_block_limits bl;
	struct sense s = { 0 };
	unsigned int rotation, form_factor;
	char serial[96], text[160];
	size_t len = scsi_vpd_length(data, size), offset, page_len;

	if (len > size)
		__builtin_trap();
	scsi_decode_inquiry(data, size, &inq);
	scsi_decode_capacity16(data, size, &cap);
	scsi_decode_capacity10(data, size, &cap);
	scsi_vpd_listed(data, len, size ? data[0] : 0);
	scsi_decode_serial(data, len, serial, sizeof(serial));
	for (const char *p = serial; *p; p++)
		if (*p < 0x20 || *p > 0x7e)	/* escaped, every one */
			__builtin_trap();
	scsi_decode_identification(data, len, &id);
	if (id.count > SCSI_MAX_DESIGNATORS || id.naa_len > sizeof(id.naa))
		__builtin_trap();
	scsi_decode_block_limits(data, len, &bl);
	scsi_decode_characteristics(data, len, &rotation, &form_factor);
	scsi_decode_provisioning_unmap(data, len);
	{
		struct scsi_lbp_commands lbp;

		/* The two readings of LBPU agree. */
		if (scsi_decode_provisioning(data, len, &lbp) && lbp.lbpu != scsi_decode_provisioning_unmap(data, len))
			__builtin_trap();
	}
	{
		struct scsi_block_length lengths[8];

		if (scsi_decode_block_lengths(data, len, lengths, 8) > 8)
			__builtin_trap();
		if (scsi_decode_spt_types(data, len) & ~0x0eu)
			__builtin_trap();
	}
	{
		struct scsi_temperature t;

		scsi_decode_temperature_page(data, size, &t);
		if ((t.has_current && (t.current < 0 || t.current > 254)) || (t.has_reference && t.reference > 254))
			__builtin_trap();
	}
	{
		uint32_t minutes;

		/* Read only from the status parameter's bytes 4-7: ASan sees a read beyond the bytes given. */
		scsi_decode_power_on_minutes(data, size, &minutes);
	}
	{
		uint64_t errors, defects;

		/* The Read Error Counter page's Total Uncorrected Errors: a counter of 1 to 8 bytes, read as far as came. */
		scsi_decode_uncorrected_errors(data, size, &errors);
		/* READ DEFECT DATA's header: a count no larger than its list length says (4 bytes a descriptor at least). */
		if (scsi_decode_grown_defects(data, size, &defects) && defects > 0xffffu / 4)
			__builtin_trap();
	}
	{
		/* --condition's pages: each parameter read only within the page length and the bytes given. */
		struct scsi_self_test t[SCSI_SELF_TESTS];
		uint64_t v;
		unsigned int percent, asc;
		int n = scsi_decode_self_tests(data, size, t, SCSI_SELF_TESTS);

		if (n < -2 || n > SCSI_SELF_TESTS)
			__builtin_trap();
		for (int i = 0; i < n; i++)
			if (t[i].code > 7 || t[i].result > 15 || t[i].hours > 0xffff)
				__builtin_trap();
		scsi_decode_log_counter(data, size, size ? data[0] & 0x3f : 0, 0x0006, &v);
		if (scsi_decode_farm_hours(data, size, &v) == FARM_READ && v >> 56)
			__builtin_trap();
		if (scsi_decode_percentage_used(data, size, &percent) && percent > 255)
			__builtin_trap();
		if (scsi_decode_ie_asc(data, size, &asc) && asc > 255)
			__builtin_trap();
	}
	for (uint8_t code = 0; code < 0x40; code++)
		for (uint8_t sub = 0; sub < 2; sub++)
			if (scsi_find_mode_page(data, size, code, sub, &offset, &page_len, text, sizeof(text)) == 0 &&
			    (offset + page_len > size || page_len < 2))
				__builtin_trap();
	if (sense_normalise(data, (unsigned int)(size > 255 ? 255 : size), &s)) {
		sense_describe(&s, text, sizeof(text));
		scsi_power_state(&s);
	}
	{
		/* --scan-verify's VERIFY (16) ended with this sense: one of the three ends, a MEDIUM ERROR the medium's. */
		int e = scsi_verify_outcome(&s);

		if ((e != ENODATA && e != EOPNOTSUPP && e != EREMOTEIO) ||
		    (s.valid && s.key == SENSE_MEDIUM_ERROR && e != ENODATA) || (!s.valid && e != EREMOTEIO))
			__builtin_trap();
	}
	return 0;
}
