#!/bin/sh
# Regenerate the FQ-CoDel oracle fixtures of this directory with ns-3.37
# (Debian bookworm: apt-get install -y libns3-dev g++).  pkg-config's ns3
# .pc files are broken on bookworm, so the modules are linked directly.
# Builds go to $TMPDIR (not into the repository).
set -e
cd "$(dirname "$0")"
B="${TMPDIR:-/tmp}/dumbbell-fq-codel-oracle"
mkdir -p "$B"
LIBS="-lns3-core -lns3-network -lns3-internet -lns3-traffic-control"
nice g++ -O2 -std=c++17 -Wall -o "$B/fq-codel-oracle" fq-codel-oracle.cc $LIBS
nice g++ -O2 -std=c++17 -Wall -o "$B/hashes" hashes.cc $LIBS
O="$B/fq-codel-oracle"

# S1: ns-3's defaults on a 10 Mb/s link: a bulk flow overloading it, two
#     moderate flows and a sparse one (not ECN-capable: CoDel drops).
$O --flows=12Mbps:100ms:2500ms:1500:0,2Mbps:200ms:2500ms:500:0,1Mbps:300ms:2s:1000:0,80kbps:0s:2500ms:100:0 \
   --bursts=1:1s:40 > "$B/s1_defaults.txt"
# S2: overflow of a 200-packet limit by bursts into several flows: batch
#     drops from the fattest queue (64 at most, or half its bytes).
$O --maxSize=200p --flows=8Mbps:0s:2s:1500:0,3Mbps:0s:2s:600:0,3Mbps:500ms:1500ms:1000:0,1Mbps:0s:2s:300:0 \
   --bursts=0:300ms:150,1:600ms:120,2:900ms:180,3:1200ms:250,1:1200ms:60 > "$B/s2_overflow.txt"
# S3: ECN with a CE threshold, half the flows ECN-capable, only 16 buckets
#     (flows share queues) and a 300-byte quantum.
$O --nFlows=16 --quantum=300 --ceThreshold=3ms \
   --flows=5Mbps:0s:2s:1500:1,5Mbps:0s:2s:1500:0,3Mbps:100ms:2s:800:1,2Mbps:200ms:2s:400:0,2Mbps:300ms:1s:1000:1,1Mbps:0s:2s:200:0 \
   > "$B/s3_ecn_shared_queues.txt"
# S4: the set-associative hash (16 buckets in sets of 4), a perturbation,
#     twelve flows starting and stopping, ECN off.
$O --nFlows=16 --setAssoc=1 --setWays=4 --perturbation=12345 --useEcn=0 --rate=5Mbps \
   --flows=1Mbps:0s:1s:1000:0,1Mbps:100ms:1100ms:1000:0,1Mbps:200ms:1200ms:1000:0,1Mbps:300ms:1300ms:500:0,1Mbps:400ms:1400ms:500:0,1Mbps:500ms:1500ms:500:0,500kbps:600ms:1600ms:1500:0,500kbps:700ms:1700ms:1500:0,500kbps:800ms:1800ms:1500:0,2Mbps:900ms:1900ms:200:0,2Mbps:1s:2s:200:0,2Mbps:1100ms:2100ms:200:0 \
   > "$B/s4_set_associative.txt"
"$B/hashes" > hashes.txt
for f in "$B"/s*.txt; do gzip -9 -n -c "$f" > "$(basename "$f").gz"; done
for f in "$B"/s*.txt; do echo "$(basename "$f"): $(tail -1 "$f" | cut -c3-)"; done > SUMMARY.md
echo "fixtures written to $(pwd)"
