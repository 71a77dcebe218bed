#!/bin/sh
# Regenerates stdout: what the real ns-2 2.35 prints for unknown_sender.tcl
# (two nodes, GOD told of one, CBR from node 1 to node 0 over DSDV): the
# MAC's warnings about a sender with no place in its duplicate memory.
# Checked by crates/engine/src/ns2/wireless.rs's tests.
# Run from anywhere: sh tests/wireless/unknown_sender/regen.sh
set -e
NS=${NS:-/usr/bin/ns}
here=$(cd "$(dirname "$0")" && pwd)
d=$(mktemp -d)
cp "$here"/unknown_sender.tcl "$d"
(cd "$d" && $NS unknown_sender.tcl > stdout 2>/dev/null)
cp "$d/stdout" "$here/stdout"
rm -rf "$d"
