#!/bin/sh
# Regenerates the fixtures of crates/engine/tests/dcf.rs: the old-format
# trace the real ns-2 2.35 writes for each network of dcf.tcl (MAC trace
# on), and for two of them the use-newtrace format's (NAME-new.tr), and
# for the random networks of random/ (spec.tcl), gzipped (-9 -n:
# byte-stable).  Run from anywhere: sh tests/wireless/dcf/regen.sh
set -e
NS=${NS:-/usr/bin/ns}
here=$(cd "$(dirname "$0")" && pwd)
for run in pair three garbled busy hidden capture crowd line norts fast oldtimer oldtimer-norts "busy new" "crowd new"; do
    set -- $run
    s=$1
    name=$s${2:+-$2}
    d=$(mktemp -d)
    cp "$here/dcf.tcl" "$d"
    (cd "$d" && $NS dcf.tcl $run > /dev/null 2>&1)
    gzip -9 -n -c "$d/$name.tr" > "$here/$name.tr.gz"
    echo "$name: $(wc -l < "$d/$name.tr") trace lines, $(grep -ci '^d' "$d/$name.tr" || true) drops"
    rm -rf "$d"
done
# the random networks (their specs written once by `python3 random.py 40 1`,
# `python3 random.py 40 2 moving` and `python3 random.py 10 3 moving new`)
for spec in "$here"/random/*.spec; do
    name=$(basename "$spec" .spec)
    d=$(mktemp -d)
    cp "$here/spec.tcl" "$spec" "$d"
    (cd "$d" && $NS spec.tcl "$name.spec" > /dev/null 2>&1)
    gzip -9 -n -c "$d/$name.tr" > "$here/random/$name.tr.gz"
    rm -rf "$d"
done
echo "random: $(ls "$here"/random/*.tr.gz | wc -l) networks, $(zcat "$here"/random/*.tr.gz | wc -l) trace lines"
# the same over free space and shadowing (`python3 random.py 20 4 moving
# prop`, `python3 random.py 10 5 new prop`)
for spec in "$here"/random-prop/*.spec; do
    name=$(basename "$spec" .spec)
    d=$(mktemp -d)
    cp "$here/spec.tcl" "$spec" "$d"
    (cd "$d" && $NS spec.tcl "$name.spec" > /dev/null 2>&1)
    gzip -9 -n -c "$d/$name.tr" > "$here/random-prop/$name.tr.gz"
    rm -rf "$d"
done
echo "random-prop: $(ls "$here"/random-prop/*.tr.gz | wc -l) networks, $(zcat "$here"/random-prop/*.tr.gz | wc -l) trace lines"
