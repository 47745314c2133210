# Sourced by a suite that holds our output against another program's (the oracles: nvme-cli,
# sg3_utils, sdparm, smartctl, hdparm 9.65, sedutil).  Such a comparison is never left out in
# silence: where its program is missing, a skip line names it, and STRICT=1 fails.
#
# oracle SUITE COMMAND [WHAT]: true where COMMAND runs here; else "skip SUITE: ..." and false.
oracle() {
	command -v "$2" > /dev/null && return 0
	echo "skip $1: ${3:-$2} is not installed (tests/setup installs it): its comparisons were not made"
	return 1
}

# oracle_965 SUITE BINARY: true where BINARY is hdparm 9.65; else a skip line and false.
oracle_965() {
	"$2" -V 2> /dev/null | grep -q 'v9.65$' && return 0
	echo "skip $1: $2 is not hdparm 9.65 (tests/setup installs it): the comparisons with it were not made"
	return 1
}
