"""dumbbell.metrics on real runs: cross-checks against the engine's own
counters (sink bytes, queue monitors), against Dordal's published numbers
for basic1, and against ns-2's trace of a RED/ECN case."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import polars as pl
import pytest

import dumbbell as db
from dumbbell import cli
from dumbbell import metrics as m

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "ns2" / "fixtures"


def basic1(until=10.0, delays=("10ms", "50ms"), queue_limit=7, trace_packets=True, trace_file=None):
    """Dordal's basic1 (31.2): A --10Mb-- R --800Kb-- B, one Reno flow,
    960-byte payloads (1000 bytes on the wire)."""
    sim = db.Simulation()
    A, R, B = sim.nodes(3)
    sim.link(A, R, "10Mb", delays[0])
    bott = sim.link(R, B, "800Kb", delays[1], queue_limit=queue_limit)
    sim.tcp(A, B, variant="reno", window=100, packet_size=960, trace_vars=("cwnd_", "ack_"))
    tp = [bott] if trace_packets == "bottleneck" else trace_packets
    return sim.run(until=until, trace_packets=tp, trace_file=trace_file), bott


@pytest.fixture(scope="module")
def b1(tmp_path_factory):
    path = tmp_path_factory.mktemp("b1") / "basic1.tr"
    res, bott = basic1(trace_file=path)
    return res, bott, path


def _in_order_bytes(events: pl.DataFrame) -> int:
    """Bytes of the packets a sink has in order: the distinct seqnos
    delivered at the destination below the first missing one."""
    r = events.filter(pl.col("event") == "r", pl.col("ptype") == "tcp", pl.col("to_node") == pl.col("dst_node"))
    first = r.group_by("seqno").agg(pl.col("size").first()).sort("seqno")
    seq = first["seqno"].to_list()
    hole = next((i for i, s in enumerate(seq) if s != i), len(seq))
    return int(first["size"][:hole].sum())


def test_goodput_matches_the_sink(b1):
    res, _, _ = b1
    g = res.goodput()
    # Out-of-order packets count as goodput, the sink's bytes_ only in order.
    assert _in_order_bytes(res.events) == res.flow(0)["bytes_received"] == 808040
    # The rest of the distinct packets were delivered beyond a hole at seq 809.
    assert g["bytes"][0] > res.flow(0)["bytes_received"]
    # Throughput also counts duplicates: Dordal 31.2.5 finds 13 packets of
    # basic1 delivered twice (seqnos 43..62).
    assert res.throughput()["packets"][0] - g["packets"][0] == 13


def test_queue_average_and_drops_match_the_monitors(b1):
    res, bott, _ = b1
    for q in res.queues.iter_rows(named=True):
        link = (q["src"], q["dst"])
        assert res.time_average_queue(link) == pytest.approx(q["mean_queue_pkts"], abs=1e-6)
        assert res.time_average_queue(link, unit="bytes") == pytest.approx(q["mean_queue_bytes"], abs=1e-6)
    assert res.time_average_queue(bott) == pytest.approx(2.282608, abs=1e-6)
    assert res.drops_and_marks()["drops"].sum() == res.queues["drops_pkts"].sum() == 14
    assert res.drops_and_marks(link=bott)["marks"].to_list() == [0]


def test_queue_delay_obeys_littles_law(b1):
    # The integral of R's queue over the run = the waits of the packets
    # dequeued + the time the packets still queued at the end have waited.
    res, bott, _ = b1
    link = (bott.src.id, bott.dst.id)
    ev = res.events.filter(pl.col("from_node") == link[0], pl.col("to_node") == link[1])
    waits = m.queue_delay(res, bott, per_packet=True)["delay"].sum()
    left = ev.filter(pl.col("event") == "+").join(ev.filter(pl.col("event").is_in(["-", "d"])), on="uid", how="anti")
    assert left.height == res.queues.filter(src=link[0], dst=link[1])["queue_pkts"][0] == 5
    held = (res.until - left["time"]).sum()
    assert waits + held == pytest.approx(res.until * res.time_average_queue(bott), rel=1e-9)


def test_link_utilisation_matches_departures(b1):
    res, bott, _ = b1
    q = res.queues.filter(src=bott.src.id, dst=bott.dst.id).row(0, named=True)
    u = res.link_utilisation(bott)
    sent_bytes = u * res.until * bott.bandwidth / 8
    # Every departure is transmitted within the run except the tail of the last one.
    assert 0 <= q["departures_bytes"] - sent_bytes < 1000
    assert res.link_utilisation((bott.src, bott.dst)) == u == m.link_utilisation(res, bott, "800Kb")


def test_metrics_of_a_link_without_traffic():
    # The bandwidth of a link given as a node pair comes from the
    # simulation's links, even with no flow and no queue monitor.
    sim = db.Simulation()
    a, b = sim.nodes(2)
    sim.link(a, b, "2Mb", "5ms")
    res = sim.run(until=1.0, trace_packets=True, monitor_queues=False)
    assert res.queues.height == 0 and res.flows.height == 0
    assert res.link_utilisation((a, b)) == 0.0
    assert res._bandwidth((b, a)) == 2e6
    # A link of the simulation that carried nothing: empty, not an error.
    assert res.time_average_queue((a, b)) == 0.0
    assert res.queue_length((a, b)).height == 0
    assert res.throughput(link=(a, b)).height == 0
    with pytest.raises(ValueError, match="no link 0->5"):
        res.link_utilisation((0, 5))


def test_one_way_delay_of_an_unqueued_packet(b1):
    res, _, _ = b1
    per = res.one_way_delay(per_packet=True)
    # The 40-byte first packet: 32 us + 10 ms on A-R, 0.4 ms + 50 ms on R-B.
    assert per.filter(seqno=0)["delay"][0] == pytest.approx(0.000032 + 0.010 + 0.0004 + 0.050)
    # Seq 1 (1000 bytes) finds both queues empty: 0.8 ms + 10 ms + 10 ms + 50 ms.
    assert per.filter(seqno=1)["delay"][0] == pytest.approx(0.0708)
    assert res.one_way_delay()["min"][0] == pytest.approx(0.060432)


def test_teeth_and_drop_clusters_match_the_book(b1):
    res, _, _ = b1
    # Dordal 31.2.4: a coarse timeout at T=1.22579 (cwnd to 1); after slow
    # start the teeth peak at 20.931, 20.934, 20.934, 1.946 s apart.
    all_teeth = res.teeth(per_tooth=True)
    assert all_teeth.filter("timeout")["time"].to_list() == [1.22579]
    after = res.teeth(start=2.0, per_tooth=True)
    assert after["peak"].to_list() == [20.931, 20.934, 20.934]
    assert after["time"].diff().drop_nulls().to_list() == pytest.approx([1.946, 1.946], abs=1e-3)
    assert res.teeth(start=2.0).select("teeth", "coarse_timeouts").row(0) == (3, 0)
    # 31.2.5: after slow start single drops at T=3.963408, 5.909568, 7.855728.
    drops = m.loss_clusters(res, 1.0, start=2.0, source="events")
    assert drops["start"].to_list()[:3] == [3.963408, 5.909568, 7.855728]
    assert drops["events"].to_list() == [1] * drops.height


def test_result_wrappers_equal_the_functions(b1):
    res, bott, _ = b1
    assert res.goodput((2, 8)).equals(m.goodput(res, (2, 8)))
    assert res.throughput(link=bott).equals(m.throughput(res, link=bott))
    assert res.lockout(0.5).equals(m.lockout(res, 0.5))
    assert res.lockout(0.5, source="vars").equals(m.lockout(res.vars, 0.5, (0, res.until)))
    assert res.queue_length(bott).equals(m.queue_length(res.events, (bott.src.id, bott.dst.id)))
    assert res.jain() == 1.0          # one flow
    assert res.teeth(2.0, granularity=1.0).equals(m.teeth(res.vars, 2.0, res.until, granularity=1.0))


def test_result_methods_take_every_option_of_their_metric():
    # Each Result method is the metric of the same name on the Result: it
    # must accept every parameter the function has (after its data argument),
    # so that the two cannot drift apart.
    import inspect

    names = [n for n in dir(m) if not n.startswith("_") and inspect.isfunction(getattr(m, n))
             and getattr(m, n).__module__ == m.__name__ and hasattr(db.Result, n)]
    assert {"throughput", "goodput", "goodput_series", "lockout", "teeth", "loss_clusters",
            "ack_progress", "one_way_delay", "queue_delay"} <= set(names)
    for n in names:
        if n == "jain":  # Result.jain computes the frame itself (metric=)
            continue
        fn_params = list(inspect.signature(getattr(m, n)).parameters)[1:]
        meth_params = inspect.signature(getattr(db.Result, n)).parameters
        missing = [p for p in fn_params if p not in meth_params and not (n == "link_utilisation" and p == "bandwidth")]
        assert not missing, f"Result.{n} lacks {missing}"
    assert "bandwidth" in inspect.signature(db.Result.link_utilisation).parameters


def test_new_result_methods_equal_the_functions(b1):
    res, bott, _ = b1
    assert res.lockout(0.5, link=bott).equals(m.lockout(res, 0.5, link=bott))
    assert res.one_way_delay(acks=True).equals(m.one_way_delay(res, acks=True))
    assert res.teeth(2.0, var="cwnd_", timeout_cwnd=1.0).equals(m.teeth(res.vars, 2.0, res.until))
    assert res.loss_clusters(1.0).equals(m.loss_clusters(res, 1.0))
    assert res.goodput_series(1.0).equals(m.goodput_series(res, 1.0))
    assert res.ack_progress((0, 5)).equals(m.ack_progress(res, (0, 5)))


def test_trace_file_gives_the_same_metrics(b1):
    res, bott, path = b1
    w = (0, res.until)
    ev = db.read_trace(path)
    assert m.goodput(path, w, by="fid")["packets"].to_list() == res.goodput()["packets"].to_list()
    assert m.time_average_queue(ev, (1, 2), w) == res.time_average_queue(bott)
    assert m.teeth(path, 2.0, 10.0)["teeth"].to_list() == [3]


def test_cli_metrics_json_on_the_kept_trace(b1, capsys):
    res, bott, path = b1
    rc = cli.main(["metrics", str(path), "--window", "0", "10", "--link", "1", "2", "--bandwidth", "800Kb",
                   "--format", "json"])
    assert rc == 0
    doc = json.loads(capsys.readouterr().out)
    (flow,) = doc["flows"]
    assert flow["distinct_pkts"] == res.goodput()["packets"][0]
    assert flow["drops"] == 14
    assert doc["queue_avg_pkts"] == pytest.approx(res.queues.filter(src=1, dst=2)["mean_queue_pkts"][0])
    assert doc["utilisation"] == pytest.approx(res.link_utilisation(bott))
    assert doc["teeth"][0]["teeth"] == 5          # all of basic1's cwnd_ decreases from 0


@pytest.mark.parametrize("queue_limit, received", [(5, 83313), (10, 89320)])
def test_book_link_utilisation_table(queue_limit, received):
    # Dordal 31.2.6: basic1 with 50/100 ms delays for 1000 s; "received" is
    # the number of distinct packets B gets, utilisation = received / 100000.
    res, bott = basic1(1000.0, ("50ms", "100ms"), queue_limit, trace_packets="bottleneck")
    g = res.goodput(link=bott)
    assert g["bytes"][0] == res.flow(0)["bytes_received"]        # the sink agrees, byte for byte
    assert round(g["bytes"][0] / 1000) == received
    u = res.link_utilisation(bott)
    # The link also carries retransmissions: transmitted = delivered across
    # the link (duplicates included) + at most a pipe's worth in flight.
    transmitted = u * 1000 * 800_000 / 8000
    assert 0 <= transmitted - res.throughput(link=bott)["packets"][0] < 12
    assert u >= received / 100_000


def test_ecn_marks_only_ect_packets_api():
    sim = db.Simulation()
    A, B, R, D = sim.nodes(4)
    sim.link(A, R, "10Mb", "2ms")
    sim.link(B, R, "10Mb", "20ms")
    bott = sim.link(R, D, "1.5Mb", "10ms", queue="RED", queue_limit=25,
                    queue_params={"thresh": 5, "maxthresh": 15, "setbit": True})
    sim.tcp(A, D, variant="reno", ecn=True, window=50)
    sim.tcp(B, D, variant="reno", window=50)
    res = sim.run(until=10, trace_packets=True)
    dm = res.drops_and_marks(link=bott)
    marks = dict(zip(dm["flow"], dm["marks"]))
    assert marks[0] > 0 and marks[1] == 0
    assert dm["drops"].sum() == res.queues.filter(src=R.id, dst=D.id)["drops_pkts"][0]
    # (trace times have 6 decimals, the monitor integrates exact times)
    assert res.time_average_queue(bott) == pytest.approx(
        res.queues.filter(src=R.id, dst=D.id)["mean_queue_pkts"][0], abs=1e-6)


def test_ecn_marks_in_an_ns2_trace(tmp_path):
    # tests/ns2 case red_ecn, written by ns-2 2.35: even fids are ECN-capable,
    # odd ones never; each ECN response of a sender (necn in its stdout) needs
    # at least one marked packet.
    trace = tmp_path / "red.tr"
    trace.write_bytes(gzip.decompress((FIXTURES / "red_ecn" / "red.tr.gz").read_bytes()))
    stdout = (FIXTURES / "red_ecn" / "stdout").read_text()
    necn = {int(a): int(b) for a, b in re.findall(r"^flow (\d+) .* necn (\d+)", stdout, re.M)}
    dm = m.drops_and_marks(trace)
    marks = dict(zip(dm["fid"], dm["marks"]))
    for fid in (1, 3, 5):
        assert marks[fid] == 0
    for fid in (0, 2, 4):
        assert marks[fid] >= necn[fid] > 0
    # A marked packet keeps its flag downstream but counts once.
    ev = db.read_trace(trace)
    flagged = ev.filter(pl.col("flags").cast(pl.String).str.slice(4, 1) == "E")
    assert dm["marks"].sum() == flagged["uid"].n_unique() < flagged.height


def test_droptail_queue_peaks_at_its_limit(b1):
    """docs/metrics.md: a DropTail queue with limit L reaches L when a packet
    arrives to be dropped, and the drop leaves it at L - 1 (basic1: L = 7)."""
    res, bott, _ = b1
    q = res.queue_length(bott)
    assert q["packets"].max() == 7
    after_drop = q.filter(q["event"] == "d")["packets"]
    assert after_drop.len() > 0 and set(after_drop.to_list()) == {6}
