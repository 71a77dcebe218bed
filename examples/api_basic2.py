"""Dordal's basic2 experiment ("An Introduction to Computer Networks", 31.3)
with Dumbbell's Python API: two TCP Reno senders compete for the bottleneck
R --- D; B's access link is `delayB` ms longer than A's.

    python examples/api_basic2.py delayB [endtime [overhead]]

Prints the book's "parameters:" line, then its result line: delayB overhead
recv0 recv1 rttratio rttratio2 actualratio ratio1 ratio2 (for delayB 0:
"... 14863 14771 1.000000 1.000000 1.006228 ...", for 36: "... 25790 3603
...").  Saves a cwnd plot of both senders to basic2-cwnd.png.
"""

import sys

import dumbbell as db

RTTNL = 220  # the book's estimate of the no-load RTT of A--D, in ms


def basic2(delayB, endtime=300.0, overhead=0.0, bottleneckBW=0.8, queuesize=20):
    sim = db.Simulation()
    A, B, R, D = sim.nodes(4)
    fastbw = bottleneckBW * 10
    sim.link(A, R, f"{fastbw}Mb", "10ms")
    sim.link(B, R, f"{fastbw}Mb", f"{10 + delayB}ms")  # delayB ms longer than A--R
    sim.link(R, D, f"{bottleneckBW}Mb", "100ms", queue_limit=queuesize)  # the bottleneck
    opts = dict(variant="reno", window=65000, packet_size=960, overhead=overhead, trace_vars=("cwnd_", "ack_"))
    sim.tcp(A, D, flow_id=0, **opts)
    sim.tcp(B, D, flow_id=1, **opts)
    return sim.run(until=endtime)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    delayB = float(sys.argv[1])
    endtime = float(sys.argv[2]) if len(sys.argv) > 2 else 300.0
    overhead = float(sys.argv[3]) if len(sys.argv) > 3 else 0.0
    print(f"parameters: delayB={delayB:f} overhead={overhead:f} bottleneckBW={0.8:f}")
    res = basic2(delayB, endtime, overhead)
    recv0, recv1 = res.flows["goodput_pkts"]  # packets received by D, per connection
    rttratio = (2.0 * delayB + RTTNL) / RTTNL
    actualratio = recv0 / recv1
    rttratio2 = rttratio * rttratio
    ratio1, ratio2 = actualratio / rttratio, actualratio / rttratio2
    print(f"{delayB:f} {overhead:f} {recv0:d} {recv1:d} {rttratio:f} {rttratio2:f} "
          f"{actualratio:f} {ratio1:f} {ratio2:f}")
    res.plot_cwnd("basic2-cwnd.png", title=f"basic2: two Reno senders, delayB={delayB:g} ms")
    print("cwnd plot: basic2-cwnd.png")
