/*
 * A command that runs for minutes or hours inside the drive (SECURITY
 * ERASE UNIT): while the caller waits in the kernel, a status line on a
 * terminal says where it stands, and Ctrl-C or SIGTERM says what
 * interrupting hdparm does not do.
 */
#ifndef HDPARM_PROGRESS_H
#define HDPARM_PROGRESS_H

#include <stdbool.h>

struct long_command;

/*
 * Before the command: label ("erasing"), the drive's estimate in seconds
 * (0: none), and the line printed if hdparm is interrupted.  The status
 * line is drawn only when stderr is a terminal and show is true.
 * NULL when no helper thread could be started (the command runs anyway).
 */
struct long_command *long_command_begin(const char *label, unsigned int estimate_s, const char *on_interrupt,
					bool show);

/* After it: the status line gives way to one saying how long it took. */
void long_command_end(struct long_command *lc);

#endif
