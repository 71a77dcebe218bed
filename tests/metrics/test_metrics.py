"""dumbbell.metrics on tiny hand-made ns-2 traces whose answers are worked
out by hand in the comments.

Trace lines: event time from to ptype size flags fid src dst seqno uid;
variable records: time src_node src_port dst_node dst_port var value.
"""

from __future__ import annotations

import math
import textwrap

import polars as pl
import pytest

import dumbbell as db
from dumbbell import metrics as m


def _write(tmp_path, name: str, text: str):
    p = tmp_path / name
    p.write_text(textwrap.dedent(text).lstrip())
    return p


def _rows(df: pl.DataFrame, *cols) -> dict:
    """{first column: (other columns...)} of a per-flow frame."""
    return {r[0]: tuple(r[1:]) for r in df.select(*cols).iter_rows()}


# ---- T1: deliveries ---------------------------------------------------------------------
# Flow fid 1 is 0.0 -> 2.0 through node 1; flow fid 2 is 3.0 -> 2.1; fid 3
# (4.0 -> 2.2) only ever enqueues one packet and delivers nothing.
#   fid 1 delivered at node 2: seq 0 @0.5, seq 1 @1.0, seq 1 again @1.5
#     (a retransmitted duplicate), seq 2 @2.0; 1000 bytes each.  Its
#     arrival at the router (0 -> 1) @0.8 is not a delivery.
#   fid 2 delivered: seq 0 @1.2, seq 1 @3.5; 500 bytes each.
#   The ACK arriving at node 0 @2.5 is not data.
T1 = """
r 0.5 1 2 tcp 1000 ------- 1 0.0 2.0 0 10
r 0.8 0 1 tcp 1000 ------- 1 0.0 2.0 3 15
r 1.0 1 2 tcp 1000 ------- 1 0.0 2.0 1 11
r 1.2 1 2 tcp 500 ------- 2 3.0 2.1 0 20
r 1.5 1 2 tcp 1000 ------- 1 0.0 2.0 1 12
r 2.0 1 2 tcp 1000 ------- 1 0.0 2.0 2 13
r 2.5 1 0 ack 40 ------- 1 2.0 0.0 2 14
r 3.5 1 2 tcp 500 ------- 2 3.0 2.1 1 21
+ 3.9 4 1 tcp 1000 ------- 3 4.0 2.2 0 30
"""


@pytest.fixture
def t1(tmp_path):
    return _write(tmp_path, "t1.tr", T1)


def test_throughput_counts_every_delivery(t1):
    # window [0, 4): fid 1 has 4 deliveries (duplicate included) = 4000 bytes
    # = 32000 bits / 4 s = 8000 b/s, 1 packet/s; fid 2: 2 x 500 bytes = 8000
    # bits / 4 s = 2000 b/s; fid 3: nothing.
    out = m.throughput(t1, (0, 4))
    assert out.columns == ["fid", "packets", "bytes", "throughput_bps", "throughput_pps"]
    assert _rows(out, "fid", "packets", "bytes", "throughput_bps", "throughput_pps") == {
        1: (4, 4000, 8000.0, 1.0), 2: (2, 1000, 2000.0, 0.5), 3: (0, 0, 0.0, 0.0)}
    # [1.0, 2.0): fid 1 @1.0 and @1.5; fid 2 @1.2; the one @2.0 is outside.
    assert _rows(m.throughput(t1, (1.0, 2.0)), "fid", "packets") == {1: (2,), 2: (1,), 3: (0,)}
    # No window: 0 .. the last event (3.9), both ends included.
    assert _rows(m.throughput(t1), "fid", "throughput_pps") == {1: (4 / 3.9,), 2: (2 / 3.9,), 3: (0.0,)}
    # node=1: arrivals at the router: only fid 1's seq 3 @0.8.
    assert _rows(m.throughput(t1, (0, 4), node=1), "fid", "packets") == {1: (1,), 2: (0,), 3: (0,)}
    # link (1, 2) is where every delivery happens here.
    assert m.throughput(t1, (0, 4), link=(1, 2)).equals(m.throughput(t1, (0, 4)))


def test_goodput_counts_each_seqno_once(t1):
    # fid 1: seqs 0, 1, 2 -> 3 packets, 3000 bytes -> 6000 b/s over 4 s.
    out = m.goodput(t1, (0, 4))
    assert _rows(out, "fid", "packets", "bytes", "goodput_bps", "goodput_pps") == {
        1: (3, 3000, 6000.0, 0.75), 2: (2, 1000, 2000.0, 0.5), 3: (0, 0, 0.0, 0.0)}
    # [1.2, 2.0): seq 1 first arrived @1.0, so its duplicate @1.5 is not new.
    assert _rows(m.goodput(t1, (1.2, 2.0)), "fid", "packets") == {1: (0,), 2: (1,), 3: (0,)}
    # by connection: the same flows, keyed by src/dst node.port.
    conn = m.goodput(t1, (0, 4), by="conn")
    assert conn.select("src_node", "src_port", "dst_node", "dst_port", "packets").rows() == [
        (0, 0, 2, 0, 3), (3, 0, 2, 1, 2), (4, 0, 2, 2, 0)]


def test_goodput_keeps_connections_apart_within_one_fid(tmp_path):
    # Two connections that share fid 0 (ns-2's default) each deliver seq 0:
    # two distinct packets, not one.
    p = _write(tmp_path, "fid0.tr", """
        r 1.0 1 2 tcp 1000 ------- 0 0.0 2.0 0 1
        r 1.1 1 2 tcp 1000 ------- 0 3.0 2.1 0 2
        """)
    assert m.goodput(p, (0, 2))["packets"].to_list() == [2]


def test_jain_from_values_and_frames(t1):
    assert m.jain([5, 5, 5, 5]) == 1.0
    assert m.jain([1, 0, 0, 0]) == 0.25                       # 1/n
    assert m.jain([1, 2, 3]) == pytest.approx(36 / 42)        # 6^2 / (3 * 14)
    assert math.isnan(m.jain([0, 0]))
    # Goodputs in bits/s (the default column) 6000, 2000, 0:
    # 8000^2 / (3 * (36e6 + 4e6)) = 64 / 120 = 0.5333
    g = m.goodput(t1, (0, 4))
    assert m.jain(g) == pytest.approx(64 / 120)
    assert m.jain(g["goodput_bps"]) == m.jain(g)
    # In packets/s 0.75, 0.5, 0 (fid 2's packets are half as big):
    # 1.25^2 / (3 * (0.5625 + 0.25)) = 0.641026
    assert m.jain(g, "goodput_pps") == pytest.approx(1.5625 / (3 * 0.8125))
    # Without the idle fid 3: 1.5625 / (2 * 0.8125) = 0.961538
    assert m.jain(g.filter(pl.col("packets") > 0), "goodput_pps") == pytest.approx(1.5625 / 1.625)


def test_goodput_series_bins_and_groups(t1):
    # 1 s bins over [0, 4): fid 1 new data in bins 0, 1, 2 (1000 B = 8000 b/s
    # each), fid 2 in bins 1 and 3 (500 B = 4000 b/s).
    s = m.goodput_series(t1, 1.0, (0, 4))
    assert s.filter(fid=1)["goodput_bps"].to_list() == [8000.0, 8000.0, 8000.0, 0.0]
    assert s.filter(fid=2)["goodput_bps"].to_list() == [0.0, 4000.0, 0.0, 4000.0]
    assert s.filter(fid=3)["packets"].to_list() == [0, 0, 0, 0]
    # Group {1, 2}: bin 1 has 1000 + 500 bytes = 12000 b/s, 6000 per flow.
    g = m.goodput_series(t1, 1.0, (0, 4), groups={"both": [1, 2]})
    assert g["goodput_bps"].to_list() == [8000.0, 12000.0, 8000.0, 4000.0]
    assert g["goodput_bps_per_flow"].to_list() == [4000.0, 6000.0, 4000.0, 2000.0]
    assert g["flows"].to_list() == [2] * 4
    # 1.5 s bins: [0, 1.5), [1.5, 3), [3, 4) -- the last one 1 s long.
    # fid 1: 2000 B in bin 0 -> 16000 / 1.5; 1000 B in bin 1 -> 8000 / 1.5.
    s = m.goodput_series(t1, 1.5, (0, 4))
    assert s.filter(fid=1)["duration"].to_list() == [1.5, 1.5, 1.0]
    assert s.filter(fid=1)["goodput_bps"].to_list() == pytest.approx([16000 / 1.5, 8000 / 1.5, 0.0])


# ---- T2: one-way delay ----------------------------------------------------------------------
# 0 -> 1 -> 2.  uid 1 (seq 0) enqueued at node 0 @0.0, arrives at 2 @0.3:
# 0.3 s.  uid 2 (seq 1) is dropped at 1 -> 2: no delay.  uid 3 (seq 1 again)
# enqueued @0.5, arrives @0.9: 0.4 s.  uid 4 is the ACK 2 -> 0: enqueued at 2
# @0.3, arrives at 0 @0.45: 0.15 s.
T2 = """
+ 0 0 1 tcp 1000 ------- 1 0.0 2.0 0 1
- 0 0 1 tcp 1000 ------- 1 0.0 2.0 0 1
r 0.1 0 1 tcp 1000 ------- 1 0.0 2.0 0 1
+ 0.1 1 2 tcp 1000 ------- 1 0.0 2.0 0 1
- 0.15 1 2 tcp 1000 ------- 1 0.0 2.0 0 1
+ 0.2 0 1 tcp 1000 ------- 1 0.0 2.0 1 2
- 0.2 0 1 tcp 1000 ------- 1 0.0 2.0 1 2
r 0.3 1 2 tcp 1000 ------- 1 0.0 2.0 0 1
+ 0.3 2 1 ack 40 ------- 1 2.0 0.0 0 4
- 0.3 2 1 ack 40 ------- 1 2.0 0.0 0 4
r 0.3 0 1 tcp 1000 ------- 1 0.0 2.0 1 2
+ 0.3 1 2 tcp 1000 ------- 1 0.0 2.0 1 2
d 0.3 1 2 tcp 1000 ------- 1 0.0 2.0 1 2
r 0.4 2 1 ack 40 ------- 1 2.0 0.0 0 4
+ 0.4 1 0 ack 40 ------- 1 2.0 0.0 0 4
- 0.4 1 0 ack 40 ------- 1 2.0 0.0 0 4
r 0.45 1 0 ack 40 ------- 1 2.0 0.0 0 4
+ 0.5 0 1 tcp 1000 ------- 1 0.0 2.0 1 3
- 0.5 0 1 tcp 1000 ------- 1 0.0 2.0 1 3
r 0.6 0 1 tcp 1000 ------- 1 0.0 2.0 1 3
+ 0.6 1 2 tcp 1000 ------- 1 0.0 2.0 1 3
- 0.6 1 2 tcp 1000 ------- 1 0.0 2.0 1 3
r 0.9 1 2 tcp 1000 ------- 1 0.0 2.0 1 3
"""


def test_one_way_delay(tmp_path):
    p = _write(tmp_path, "t2.tr", T2)
    per = m.one_way_delay(p, per_packet=True)
    assert per.select("uid", "seqno", "sent", "received").rows() == [(1, 0, 0.0, 0.3), (3, 1, 0.5, 0.9)]
    assert per["delay"].to_list() == pytest.approx([0.3, 0.4])
    s = m.one_way_delay(p)
    assert s.columns == ["fid", "packets", "mean", "min", "median", "max"]
    assert s.row(0) == pytest.approx((1, 2, 0.35, 0.3, 0.35, 0.4))
    # Window on arrival time: [0, 0.5) holds only uid 1.
    assert m.one_way_delay(p, (0, 0.5))["packets"].to_list() == [1]
    acks = m.one_way_delay(p, acks=True, per_packet=True)
    assert acks["uid"].to_list() == [4] and acks["delay"].to_list() == pytest.approx([0.15])
    # Without the source's link in the trace, there is no enqueue to start from.
    only_bottleneck = db.read_trace(p).filter(pl.col("from_node") == 1, pl.col("to_node") == 2)
    with pytest.raises(ValueError, match="enqueue at its source node"):
        m.one_way_delay(only_bottleneck)


# ---- T3: queue length, time average, utilisation ------------------------------------------------
# Queue 1 -> 2 (bandwidth 8 kb/s: a 1000-byte packet takes 1 s):
#   @1.0 + uid1 (1000 B) -> 1; - uid1 -> 0; + uid2 (500 B) -> 1 pkt, 500 B
#   @2.0 + uid3 -> 2, 1500 B; + uid4 -> 3, 2500 B; d uid4 (tail drop) -> 2, 1500 B
#   @3.0 - uid2 -> 1, 1000 B
#   @4.0 - uid3 -> 0
#   @4.5 d uid3: dropped after its dequeue (an error model on the link): no change
#   @5.0 + uid5 -> 1, 1000 B
# Events on 0 -> 1 do not belong to this queue; the last event is @5.5.
T3 = """
+ 0.5 0 1 tcp 1000 ------- 1 0.0 2.0 0 1
+ 1 1 2 tcp 1000 ------- 1 0.0 2.0 0 1
- 1 1 2 tcp 1000 ------- 1 0.0 2.0 0 1
+ 1 1 2 tcp 500 ------- 2 3.0 2.1 0 2
+ 2 1 2 tcp 1000 ------- 1 0.0 2.0 1 3
+ 2 1 2 tcp 1000 ------- 1 0.0 2.0 2 4
d 2 1 2 tcp 1000 ------- 1 0.0 2.0 2 4
- 3 1 2 tcp 500 ------- 2 3.0 2.1 0 2
- 4 1 2 tcp 1000 ------- 1 0.0 2.0 1 3
d 4.5 1 2 tcp 1000 ------- 1 0.0 2.0 1 3
+ 5 1 2 tcp 1000 ------- 1 0.0 2.0 3 5
r 5.5 1 2 tcp 500 ------- 2 3.0 2.1 0 2
"""


@pytest.fixture
def t3(tmp_path):
    return _write(tmp_path, "t3.tr", T3)


def test_queue_length_steps(t3):
    q = m.queue_length(t3, (1, 2))
    assert q.columns == ["time", "event", "packets", "bytes"]
    assert q.rows() == [
        (1.0, "+", 1, 1000), (1.0, "-", 0, 0), (1.0, "+", 1, 500),
        (2.0, "+", 2, 1500), (2.0, "+", 3, 2500), (2.0, "d", 2, 1500),
        (3.0, "-", 1, 1000), (4.0, "-", 0, 0), (5.0, "+", 1, 1000)]


def test_time_average_queue(t3):
    # Packets: 1 on [1,2), 2 on [2,3), 1 on [3,4), 0 on [4,5), 1 on [5,6):
    # 5 packet-seconds / 6 s.  Bytes: 500 + 1500 + 1000 + 0 + 1000 = 4000 / 6.
    assert m.time_average_queue(t3, (1, 2), (0, 6)) == pytest.approx(5 / 6)
    assert m.time_average_queue(t3, (1, 2), (0, 6), unit="bytes") == pytest.approx(4000 / 6)
    # [1.5, 4.5): 0.5*1 + 1*2 + 1*1 + 0.5*0 = 3.5 over 3 s.
    assert m.time_average_queue(t3, (1, 2), (1.5, 4.5)) == pytest.approx(3.5 / 3)
    # Default window: 0 .. 5.5 (the trace's last event): 4 + 0.5 = 4.5 / 5.5.
    assert m.time_average_queue(t3, (1, 2)) == pytest.approx(4.5 / 5.5)


def test_queue_delay(t3):
    # Waits in 1 -> 2 (first '-' minus first '+'): uid1 0 (fid 1), uid2
    # 3 - 1 = 2 (fid 2), uid3 4 - 2 = 2 (fid 1); uid4 was dropped and uid5
    # is still queued at the end.
    per = m.queue_delay(t3, (1, 2), per_packet=True)
    assert per.select("fid", "uid", "enqueued", "dequeued", "delay").rows() == [
        (1, 1, 1.0, 1.0, 0.0), (2, 2, 1.0, 3.0, 2.0), (1, 3, 2.0, 4.0, 2.0)]
    out = m.queue_delay(t3, (1, 2))
    assert out.rows() == [(1, 2, 1.0, 0.0, 1.0, 2.0), (2, 1, 2.0, 2.0, 2.0, 2.0)]
    # Dequeued in [0, 3.5): uid1 and uid2.
    assert m.queue_delay(t3, (1, 2), (0, 3.5))["packets"].to_list() == [1, 1]
    # Little's law, exactly: the queue's integral over [0, 6] (5 packet-seconds)
    # is the waits of the dequeued packets (0 + 2 + 2) plus the time uid5
    # has spent queued by 6 (1 s).
    assert per["delay"].sum() + (6 - 5.0) == pytest.approx(6 * m.time_average_queue(t3, (1, 2), (0, 6)))


def test_link_utilisation(t3):
    # Transmissions on 1 -> 2 at 8 kb/s: uid1 [1, 2], uid2 (500 B) [3, 3.5],
    # uid3 [4, 5]: 2.5 s busy of 6; of [1.5, 4.5): 0.5 + 0.5 + 0.5 = 1.5 of 3.
    assert m.link_utilisation(t3, (1, 2), 8000, (0, 6)) == pytest.approx(2.5 / 6)
    assert m.link_utilisation(t3, (1, 2), "8Kb", (1.5, 4.5)) == pytest.approx(0.5)
    assert m.link_utilisation(t3, (1, 2), "1KB", (1.5, 4.5)) == pytest.approx(0.5)   # 1 kB/s = 8 kb/s


# ---- T4: drops and ECN marks ---------------------------------------------------------------------
# fid 1 (0.0 -> 2.0):
#   uid 1 marked (CE, "----E-N") by the queue 1 -> 2: its '-' and 'r' carry
#     the flag; one mark, located at 1 -> 2 @1.1.
#   uid 2, an ACK with ECN-echo ("C------"): not a mark.
#   uid 3 leaves node 0 with CWR ("---A--N", not a mark) and arrives marked
#     at node 1 (an error model on 0 -> 1): one mark at 0 -> 1 @2.1.
#   uid 5, an ACK dropped on 2 -> 1 @2.6 (40 bytes).
#   uid 6 marked and then dropped at 0 -> 1 @3.0: a mark and a drop.
# fid 2 (3.0 -> 2.1): uid 4 dropped at 1 -> 2 @2.5.
# So fid 1: drops 2 (1040 bytes), marks 3; fid 2: drops 1 (1000 bytes), marks 0.
T4 = """
+ 1.0 1 2 tcp 1000 ------N 1 0.0 2.0 5 1
- 1.1 1 2 tcp 1000 ----E-N 1 0.0 2.0 5 1
r 1.2 1 2 tcp 1000 ----E-N 1 0.0 2.0 5 1
+ 1.2 2 1 ack 40 C------ 1 2.0 0.0 5 2
r 1.3 2 1 ack 40 C------ 1 2.0 0.0 5 2
+ 2.0 0 1 tcp 1000 ---A--N 1 0.0 2.0 6 3
- 2.0 0 1 tcp 1000 ---A--N 1 0.0 2.0 6 3
r 2.1 0 1 tcp 1000 ---AE-N 1 0.0 2.0 6 3
+ 2.1 1 2 tcp 1000 ---AE-N 1 0.0 2.0 6 3
- 2.1 1 2 tcp 1000 ---AE-N 1 0.0 2.0 6 3
r 2.2 1 2 tcp 1000 ---AE-N 1 0.0 2.0 6 3
+ 2.5 1 2 tcp 1000 ------N 2 3.0 2.1 0 4
d 2.5 1 2 tcp 1000 ------N 2 3.0 2.1 0 4
d 2.6 2 1 ack 40 ------- 1 2.0 0.0 6 5
d 3.0 0 1 tcp 1000 ----E-N 1 0.0 2.0 7 6
"""


def test_drops_and_marks(tmp_path):
    p = _write(tmp_path, "t4.tr", T4)
    out = m.drops_and_marks(p)
    assert out.columns == ["fid", "drops", "drop_bytes", "marks"]
    assert _rows(out, "fid", "drops", "drop_bytes", "marks") == {1: (2, 1040, 3), 2: (1, 1000, 0)}
    # At 1 -> 2: fid 1's uid 1 was marked there (uid 3 arrived marked);
    # fid 2's drop.  At 0 -> 1: uid 3's and uid 6's marks, uid 6's drop.
    assert _rows(m.drops_and_marks(p, link=(1, 2)), "fid", "drops", "marks") == {1: (0, 1), 2: (1, 0)}
    assert _rows(m.drops_and_marks(p, link=(0, 1)), "fid", "drops", "marks") == {1: (1, 2), 2: (0, 0)}
    # [0, 2.55): marks @1.1 and @2.1, fid 2's drop @2.5; not @2.6, @3.0.
    assert _rows(m.drops_and_marks(p, (0, 2.55)), "fid", "drops", "marks") == {1: (0, 2), 2: (1, 0)}
    # By connection the dropped ACK counts for the data's connection 0.0 -> 2.0.
    conn = m.drops_and_marks(p, by="conn")
    assert conn.select("src_node", "src_port", "dst_node", "dst_port", "drops", "marks").rows() == [
        (0, 0, 2, 0, 2, 3), (3, 0, 2, 1, 1, 0)]


def test_drop_clusters(tmp_path):
    # Data drops @2.5 (fid 2) and @3.0 (fid 1); the ACK drop does not count.
    # Granularity 1: one cluster from 2.5 holding both, shared by 2 flows;
    # granularity 0.4: two clusters of one flow each.
    p = _write(tmp_path, "t4.tr", T4)
    c = m.loss_clusters(p, 1.0)
    assert c.select("cluster", "start", "end", "events", "flows", "shared").rows() == [(0, 2.5, 3.0, 2, 2, True)]
    assert c["members"].to_list() == [[1, 2]]
    c = m.loss_clusters(p, 0.4)
    assert c.select("start", "events", "shared").rows() == [(2.5, 1, False), (3.0, 1, False)]
    assert m.loss_clusters(p, 1.0, link=(0, 1))["events"].to_list() == [1]


# ---- T5: lockout from deliveries ------------------------------------------------------------------
# Deliveries at the destination: fid 1 new data @0.2, 0.7, 1.1, 3.6, 3.9 and a
# duplicate of seq 2 @2.5 (no progress); fid 2 @0.5 only; fid 3 never (it
# only enqueues a packet @0.1).  Window [0, 4), period 1: slots [0,1) [1,2)
# [2,3) [3,4).
#   fid 1: slots 0, 1, 3 active -> 1 locked slot; gaps 0.2, 0.5, 0.4, 2.5,
#          0.3 and 4 - 3.9 = 0.1 -> longest 2.5 >= 1: locked out.
#   fid 2: slot 0 only -> 3 locked slots; longest gap 4 - 0.5 = 3.5.
#   fid 3: nothing at all: 4 locked slots, gap 4, starved.
T5 = """
+ 0.1 3 1 tcp 1000 ------- 3 3.0 2.2 0 30
r 0.2 1 2 tcp 1000 ------- 1 0.0 2.0 0 1
r 0.5 1 2 tcp 1000 ------- 2 4.0 2.1 0 20
r 0.7 1 2 tcp 1000 ------- 1 0.0 2.0 1 2
r 1.1 1 2 tcp 1000 ------- 1 0.0 2.0 2 3
r 2.5 1 2 tcp 1000 ------- 1 0.0 2.0 2 4
r 3.6 1 2 tcp 1000 ------- 1 0.0 2.0 3 5
r 3.9 1 2 tcp 1000 ------- 1 0.0 2.0 4 6
"""


def test_lockout_from_deliveries(tmp_path):
    p = _write(tmp_path, "t5.tr", T5)
    out = m.lockout(p, 1.0, (0, 4))
    assert out.columns == ["fid", "slots", "locked_slots", "locked_seconds", "longest_gap", "locked_out", "starved"]
    rows = _rows(out, "fid", "slots", "locked_slots", "locked_seconds", "longest_gap", "locked_out", "starved")
    assert rows[1] == pytest.approx((4, 1, 1.0, 2.5, True, False))
    assert rows[2] == pytest.approx((4, 3, 3.0, 3.5, True, False))
    assert rows[3] == (4, 4, 4.0, 4.0, True, True)
    # Period 3: one slot [0, 3); fid 1's longest gap 2.5 < 3: not locked out.
    out = m.lockout(p, 3.0, (0, 4))
    assert _rows(out, "fid", "slots", "locked_slots", "locked_out") == {1: (1, 0, False), 2: (1, 0, True),
                                                                       3: (1, 1, True)}
    with pytest.raises(ValueError, match="period 5 s is longer than the window"):
        m.lockout(p, 5.0, (0, 4))


# ---- T6 / T7: variable traces ---------------------------------------------------------------------
# ack_ of sender 0.0: -1 @0 (initial), 0 @0.5, 3 @1.2, 3 @1.4 (no rise), 5 @3.5.
# Progress @0.5, 1.2, 3.5: over [0, 4) with period 1 slots 0, 1, 3 active,
# 1 locked; gaps 0.5, 0.7, 2.3, 0.5 -> longest 2.3.
T6 = """
0.00000 0 0 2 0 ack_ -1
0.50000 0 0 2 0 ack_ 0
1.20000 0 0 2 0 ack_ 3
1.40000 0 0 2 0 ack_ 3
3.50000 0 0 2 0 ack_ 5
"""


def test_lockout_and_progress_from_ack_records(tmp_path):
    p = _write(tmp_path, "t6.tr", T6)
    vars_ = db.read_vartrace(p)
    out = m.lockout(vars_, 1.0, (0, 4))
    assert out.select("src_node", "src_port", "locked_slots", "longest_gap", "locked_out").row(0) == pytest.approx(
        (0, 0, 1, 2.3, True))
    assert m.lockout(p, 1.0, (0, 4)).equals(out)       # a file with only variable records
    # ack_ at 1.0 is 0 (the record @0.5), at 4.0 it is 5: 5 packets in 3 s.
    a = m.ack_progress(vars_, (1.0, 4.0))
    assert a.select("start", "end", "increase", "rate").row(0) == pytest.approx((0.0, 5.0, 5.0, 5 / 3))


# cwnd_ of two senders.
#   A = 0.0: 1 @0, 2 @1, 4 @2, 8 @2.5, 4 @2.8 (a decrease before start=3),
#            5 @3.5, 2.5 @4 (tooth), 3 @4.5, 1 @5 (tooth, coarse timeout),
#            1 @5.1 (equal: no tooth), 4 @6, 2 @7 (tooth)
#   B = 1.0: 1 @0, 10 @3, 5 @4.3 (tooth), 6 @5.5, 3 @6 (tooth), 8 @8, 4 @9 (tooth)
# From start=3: A has 3 teeth (1 timeout), B 3 teeth (no timeout).
# Clusters, granularity 1.5, all teeth: 4.0A 4.3B 5.0A 6.0B 7.0A 9.0B.
#   The cluster from 4.0 takes everything up to 5.5: 4.0A 4.3B 5.0A;
#   the next from 6.0 takes up to 7.5: 6.0B 7.0A; the last is 9.0B.
#   (Joining teeth closer than 1.5 to each other would give 2 clusters.)
#   A: own clusters {4.0, 5.0} {7.0} = 2; shared 2, alone 0.
#   B: own clusters {4.3} {6.0} {9.0} = 3; shared 2, alone 1.
T7 = """
0.00000 0 0 2 0 cwnd_ 1.000
0.00000 1 0 2 1 cwnd_ 1.000
1.00000 0 0 2 0 cwnd_ 2.000
2.00000 0 0 2 0 cwnd_ 4.000
2.50000 0 0 2 0 cwnd_ 8.000
2.80000 0 0 2 0 cwnd_ 4.000
3.00000 1 0 2 1 cwnd_ 10.000
3.50000 0 0 2 0 cwnd_ 5.000
4.00000 0 0 2 0 cwnd_ 2.500
4.30000 1 0 2 1 cwnd_ 5.000
4.50000 0 0 2 0 cwnd_ 3.000
5.00000 0 0 2 0 cwnd_ 1.000
5.10000 0 0 2 0 cwnd_ 1.000
5.50000 1 0 2 1 cwnd_ 6.000
6.00000 0 0 2 0 cwnd_ 4.000
6.00000 1 0 2 1 cwnd_ 3.000
7.00000 0 0 2 0 cwnd_ 2.000
8.00000 1 0 2 1 cwnd_ 8.000
9.00000 1 0 2 1 cwnd_ 4.000
"""


@pytest.fixture
def t7(tmp_path):
    return _write(tmp_path, "t7.tr", T7)


def test_teeth_and_timeouts(t7):
    out = m.teeth(t7, start=3.0)
    assert out.columns == ["src_node", "src_port", "teeth", "coarse_timeouts"]
    assert out.rows() == [(0, 0, 3, 1), (1, 0, 3, 0)]
    assert m.teeth(t7).rows() == [(0, 0, 4, 1), (1, 0, 3, 0)]          # the 2.8 decrease counts from 0
    assert m.teeth(t7, 3.0, 6.5).rows() == [(0, 0, 2, 1), (1, 0, 2, 0)]  # 4.0, 5.0 / 4.3, 6.0
    # a tooth compares with the record before it even when that is before start
    assert m.teeth(t7, 2.8).rows() == [(0, 0, 4, 1), (1, 0, 3, 0)]
    per = m.teeth(t7, 3.0, per_tooth=True).filter(src_node=0)
    assert per.select("time", "peak", "value", "timeout").rows() == [
        (4.0, 5.0, 2.5, False), (5.0, 3.0, 1.0, True), (7.0, 4.0, 2.0, False)]


def test_records_before_attach_are_no_sender(tmp_path):
    """ns-2 writes a variable traced before `attach-agent` with address -1
    (Dordal's basic2 does this for its second sender): no sender row."""
    p = _write(tmp_path, "t7b.tr", "0.00000 -1 -1 -1 -1 cwnd_ 1.000\n" + T7)
    assert m.teeth(p, start=3.0).rows() == [(0, 0, 3, 1), (1, 0, 3, 0)]


def test_teeth_clusters(t7):
    out = m.teeth(t7, 3.0, granularity=1.5)
    assert out.select("src_node", "clusters", "shared", "alone").rows() == [(0, 2, 2, 0), (1, 3, 2, 1)]
    c = m.loss_clusters(t7, 1.5, start=3.0)
    assert c.select("cluster", "start", "end", "events", "flows", "shared").rows() == [
        (0, 4.0, 5.0, 3, 2, True), (1, 6.0, 7.0, 2, 2, True), (2, 9.0, 9.0, 1, 1, False)]
    assert c["members"].to_list() == [["0.0", "1.0"], ["0.0", "1.0"], ["1.0"]]


# ---- TCP-friendly rate ---------------------------------------------------------------------


def test_tcp_friendly_rate_reproduces_seed000():
    # Seed 000, eq. 4.4/4.5: B = 512 bytes = 4096 bits, R = 30 ms,
    # p = 90 / 72583 = 0.00123996, sqrt(p) = 0.0352130;
    # 1.5 * sqrt(2/3) = 1.2247449; T = 1.2247449 * 4096 / (0.03 * 0.0352130)
    # = 5016.56 / 0.00105639 = 4.7488e6 b/s ~ 4.75 Mb/s ~ 1159 packets/s
    # (the paper: "4.75 Mbps ~ 1160 packets/s").
    t = m.tcp_friendly_rate(512, 0.030, 90 / 72583)
    assert t == pytest.approx(4.7488e6, rel=1e-4)
    assert round(t / 1e6, 2) == 4.75
    assert abs(t / 4096 - 1160) < 1
    # 1000-byte packets, 100 ms, p = 0.01: 1.2247449 * 8000 / (0.1 * 0.1) = 979795.9 b/s
    assert m.tcp_friendly_rate(1000, 0.1, 0.01) == pytest.approx(979795.9, rel=1e-7)


# ---- errors ---------------------------------------------------------------------------------


def test_errors_name_the_argument(t1, t3, tmp_path):
    df = db.read_trace(t1)
    with pytest.raises(ValueError, match=r"throughput\(\): events lacks column\(s\) 'size'"):
        m.throughput(df.drop("size"))
    with pytest.raises(ValueError, match=r"goodput\(\): window \(2, 1\) is empty"):
        m.goodput(df, (2, 1))
    with pytest.raises(ValueError, match=r"window must be a pair"):
        m.goodput(df, 3)
    with pytest.raises(ValueError, match=r"by must be 'flow', 'fid' or 'conn', got 'x'"):
        m.throughput(df, by="x")
    with pytest.raises(ValueError, match=r"by='flow' needs the flow column"):
        m.goodput(df, by="flow")
    with pytest.raises(ValueError, match=r"events must be a polars DataFrame"):
        m.throughput(42)
    with pytest.raises(ValueError, match=r"does not exist"):
        m.throughput(tmp_path / "missing.tr")
    with pytest.raises(ValueError, match=r"link \(7, 8\) has no events in the trace; traced links: \(1, 2\)"):
        m.queue_length(db.read_trace(t3).filter(pl.col("from_node") == 1), (7, 8))
    with pytest.raises(ValueError, match=r"link must be a pair"):
        m.time_average_queue(t3, 12)
    with pytest.raises(ValueError, match=r"give link or node, not both"):
        m.throughput(df, link=(1, 2), node=2)
    with pytest.raises(ValueError, match=r"unit must be 'packets' or 'bytes'"):
        m.time_average_queue(t3, (1, 2), unit="kb")
    with pytest.raises(ValueError, match=r"link_utilisation\(\): bandwidth"):
        m.link_utilisation(t3, (1, 2), "fast")
    with pytest.raises(ValueError, match=r"bandwidth \(bits/s\) must be positive"):
        m.link_utilisation(t3, (1, 2), 0)
    with pytest.raises(ValueError, match=r"jain\(\): values must be a non-empty"):
        m.jain([])
    with pytest.raises(ValueError, match=r"finite and non-negative"):
        m.jain([1, -1])
    with pytest.raises(ValueError, match=r"column 'nope' is not in the frame"):
        m.jain(m.goodput(df), "nope")
    with pytest.raises(ValueError, match=r"p \(drop rate\) must be in \(0, 1\]"):
        m.tcp_friendly_rate(512, 0.03, 0)
    with pytest.raises(ValueError, match=r"rtt \(seconds\) must be positive"):
        m.tcp_friendly_rate(512, -1, 0.1)
    with pytest.raises(ValueError, match=r"teeth\(\): vars has no 'cwnd_' records"):
        m.teeth(_write(tmp_path, "t6.tr", T6))
    with pytest.raises(ValueError, match=r"groups must be a non-empty mapping"):
        m.goodput_series(df, 1.0, groups={})
    with pytest.raises(ValueError, match=r"bin must be positive"):
        m.goodput_series(df, 0)
    with pytest.raises(ValueError, match=r"source must be 'events' or 'vars'"):
        m.lockout(t1, source="acks")


def test_empty_frames_are_refused():
    empty = pl.DataFrame(schema={"event": pl.String, "time": pl.Float64, "from_node": pl.Int32,
                                 "to_node": pl.Int32, "ptype": pl.String, "size": pl.Int32,
                                 "dst_node": pl.Int32, "fid": pl.Int32})
    with pytest.raises(ValueError, match=r"throughput\(\): events is empty"):
        m.throughput(empty)
    # With an explicit window an empty frame is simply zero flows.
    assert m.throughput(empty, (0, 1)).height == 0


# ---- edges of bins and slots, ACKs by their data connection ---------------------------------------

# Deliveries of fid 1 at 0.3 and 0.5 exactly: with a window from 0.1 and
# bins / slots of 0.1 s, (0.3 - 0.1) / 0.1 is 1.9999999999999998 in floating
# point; the delivery belongs to the bin [0.3, 0.4) all the same.
T8 = """
r 0.3 1 2 tcp 1000 ------- 1 0.0 2.0 0 1
r 0.5 1 2 tcp 1000 ------- 1 0.0 2.0 1 2
"""


def test_bins_and_slots_on_their_edges(tmp_path):
    p = _write(tmp_path, "t8.tr", T8)
    s = m.goodput_series(p, 0.1, (0.1, 0.7))
    # bins start at 0.1, 0.2, ..., 0.6: the deliveries are in bins 2 and 4
    assert s["packets"].to_list() == [0, 0, 1, 0, 1, 0]
    # 6 slots of 0.1 s, progress in 2 of them: 4 locked slots
    lo = m.lockout(p, 0.1, (0.1, 0.7))
    assert lo.select("slots", "locked_slots").row(0) == (6, 4)


# A data packet of 0.0 -> 2.0 and its ACK (2.0 -> 0.0) both wait in the
# queue of link 1 -> 2 (a shared link, as on a two-way path): uid 1 waits
# 1 s, the ACK (uid 2) 0.5 s.  With connection keys the ACK counts for the
# data connection 0.0 -> 2.0, as drops_and_marks counts it.
T9 = """
+ 1 1 2 tcp 1000 ------- 1 0.0 2.0 0 1
- 2 1 2 tcp 1000 ------- 1 0.0 2.0 0 1
+ 2 1 2 ack 40 ------- 1 2.0 0.0 0 2
- 2.5 1 2 ack 40 ------- 1 2.0 0.0 0 2
"""


def test_acks_count_for_their_data_connection(tmp_path):
    p = _write(tmp_path, "t9.tr", T9)
    out = m.queue_delay(p, (1, 2), by="conn")
    assert out.select("src_node", "src_port", "dst_node", "dst_port", "packets", "mean").rows() == [
        (0, 0, 2, 0, 2, 0.75)]
