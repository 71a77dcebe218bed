#!/bin/sh
# Regenerates seed/: what the real ns-2 2.35 writes for seed 002's wireless
# script (wireless.tcl, a copy of ../../../shared/oracle/scripts/wireless.tcl)
# with AODV and with DSDV, and with the old trace format
# (wireless-oldtrace.tcl): stdout, exit code, wireless.tr and wireless.nam
# gzipped (-9 -n: byte-stable).  Run from anywhere: sh tests/wireless/regen.sh
set -e
NS=${NS:-/usr/bin/ns}
here=$(cd "$(dirname "$0")" && pwd)
for v in "aodv:wireless.tcl 100" "dsdv:wireless.tcl 100 DSDV" "oldtrace:wireless-oldtrace.tcl 100"; do
    id=${v%%:*}
    cmd=${v#*:}
    d=$(mktemp -d)
    cp "$here"/wireless.tcl "$here"/wireless-oldtrace.tcl "$d"
    (cd "$d" && set +e; $NS $cmd > stdout 2>/dev/null; echo $? > exit_code)
    mkdir -p "$here/seed/$id"
    for f in wireless.tr wireless.nam; do
        gzip -9 -n -c "$d/$f" > "$here/seed/$id/$f.gz"
    done
    cp "$d/stdout" "$d/exit_code" "$here/seed/$id/"
    rm -rf "$d"
    echo "$id: $(cat "$here/seed/$id/exit_code") $(zcat "$here/seed/$id/wireless.tr.gz" | wc -l) trace lines"
done
