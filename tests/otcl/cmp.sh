#!/bin/sh
# Developer helper: run case(s) under ns (real OTcl) and under otcl.tcl and
# show the differences.  Usage: tests/otcl/cmp.sh tests/otcl/cases/NN_x.tcl...
cd "$(dirname "$0")"
for c in "$@"; do
  b=$(basename "$c" .tcl)
  (cd cases && ns "$b.tcl" < /dev/null > "/tmp/otcl_ns_$b.out" 2> "/tmp/otcl_ns_$b.err")
  python3 runcase.py "cases/$b.tcl" > "/tmp/otcl_my_$b.out" 2> "/tmp/otcl_my_$b.err"
  if diff "/tmp/otcl_ns_$b.out" "/tmp/otcl_my_$b.out" > "/tmp/otcl_diff_$b"; then echo "SAME $b"; else echo "DIFF $b"; cat "/tmp/otcl_diff_$b"; fi
  [ -s "/tmp/otcl_ns_$b.err" ] && { echo "ns stderr:"; head -5 "/tmp/otcl_ns_$b.err"; }
  [ -s "/tmp/otcl_my_$b.err" ] && { echo "our stderr:"; head -5 "/tmp/otcl_my_$b.err"; }
done
