#!/bin/sh
# Regenerate the PIE oracle fixtures of this directory with ns-3.37
# (Debian bookworm: apt-get install -y libns3-dev g++ python3).
# pkg-config's ns3 .pc files are broken on bookworm, so the modules are
# linked directly.  Builds go to $TMPDIR (not into the repository).
set -e
cd "$(dirname "$0")"
B="${TMPDIR:-/tmp}/dumbbell-pie-oracle"
mkdir -p "$B"
LIBS="-lns3-core -lns3-network -lns3-internet -lns3-point-to-point -lns3-applications -lns3-traffic-control"
nice g++ -O2 -std=c++17 -Wall -o "$B/pie-oracle" pie-oracle.cc $LIBS
nice g++ -O2 -std=c++17 -Wall -o "$B/pie-testcases" testcases.cc $LIBS
O="$B/pie-oracle"

# S1: ns-3's defaults, limit in packets: overload, lighter load, burst,
#     overload, idle (the probability decays), heavy overload.
$O --maxSize=1000p \
   --phases=12Mbps:2s,8Mbps:1.5s,burst:100,11Mbps:1.5s,0bps:2s,15Mbps:1s --tail=1s \
   > "$B/s1_drop_packets.txt"
# S2: limit in bytes with packets of 1500, 600 and 1000 bytes (the
#     probability scaled by size over MeanPktSize), UseEcn with every other
#     packet ECT(0): marks below MarkEcnThreshold (0.3 here, as in ns-3's
#     test suite), drops above it and of Not-ECT packets.
$O --maxSize=200000B --sizes=1500,600,1000 --useEcn=1 --ectEvery=2 --markEcnTh=0.3 \
   --phases=16Mbps:2s,22Mbps:1s,13Mbps:1s,0bps:1s,burst:80 --tail=1s \
   > "$B/s2_bytes_ecn.txt"
# S3: the dequeue-rate estimator, derandomization, no cap on the increase,
#     and the parameters of ns-3's test suite (Tupdate 30 ms, reference 20
#     ms, burst allowance 100 ms, DequeueThreshold 10000).
$O --maxSize=1000p --sizes=1500,1000 --estimator=1 --derandom=1 --capDrop=0 \
   --tUpdate=30ms --qDelayRef=20ms --maxBurst=100ms --dqThreshold=10000 \
   --phases=13Mbps:2s,9Mbps:1s,burst:60,16Mbps:1.5s,0bps:1.5s,12Mbps:1s --tail=1s \
   > "$B/s3_estimator_derandom.txt"
# S4: ActiveThreshold 10 ms (PIE switched on and off), a 150-packet limit
#     that an unresponsive overload overflows (forced drops), alpha and beta
#     doubled, on a 5 Mb/s link.
$O --rate=5Mbps --maxSize=150p --activeThreshold=10ms --a=0.25 --b=2.5 \
   --phases=4Mbps:1s,9Mbps:1.5s,burst:120,3Mbps:1s,0bps:1s,12Mbps:1s --tail=1s \
   > "$B/s4_active_overflow.txt"
# The numbers behind ns-3.37's pie-queue-disc-test-suite.cc, with its draws.
"$B/pie-testcases" > "$B/testsuite.txt"

python3 summarize.py "$B"/s*.txt > SUMMARY.md
for f in "$B"/s*.txt "$B/testsuite.txt"; do gzip -9 -n -c "$f" > "$(basename "$f").gz"; done
echo "fixtures written to $(pwd)"
