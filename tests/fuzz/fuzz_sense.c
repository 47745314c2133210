/* Sense data of any length and format through sat_result_from_sense(). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ata_commands.h"
#include "sense.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ata_result res;

	memset(&res, 0, sizeof(res));
	sat_result_from_sense(data, (unsigned int)(size > 255 ? 255 : size), &res);
	/* What was decoded must stay inside what was given. */
	if (res.have_regs && size < 8)
		__builtin_trap();
	{
		/* --scan-verify's READ VERIFY SECTORS ended with this sense: one of the three ends. */
		bool bridge;
		int e = ata_verify_outcome(&res, &bridge);

		if ((e != ENODATA && e != EOPNOTSUPP && e != EREMOTEIO) || (bridge && (e != EOPNOTSUPP || res.have_regs)) ||
		    (res.sense_key == SENSE_MEDIUM_ERROR && e != ENODATA))
			__builtin_trap();
	}
	return 0;
}
