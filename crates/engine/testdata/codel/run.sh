#!/bin/sh
# Regenerate the CoDel oracle fixtures of this directory with ns-3.37
# (Debian bookworm: apt-get install -y libns3-dev g++ python3).
# pkg-config's ns3 .pc files are broken on bookworm, so the modules are
# linked directly.  Builds go to $TMPDIR (not into the repository).
set -e
cd "$(dirname "$0")"
B="${TMPDIR:-/tmp}/dumbbell-codel-oracle"
mkdir -p "$B"
LIBS="-lns3-core -lns3-network -lns3-internet -lns3-point-to-point -lns3-applications -lns3-traffic-control"
nice g++ -O2 -std=c++17 -Wall -o "$B/codel-oracle" codel-oracle.cc $LIBS
nice g++ -O2 -std=c++17 -Wall -o "$B/codel-testcases" testcases.cc $LIBS
O="$B/codel-oracle"

# S1: drop mode, 10 Mb/s link; overload, drain, burst, idle, overload again.
$O --rate=10Mbps --delay=5ms --pktSize=1500 --target=5ms --interval=100ms \
   --phases=12Mbps:2s,8Mbps:1.5s,burst:60,9Mbps:1s,0bps:2.5s,11Mbps:1s \
   > "$B/s1_drop_basic.txt"
# S2: slow 1 Mb/s link with a short interval: several drops per dequeue,
#     frequent re-entry through the count-reuse rule, exit on an empty disc.
$O --rate=1Mbps --delay=20ms --pktSize=1500 --target=2ms --interval=20ms \
   --phases=2Mbps:1s,0.6Mbps:1.5s,burst:30,0bps:1s \
   > "$B/s2_slowlink_multidrop.txt"
# S3: UseEcn with every packet ECT(0): marks instead of drops; a 300-packet
#     MaxSize makes the unresponsive source overflow (Overlimit drops).
$O --rate=10Mbps --delay=5ms --pktSize=1500 --target=5ms --interval=100ms \
   --useEcn=1 --ectEvery=1 --maxSize=300p \
   --phases=12Mbps:2.5s,8Mbps:2s,0bps:1s,burst:100 \
   > "$B/s3_ecn_all_ect.txt"
# S4: UseEcn, every other packet ECT(0), CeThreshold 10ms: target marks for
#     ECT packets, target drops for Not-ECT packets, CE-threshold marks.
$O --rate=10Mbps --delay=5ms --pktSize=1500 --target=5ms --interval=100ms \
   --useEcn=1 --ectEvery=2 --ceThreshold=10ms \
   --phases=12Mbps:2s,8Mbps:1.5s,burst:60,9Mbps:1s \
   > "$B/s4_ecn_mixed_cethreshold.txt"
# The numbers behind ns-3.37's codel-queue-disc-test-suite.cc.
"$B/codel-testcases" > testsuite_numbers.txt

# An independent Python model of the algorithm replays every log.
python3 verify_fixture.py "$B"/s*.txt
python3 summarize.py "$B"/s*.txt > SUMMARY.md
for f in "$B"/s*.txt; do gzip -9 -n -c "$f" > "$(basename "$f").gz"; done
echo "fixtures written to $(pwd)"
