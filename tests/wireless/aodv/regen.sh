#!/bin/sh
# Regenerates the fixtures of crates/engine/tests/aodv.rs: the trace the
# real ns-2 2.35 writes for each spec here (spec.tcl), gzipped (-9 -n:
# byte-stable).  The random specs were written once by `python3 random.py
# 30 1` and `python3 random.py 15 2 dsdv`.  Run from anywhere: sh tests/wireless/aodv/regen.sh
set -e
NS=${NS:-/usr/bin/ns}
here=$(cd "$(dirname "$0")" && pwd)
for spec in "$here"/*.spec; do
    name=$(basename "$spec" .spec)
    d=$(mktemp -d)
    cp "$here/spec.tcl" "$spec" "$d"
    (cd "$d" && $NS spec.tcl "$name.spec" > /dev/null 2>&1)
    gzip -9 -n -c "$d/$name.tr" > "$here/$name.tr.gz"
    echo "$name: $(wc -l < "$d/$name.tr") lines, $(grep -c '^[dD] ' "$d/$name.tr" || true) drops"
    rm -rf "$d"
done
