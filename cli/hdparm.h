/* The program's name and version, as -V and -h print them. */
#ifndef HDPARM_H
#define HDPARM_H

#define HDPARM_NAME "hdparm"
#define HDPARM_VERSION "v9.65-c1"

#endif
