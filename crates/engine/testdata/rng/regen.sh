#!/bin/sh
# Regenerates the oracle outputs used by tests/rng_oracle.rs.
#
# Needs /usr/bin/ns (ns-2 2.35) and gcc.  The Rust tests need neither.
#
# rngstream_extra.out (antithetic and increased-precision modes,
# advance_state, set_package_seed: RNG features ns-2's Tcl interface cannot
# reach) was recorded once from an out-of-tree harness linked against ns-2's
# own RNG source; that harness is not part of this repository, so this
# script leaves the file as it is.
#
# exact_shim.c is LD_PRELOADed into ns so that (1) RandomVariable `value`
# and `$rng normal/lognormal`, which ns-2 prints with %6e / %g, come out with
# %.17g, and (2) gettimeofday returns a fixed time, making heuristic seeds
# reproducible.  plain.tcl runs without the shim to record ns-2's own text.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
NS=${NS:-/usr/bin/ns}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -Wall -shared -fPIC -o "$tmp/exact_shim.so" "$here/exact_shim.c"
cd "$here"
run() { # script output [extra env...]
	script=$1 out=$2
	shift 2
	env NS_EXACT_DOUBLES=1 NS_FAKE_SEC=1700000000 NS_FAKE_USEC=123456 "$@" \
		LD_PRELOAD="$tmp/exact_shim.so" "$NS" "$script" > "$out"
}
run startup.tcl startup.out
run streams.tcl streams.out
run heuristic.tcl heuristic.out
# (379 ^ 123 ^ (1 << 8)) & 0x7fffffff == 0: the first heuristic seed is 0.
run heuristic.tcl heuristic0.out NS_FAKE_SEC=379 NS_FAKE_USEC=123
run tclprocs.tcl tclprocs.out
run ranvar.tcl ranvar.out
"$NS" plain.tcl > plain.out
