/*
 * What each key of /etc/hdparm.conf means: the option it names (Debian's
 * hdparm-functions' keys, and erc, epc, epc_timer, idle_spindown), and a
 * device's settings made of its block and the global lines above it.
 */
#ifndef HDPARM_CONFIG_KEYS_H
#define HDPARM_CONFIG_KEYS_H

#include <stdbool.h>

#include "config.h"
#include "config_file.h"

/*
 * job->s and job->items from the global lines (all of them where block is
 * -1, else those above it) and the block's lines; a key given twice counts
 * once, the later.  on_battery picks apm_battery over apm.  0, or EINVAL
 * with "FILE:LINE:COL: what is wrong" in err.
 */
int config_settings(const struct config_file *cf, int block, bool on_battery, struct config_job *job, char *err,
		    size_t errsize);

/*
 * The same for the blocks named[b] that are true (NULL: the global lines
 * alone), as if they were one: two blocks that name one disk (its node and
 * a by-id link) merge, their lines in the file's order.
 */
int config_settings_of(const struct config_file *cf, const bool *named, bool on_battery, struct config_job *job,
		       char *err, size_t errsize);

/* Every key's value is good, for both power sources: the whole file checked before anything is sent. */
int config_check_keys(const struct config_file *cf, char *err, size_t errsize);

#endif
