#!/bin/sh
# Regenerate the FQ-PIE and FQ-COBALT oracle logs from ns-3.37's library
# (Debian bookworm: apt-get install -y libns3-dev g++).  pkg-config's ns3
# .pc files are broken on bookworm, so the modules are named by hand.
set -e
cd "$(dirname "$0")"
B=$(mktemp -d)
LIBS="-lns3-core -lns3-network -lns3-traffic-control"
nice g++ -O2 -std=c++17 -Wall -o "$B/fq-oracle" fq-oracle.cc $LIBS
for d in pie cobalt; do
  for s in 1 2; do
    "$B/fq-oracle" $d $s | gzip -9n > "${d}_s$s.txt.gz"
  done
done
rm -r "$B"
