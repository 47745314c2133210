# Sourced by a suite that runs hdparm on a test double, after it sets out, top and
# double_name: tests/tools/sgio-shim.c, or with double_source=script-double the
# scripted double tests/tools/script-double.c.  Builds it into
# $out/<double>-$double_name.so and sets shim and preload, the environment that puts
# it under hdparm (PRELOAD=qemu: hdparm is qemu-user running a cross build, and the
# double goes to the program it runs, through QEMU_SET_ENV).  A double that does not
# build ends the suite with a FAIL line.
double_file=${double_source:-sgio-shim}
shim="$out/$double_file-$double_name.so"
if ! ${CC:-cc} -shared -fPIC -O2 -o "$shim" "$top/tests/tools/$double_file.c" -ldl; then
	echo "FAIL build tests/tools/$double_file.c"
	echo "end of suite"
	exit 0
fi
if [ "${PRELOAD:-}" = qemu ]; then preload=(QEMU_SET_ENV="LD_PRELOAD=$shim"); else preload=(LD_PRELOAD="$shim"); fi
