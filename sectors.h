/* Commands that touch data: sectors, TRIM, security, sanitize, DCO, files. */
#ifndef HDPARM_SECTORS_H
#define HDPARM_SECTORS_H

#include <stddef.h>
#include <stdint.h>

#include "actions.h"

step_fn read_sector, write_sector, make_bad_sector, trim_from_args, trim_from_stdin;
step_fn security_step, security_freeze, sanitize_step, sanitize_wait, dco_step;
step_fn firmware_download, set_sector_size, drq_hsm_error;


/* --fallocate and --fibmap work on a file, not a device; they return an errno value. */
int fallocate_file(const struct settings *s);
int fibmap_file(const struct settings *s);

#endif
