/* The command line, parsed whole before any device is opened (hdparm.c). */
#ifndef HDPARM_CMDLINE_H
#define HDPARM_CMDLINE_H

/*
 * Parse argv and drop the result: 0, or the errno the command line is
 * refused with (its one line already on stderr).  Nothing is opened or
 * run; the parser never exits, so a fuzz target can call this in-process.
 */
int check_command_line(int argc, char **argv);

#endif
