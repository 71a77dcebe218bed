#!/bin/sh
# Regenerate sanity.txt from ns-3.37's library
# (Debian bookworm: apt-get install -y libns3-dev g++).
set -e
cd "$(dirname "$0")"
B=$(mktemp -d)
LIBS="-lns3-core -lns3-network -lns3-traffic-control"
g++ -O1 -std=c++17 -Wall -o "$B/red-sanity" sanity.cc $LIBS
"$B/red-sanity" > sanity.txt
rm -r "$B"
