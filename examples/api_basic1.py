"""Dordal's basic1 experiment ("An Introduction to Computer Networks", 31.2)
with Dumbbell's Python API: one TCP Reno sender, A --- R --- B.

    python examples/api_basic1.py [endtime]

Prints the final ack_ and maxseq_ of the sender (the book: 808 and 829 at
10 s) and saves a plot of cwnd against time to basic1-cwnd.png.  The run is
exactly that of the book's basic1.tcl (`dumbbell run basic1.tcl`).
"""

import sys

import polars as pl

import dumbbell as db


def basic1(endtime=10.0, trace_packets=False):
    sim = db.Simulation()
    A, R, B = sim.nodes(3)
    sim.link(A, R, bandwidth="10Mb", delay="10ms")
    # the bottleneck; R's queue holds 6 packets plus the one being sent
    sim.link(R, B, bandwidth="800Kb", delay="50ms", queue_limit=7)
    # packet_size 960 + 40 bytes of headers = 1000 bytes on the wire
    tcp0 = sim.tcp(A, B, variant="reno", window=100, packet_size=960,
                   trace_vars=("cwnd_", "ssthresh_", "ack_", "maxseq_"))
    return sim.run(until=endtime, trace_packets=trace_packets), tcp0, (R, B)


if __name__ == "__main__":
    endtime = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    res, tcp0, (R, B) = basic1(endtime)
    f = res.flow(tcp0)
    print(f"final ack: {f['ack']}, final seq num: {f['maxseq']}")
    print(f"packets received by B: {f['goodput_pkts']} of {round(100 * endtime)} possible "
          f"({f['goodput_pkts'] / endtime:.1f} packets/s)")
    q = res.queues.filter(src=R.id, dst=B.id).row(0, named=True)
    print(f"drops at R: {q['drops_pkts']}; mean queue at R: {q['mean_queue_pkts']:.2f} packets")
    cwnd = res.var("cwnd", tcp0)
    teeth = cwnd.filter(pl.col("value").shift(-1) < 0.75 * pl.col("value"), pl.col("time") > 2)
    print("cwnd peaks after slow start:", ", ".join(f"{v:.3f}" for v in teeth["value"]), "(book: 20.931, 20.934, 20.934)")
    res.plot_cwnd("basic1-cwnd.png", title="basic1: TCP Reno cwnd (Dordal 31.2)")
    print("cwnd plot: basic1-cwnd.png")
