# Sourced by a suite that runs hdparm on the test double (tests/tools/sgio-shim.c),
# after it sets out, top and double_name: builds the double into
# $out/sgio-shim-$double_name.so and sets shim and preload, the environment that
# puts it under hdparm (PRELOAD=qemu: hdparm is qemu-user running a cross build,
# and the double goes to the program it runs, through QEMU_SET_ENV).  A double
# that does not build ends the suite with a FAIL line.
shim="$out/sgio-shim-$double_name.so"
if ! ${CC:-cc} -shared -fPIC -O2 -o "$shim" "$top/tests/tools/sgio-shim.c" -ldl; then
	echo "FAIL build tests/tools/sgio-shim.c"
	echo "end of suite"
	exit 0
fi
if [ "${PRELOAD:-}" = qemu ]; then preload=(QEMU_SET_ENV="LD_PRELOAD=$shim"); else preload=(LD_PRELOAD="$shim"); fi
