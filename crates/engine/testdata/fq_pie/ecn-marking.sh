#!/bin/sh
# Rerun ecn-marking.cc against ns-3.37's library (Debian bookworm:
# apt-get install -y libns3-dev g++) and rewrite ecn-marking.txt.
set -e
cd "$(dirname "$0")"
B=$(mktemp -d)
nice g++ -O1 -std=c++17 -Wall -o "$B/ecn-marking" ecn-marking.cc -lns3-core -lns3-network -lns3-internet -lns3-traffic-control
"$B/ecn-marking" > ecn-marking.txt
rm -r "$B"
