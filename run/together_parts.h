/*
 * The parts of a run of many disks at once (run/together.c): a disk's
 * process, on its side of the gate (together_member.c), and what this
 * process shows of them (together_say.c).  Not for the rest of the program.
 */
#ifndef HDPARM_TOGETHER_PARTS_H
#define HDPARM_TOGETHER_PARTS_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/un.h>

#include "actions.h"
#include "reach.h"

/* What the run does, in its lines: "the process erasing it", "before the erases began". */
struct words {
	const char *many;	/* the JSON errors' operation */
	const char *plural;	/* before the ... began */
	const char *doing;	/* the process ... was killed */
	const char *still;	/* what the disk may be doing since: check with (how_to_follow) */
	const char *others;	/* what --continue-on-refusal does */
	const char *once;	/* each disk is ... once, named once */
	bool reads_only;	/* a surface scan: nothing written (still: NULL); an unreadable sector (EIO) yields to a failure */
	bool verdicts;		/* --condition: each disk's exit status its verdict; the run's the highest (the worst) */
};

/* The run's: an erase where any disk is erased, else a format, else a firmware download, else a surface scan, else --condition. */
const struct words *words_of(const struct job *jobs, int njobs);

/* HALTED: its checks ended by this process (a signal came before the gate opened). */
enum stage { CHECKING, READY, REFUSED, DIED, RUNNING, ENDED, KILLED, HALTED };

#define MAX_REACHED (REACH_MAX + 1)

/* What a disk's scan said last on its status line (a surface scan of many disks: together_scan.c). */
struct scan_seen {
	bool seen;
	double share, rate;	/* per cent done; MB/s */
	unsigned long left;	/* seconds */
	size_t bad;		/* unreadable sectors so far */
};

struct member {
	const struct job *job;
	const struct words *words;
	pid_t pid;
	int out, err, msg, gate;	/* this end of its stdout and stderr (err -1: one socket for both), messages; the gate's answer */
	struct sockaddr_un from_out, from_err;	/* the names its stdout and stderr send from, on that one socket */
	socklen_t from_out_len, from_err_len;
	bool tagged;			/* out is one socket for both (err -1), taken by the reader thread while it runs */
	bool out_ended;			/* its process ended: the reader takes the last of out and closes it */
	int senders[2];			/* copies of its two senders, held here so that no other socket takes their names */
	enum stage stage;
	char status[160];
	struct scan_seen scan;		/* a surface scan's last status line, kept after it is wiped */
	char *msgs;			/* message bytes not yet taken */
	size_t msgs_len, json_wanted;
	FILE *log;			/* its stdout and stderr in the order they came: a stream byte, a length, the bytes */
	char *log_buf;
	size_t log_len;
	char *json;
	size_t json_len;
	size_t json_cut;		/* bytes of its device object that never came (0: it came whole, or none) */
	dev_t reached[MAX_REACHED];
	unsigned int n_reached;
	char record[512];		/* its erase record's path, "" where none */
	bool reaped;			/* wait_status holds how its process ended */
	bool abandoned;			/* killed and left: it did not end (held in the kernel), nobody waits for it */
	int halted_by;			/* HALTED: the signal to this process that refused the run */
	bool gate_reached;		/* it was checked and waited at the gate */
	int wait_status;
	int exit_status;
};

/* ---- a disk's process (together_member.c) ---- */

/* What a disk's process is given: its ends of the message pipe and the gate, and how the run began. */
struct member_start {
	int msg, gate;
	pid_t parent;			/* the process that runs the gate */
	struct sigaction intr, term, hup;	/* SIGINT's, SIGTERM's, SIGHUP's handling before the run: the disk's process has it back */
	const struct words *words;
};

/* The disk's process: job run up to the gate, its answer waited for, then on; it ends there. */
_Noreturn void run_member(const struct job *job, const struct run_flags *run, struct member_start *st);

/* n bytes to fd, all of them unless it fails. */
void send_all(int fd, const char *p, size_t n);

/* ---- its stdout and stderr, in the order written (together_streams.c) ---- */

/* This process's end of them in m, the disk's process's in child[0] (stdout) and child[1]; 0 or an errno. */
int streams_open(struct member *m, int child[2]);

/* What came on fd (m->out or m->err), kept in m->log in the order written; false at its end. */
bool streams_take(struct member *m, int fd);

/*
 * m's process has ended: what it wrote, all of it here by now, taken, and a
 * socket with no end of its own closed (by the reader thread, where it runs:
 * streams_closed() says when).
 */
void streams_ended(struct member *m);

/* m's socket is the reader thread's (it runs): this process neither reads nor closes it. */
bool streams_threaded(const struct member *m);

/* Its stdout and stderr all taken, and closed: its text can be said. */
bool streams_closed(const struct member *m);

/*
 * The reader thread started for the n members' sockets: the descriptor that
 * becomes readable when it closed one (streams_woken() empties it), or -1:
 * no thread (pipes, or none could be had), and this process reads them.
 */
int streams_follow(struct member *m, int n);
void streams_woken(void);

/* The reader thread stopped: the sockets it had not closed are this process's again. */
void streams_follow_end(void);

/* ---- what this process shows (together_say.c) ---- */

/* The status lines: one per disk, redrawn in place on a terminal (standard error), else none. */
struct screen {
	bool shown;
	int lines;		/* drawn last time */
	unsigned int width;
};

void together_screen_begin(struct screen *sc, const struct run_flags *run);
void together_draw(struct screen *sc, const struct member *m, int n);
void together_wipe(struct screen *sc);

/* ---- a surface scan of many disks: one status line for all (together_scan.c) ---- */

/* A disk's scan status line, text, taken where it is one. */
void scan_status_take(struct scan_seen *seen, const char *text);

/* The one line for the n disks: the least and most done, the rates added, the time left, the unreadable sectors. */
void scan_line(const struct member *m, int n, char *line, size_t size);

/* What has been said of the members: the next to say, in the order given, and the statuses so far. */
struct said {
	int next;
	int status;		/* the exit status of the last that failed */
	int verdict;		/* --condition: the worst verdict's exit status (said where no disk failed otherwise) */
	bool unreadable;	/* a scan found unreadable sectors (EIO), and none failed otherwise */
};

/* m's output and what befell it (its process ended, its exit status set), said; said->next past it. */
void say_member(struct member *m, const struct run_flags *run, struct said *said);

/* Each started member not said yet, in turn; the exit status of the run: the last that failed, else EIO for unreadable sectors. */
int say_members(struct member *m, int started, const struct run_flags *run, struct said *said);

/* A disk's process that could not be started (fork or pipe failed, err), at member failed: nothing goes to any disk. */
struct start_failure {
	int failed, err;
	const char *what;
};

/* The member that failed and those after it, never started: said, each with its JSON object. */
void say_not_started(const struct member *m, int njobs, const struct run_flags *run, const struct start_failure *f);

#endif
