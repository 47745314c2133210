/*
 * A secret the run was given (the PSID of --tcg-psid-revert): while it is
 * held the process is not dumpable (no core file, and its memory closed
 * to the user's other processes: ptrace, /proc/PID/mem), and once it is
 * no longer needed each copy is wiped.
 */
#ifndef HDPARM_SECRET_H
#define HDPARM_SECRET_H

/* The process made not dumpable, from the moment a secret is read; what it was is kept. */
void secret_held(void);

/*
 * The secret s (NUL-terminated, in memory the run may write: the command
 * line's word, or the buffer it was read into) wiped, and the process
 * dumpable again as it was.  NULL: the latter only.
 */
void secret_forget(const char *s);

#endif
