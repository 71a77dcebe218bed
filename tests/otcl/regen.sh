#!/bin/sh
# Regenerate tests/otcl/expected/*.out from the real OTcl inside ns-2 2.35.
#
# Each case in tests/otcl/cases is run with /usr/bin/ns (which contains
# OTcl 1.14 and tclcl 1.20); its standard output becomes the expected
# output that test_otcl_cases.py compares our pure-Tcl implementation with.
# A case that writes anything to stderr under ns is reported as an error
# (cases must run cleanly on the reference).
#
# Usage: tests/otcl/regen.sh [case.tcl ...]   (default: all cases)
set -e
NS=${NS:-/usr/bin/ns}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$here/expected"
if [ $# -eq 0 ]; then
    set -- "$here"/cases/*.tcl
fi
status=0
tmp=$(mktemp)
for c in "$@"; do
    name=$(basename "$c" .tcl)
    # run from the cases directory, with no stdin, as ns would run a script
    if ! (cd "$here/cases" && "$NS" "$name.tcl" < /dev/null > "$here/expected/$name.out" 2> "$tmp"); then
        echo "FAILED (exit status): $name" >&2
        status=1
    fi
    if [ -s "$tmp" ]; then
        echo "FAILED (stderr output): $name" >&2
        sed 's/^/    /' "$tmp" >&2
        status=1
    else
        echo "ok $name"
    fi
done
rm -f "$tmp"
exit $status
