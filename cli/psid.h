/*
 * The PSID of --tcg-psid-revert, kept out of the command line where every
 * user of the machine reads it (/proc/PID/cmdline, ps) for as long as the
 * revert runs: "-" reads it from standard input, and none given asks for it
 * on the terminal without echoing it.
 */
#ifndef HDPARM_PSID_H
#define HDPARM_PSID_H

/*
 * The PSID's form: at most 32 characters; else the refusal, said, and
 * EINVAL.  name: the option's, as "--tcg-psid-revert".
 */
int psid_check(const char *name, const char *psid);

/*
 * Where given is "-" or NULL, the PSID read (standard input's first line,
 * or asked on the terminal); else given.  NULL with the refusal said where
 * none could be read (no terminal to ask on, end of input, too long).
 * Either way the process is no longer dumpable (secret.h): the caller
 * wipes the PSID with secret_forget() once it is no longer needed.  At the
 * terminal's prompt the echo comes back on every way out: the line read,
 * end of input, an error, SIGINT, SIGTERM, SIGHUP, SIGQUIT, and SIGTSTP
 * (the prompt again once continued).
 */
const char *psid_read(const char *name, const char *given);

#endif
