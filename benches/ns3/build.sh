#!/bin/sh
# Build tcp-grid (the full TCP's grid against ns-3.37) against Debian's libns3-dev 3.37.
# OUT sets the program's path (default: target/bench/tcp-grid in the repository).
set -e
here="$(cd "$(dirname "$0")" && pwd)"
OUT=${OUT:-$here/../../target/bench/tcp-grid}
mkdir -p "$(dirname "$OUT")"
set -x
${CXX:-g++} -O2 -std=c++17 -Wall "$here/tcp-grid.cc" -o "$OUT" \
  -lns3-applications -lns3-traffic-control -lns3-point-to-point -lns3-internet \
  -lns3-bridge -lns3-network -lns3-stats -lns3-core
