#!/bin/sh
# Regenerates the fixtures of tests/wireless/test_tcp_runs.py: the trace
# (NAME.tr.gz, gzip -9 -n: byte-stable) and stdout (NAME.out) the real
# ns-2 2.35 writes for each spec here (spec.tcl).  The specs are a sample
# of `python3 gen.py 60 1 DIR` (check.py -n 60 -s 1 runs all sixty).
# Run from anywhere: sh tests/wireless/tcp/regen.sh
set -e
NS=${NS:-/usr/bin/ns}
here=$(cd "$(dirname "$0")" && pwd)
for spec in "$here"/*.spec; do
    name=$(basename "$spec" .spec)
    d=$(mktemp -d)
    cp "$here/spec.tcl" "$spec" "$d"
    (cd "$d" && $NS spec.tcl "$name.spec" > out 2> /dev/null)
    gzip -9 -n -c "$d/$name.tr" > "$here/$name.tr.gz"
    cp "$d/out" "$here/$name.out"
    echo "$name: $(wc -l < "$d/$name.tr") lines"
    rm -rf "$d"
done
