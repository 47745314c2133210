/* The standby timer's value (-S), as ATA encodes it: its time and its words. */
#include "report.h"
#include "standby.h"

long standby_interval_seconds(unsigned int v)
{
	if (v <= 240)
		return 5L * v;
	if (v <= 251)
		return (v - 240) * 30L * 60;
	if (v == 252)
		return 21L * 60;
	if (v == 255)
		return 21L * 60 + 15;
	return -1;	/* 253: vendor-specific, 254: reserved */
}

void print_standby_interval(unsigned int v)
{
	out(" (");
	if (v == 0) {
		out("off");
	} else if (v == 252) {
		out("21 minutes");
	} else if (v == 253) {
		out("vendor-specific");
	} else if (v == 254) {
		out("?reserved");
	} else if (v == 255) {
		out("21 minutes + 15 seconds");
	} else if (v <= 240) {
		/* 5-second units */
		unsigned int secs = v * 5, mins = secs / 60;

		secs %= 60;
		if (mins)
			out("%u minutes", mins);
		if (mins && secs)
			out(" + ");
		if (secs)
			out("%u seconds", secs);
	} else {
		/* 241-251: 30-minute units */
		unsigned int mins = (v - 240) * 30, hrs = mins / 60;

		mins %= 60;
		if (hrs)
			out("%u hours", hrs);
		if (hrs && mins)
			out(" + ");
		if (mins)
			out("%u minutes", mins);
	}
	out(")\n");
}
