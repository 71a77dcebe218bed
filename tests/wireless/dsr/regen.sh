#!/bin/sh
# Regenerates the DSR fixtures: the trace and nam file the real ns-2 2.35
# writes for each spec here (spec.tcl), gzipped (-9 -n: byte-stable).  The
# random specs were written once by `python3 random.py 20 3`.  Run from
# anywhere: sh tests/wireless/dsr/regen.sh
set -e
NS=${NS:-/usr/bin/ns}
here=$(cd "$(dirname "$0")" && pwd)
for spec in "$here"/*.spec; do
    name=$(basename "$spec" .spec)
    d=$(mktemp -d)
    cp "$here/spec.tcl" "$spec" "$d"
    (cd "$d" && $NS spec.tcl "$name.spec" > "$name.out" 2>&1) || { echo "$name: ns-2 failed"; cat "$d/$name.out" | tail -3; exit 1; }
    gzip -9 -n -c "$d/$name.tr" > "$here/$name.tr.gz"
    gzip -9 -n -c "$d/$name.nam" > "$here/$name.nam.gz"
    echo "$name: $(wc -l < "$d/$name.tr") lines, $(grep -c '^[dD] ' "$d/$name.tr" || true) drops"
    rm -rf "$d"
done
