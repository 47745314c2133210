/* The program's name and version, as -V and -h print them and JSON and erase records carry them. */
#ifndef HDPARM_VERSION_H
#define HDPARM_VERSION_H

#define HDPARM_NAME "hdparm"
#define HDPARM_VERSION "v9.65-c1"

#endif
