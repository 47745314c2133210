# Sourced by the suites: what more than one of them needs.
#
# until_true SECONDS COMMAND...: COMMAND, tried every 0.1 s until it succeeds; false where it never
# did in SECONDS.  A suite waits for the state it needs (a log line, a process at a gate), not for
# a time that a busy machine may not keep.
until_true() {
	local n=$(($1 * 10))
	shift
	while [ "$n" -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}
