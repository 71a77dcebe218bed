"""The engine driven directly from Python (no Tcl): ns-2's single-sender
scenario, compared with the trace ns-2 2.35 writes for it.

Expected values: `ns /work/shared/oracle/scripts/single.tcl trace=ref.tr`
(end=10 s, qlim 7, Reno, window 100, packetSize 960) gives ack 808,
maxseq 829, sink bytes 808040 and a 10057-line trace whose SHA-256 is below.
"""

import hashlib

from dumbbell._engine import Engine

REF_SHA256 = "dca575d9cf9191babfa7d18a1f47e8a0619f7618b702b12e11f73a4e580eb677"
REF_LINES = 10057


def build_single(e: Engine):
    def mk(name, kind, defaults=()):
        i = e.create(name, kind)
        e.init_defaults(i, list(defaults))
        return i

    mk("null", "Agent/Null")
    nodes = []
    for k in range(3):
        n = mk(f"n{k}", "Node")
        e.command(n, ["nodeid", str(k)])
        e.command(n, ["addr", str(k)])
        nodes.append(n)
    count = [0]

    def link(a, b, bw, delay):
        c = count[0]
        count[0] += 1
        drop = mk(f"drop{c}", "Connector")
        head = mk(f"head{c}", "Connector")
        q = mk(f"q{c}", "Queue/DropTail")
        lk = mk(f"l{c}", "DelayLink")
        e.set_var(lk, "bandwidth_", bw)
        e.set_var(lk, "delay_", delay)
        ttl = mk(f"ttl{c}", "TTLChecker")
        traces = {}
        for t, kind in (("enq", "Trace/Enque"), ("deq", "Trace/Deque"), ("drp", "Trace/Drop"), ("rcv", "Trace/Recv")):
            x = mk(f"{t}{c}", kind)
            e.set_var(x, "src_", str(a))
            e.set_var(x, "dst_", str(b))
            e.command(x, ["attach", "F"])
            traces[t] = x
        # head -> enq -> q -> deq -> link -> ttl -> rcv -> node; drops -> drp -> null
        e.command(head, ["target", f"enq{c}"])
        e.command(traces["enq"], ["target", f"q{c}"])
        e.command(q, ["target", f"deq{c}"])
        e.command(q, ["drop-target", f"drop{c}"])
        e.command(drop, ["target", f"drp{c}"])
        e.command(traces["drp"], ["target", "null"])
        e.command(traces["deq"], ["target", f"l{c}"])
        e.command(lk, ["target", f"ttl{c}"])
        e.command(ttl, ["target", f"rcv{c}"])
        e.command(ttl, ["drop-target", f"drop{c}"])
        e.command(traces["rcv"], ["target", f"n{b}"])
        e.add_link(a, b, head)
        return q

    link(0, 1, "10Mb", "10ms")
    link(1, 0, "10Mb", "10ms")
    q = link(1, 2, "800Kb", "50ms")
    link(2, 1, "800Kb", "50ms")
    e.set_var(q, "limit_", "7")
    tcp = mk("tcp", "Agent/TCP/Reno")
    e.set_var(tcp, "window_", "100")
    e.set_var(tcp, "packetSize_", "960")
    sink = mk("sink", "Agent/TCPSink")
    for nidx, ag, name in ((0, tcp, "tcp"), (2, sink, "sink")):
        port = e.command(nodes[nidx], ["alloc-port", "null"])
        e.set_var(ag, "agent_addr_", str(nidx))
        e.set_var(ag, "agent_port_", port)
        e.command(nodes[nidx], ["install", port, name])
        e.command(ag, ["target", f"n{nidx}"])
    e.set_var(tcp, "dst_addr_", "2")
    e.set_var(tcp, "dst_port_", "0")
    e.set_var(sink, "dst_addr_", "0")
    e.set_var(sink, "dst_port_", "0")
    e.enable_routing()
    e.command(tcp, ["reset"])
    e.command(sink, ["reset"])
    return tcp, sink


def run_until(e: Engine, tcp, end):
    start = e.at(0.0)
    e.at(end)
    out = bytearray()
    while True:
        why, uid = e.run()
        for _, data in e.drain():
            out += data
        if why == "tcl" and uid == start:
            e.command(tcp, ["send", "-1"])
            continue
        if why in ("tcl", "done", "halted"):
            break
    for _, data in e.drain():
        out += data
    return bytes(out)


def test_single_sender_trace_is_identical_to_ns2():
    e = Engine()
    tcp, sink = build_single(e)
    trace = run_until(e, tcp, 10.0)
    assert e.get_var(tcp, "ack_") == "808"
    assert e.get_var(tcp, "maxseq_") == "829"
    assert e.get_var(sink, "bytes_") == "808040"
    assert trace.count(b"\n") == REF_LINES
    assert hashlib.sha256(trace).hexdigest() == REF_SHA256


def test_same_scenario_twice_gives_identical_output():
    outs = []
    for _ in range(2):
        e = Engine()
        tcp, _ = build_single(e)
        outs.append(run_until(e, tcp, 3.0))
    assert outs[0] == outs[1]


def test_packets_are_conserved():
    e = Engine()
    tcp, _ = build_single(e)
    run_until(e, tcp, 5.0)
    # Every packet alive is queued or in flight; at most window + queue.
    assert 0 < e.live_packets() <= 100 + 4 * 50
