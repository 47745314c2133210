# Sourced by a suite that holds erase records against erase-record.schema.json: sets py to a
# python3 with jsonschema (the one first on PATH, else the system's: tests/setup installs
# python3-jsonschema) and schema; without one, the suite ends with a FAIL line naming $1.
py=
for p in python3 /usr/bin/python3; do
	if "$p" -c 'import jsonschema' 2> /dev/null; then py=$p; break; fi
done
schema=$top/erase-record.schema.json
if [ -z "$py" ]; then
	echo "FAIL $1: no python3 with jsonschema (tests/setup installs python3-jsonschema)"
	echo "end of suite"
	exit 0
fi
