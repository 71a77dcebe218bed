#!/bin/sh
# Regenerate testsuite.txt.gz from ns-3.37's library
# (Debian bookworm: apt-get install -y libns3-dev g++).
# pkg-config's ns3 .pc files are broken on bookworm, so the modules are
# named by hand.
set -e
cd "$(dirname "$0")"
B=$(mktemp -d)
LIBS="-lns3-core -lns3-network -lns3-traffic-control"
nice g++ -O2 -std=c++17 -Wall -o "$B/cobalt-testcases" testcases.cc $LIBS
"$B/cobalt-testcases" | gzip -9n > testsuite.txt.gz
rm -r "$B"
