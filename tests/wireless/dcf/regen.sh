#!/bin/sh
# Regenerates the fixtures of crates/engine/tests/dcf.rs: the old-format
# trace the real ns-2 2.35 writes for each network of dcf.tcl (MAC trace
# on), gzipped (-9 -n: byte-stable).  Run from anywhere:
# sh tests/wireless/dcf/regen.sh
set -e
NS=${NS:-/usr/bin/ns}
here=$(cd "$(dirname "$0")" && pwd)
for s in pair three garbled busy hidden capture crowd; do
    d=$(mktemp -d)
    cp "$here/dcf.tcl" "$d"
    (cd "$d" && $NS dcf.tcl $s > /dev/null 2>&1)
    gzip -9 -n -c "$d/$s.tr" > "$here/$s.tr.gz"
    echo "$s: $(wc -l < "$d/$s.tr") trace lines, $(grep -c '^D' "$d/$s.tr" || true) drops"
    rm -rf "$d"
done
