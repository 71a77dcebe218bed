"""The nstrace interface of Dordal's chapter (seed 002, 31.2.4)."""

import gzip
import importlib
from pathlib import Path

import pytest

from dumbbell import nstrace

ROOT = Path(__file__).resolve().parents[2]

SAMPLE = """\
0.00000  0  0  -1 -1 cwnd_ 1.000 
+ 0.1 0 1 tcp 40 ------- 0 0.0 2.0 0 0
- 0.1 0 1 tcp 40 ------- 0 0.0 2.0 0 0

0.12000  0  0  2  0 ack_ 3
r 0.2108 1 2 tcp 1000 ---A--- 7 0.3 2.1 12 34
d 0.5 1 2 cbr 210 ------- 3 4 5 -1 99
"""


@pytest.fixture
def sample(tmp_path):
    p = tmp_path / "s.tr"
    p.write_text(SAMPLE)
    yield p
    nstrace.nsclose()


def test_records_and_types(sample):
    nstrace.nsopen(str(sample))
    assert not nstrace.isEOF()
    assert nstrace.isVar() and not nstrace.isEvent()
    assert nstrace.getVar() == (0.0, 0, 0, -1, -1, "cwnd_", 1.0)
    assert nstrace.isEvent()
    assert nstrace.getEvent() == ("+", 0.1, 0, 1, "tcp", 40, "-------", 0, (0, 0), (2, 0), 0, 0)
    nstrace.skipline()                       # the "-" line
    # the blank line is not a record
    rec = nstrace.getVar()
    assert rec == (0.12, 0, 0, 2, 0, "ack_", 3.0) and isinstance(rec[6], float)
    ev = nstrace.getEvent()
    assert ev[6] == "---A---" and ev[8] == (0, 3) and ev[9] == (2, 1) and ev[10:] == (12, 34)
    # an address without a port: port 0
    ev = nstrace.getEvent()
    assert ev[0] == "d" and ev[4] == "cbr" and ev[8] == (4, 0) and ev[9] == (5, 0) and ev[10] == -1
    assert nstrace.isEOF()
    assert not nstrace.isEvent() and not nstrace.isVar()
    with pytest.raises(EOFError):
        nstrace.getEvent()


def test_unconsumed_lines_are_skipped_by_iseof(sample):
    """A loop that reads only events (the book's dup_counter, queuesize) ends."""
    nstrace.nsopen(str(sample))
    events = []
    n = 0
    while not nstrace.isEOF():
        n += 1
        assert n < 50, "loop does not advance"
        if nstrace.isEvent():
            events.append(nstrace.getEvent()[0])
    assert events == ["+", "-", "r", "d"]


def test_malformed_line_names_file_and_line(tmp_path):
    p = tmp_path / "bad.tr"
    p.write_text("+ 0.1 0 1 tcp forty ------- 0 0.0 2.0 0 0\n")
    nstrace.nsopen(str(p))
    assert nstrace.isEvent()
    with pytest.raises(ValueError, match=r"bad.tr:1: getEvent\(\)"):
        nstrace.getEvent()
    nstrace.nsclose()
    with pytest.raises(RuntimeError, match="nsopen"):
        nstrace.isEOF()


def test_check_mode_rejects_foreign_records(tmp_path):
    # A wireless (old-format) record starts with an event letter too.
    p = tmp_path / "w.tr"
    p.write_text("s 1.0 _0_ AGT  --- 0 cbr 512 [0 0 0 0] ------- [0:0 1:0 32 0] [0] 0 0\n"
                 "r 0.2 1 2 tcp 1000 ------- 0 0.0 2.0 3 4\n")
    nstrace.nsopen(str(p), check=True)
    assert not nstrace.isEvent() and not nstrace.isVar()
    nstrace.skipline()
    assert nstrace.isEvent()
    assert nstrace.getEvent()[10] == 3
    nstrace.nsclose()


def test_book_dup_counter_on_basic1(tmp_path):
    """31.2.4: on basic1's trace, 13 packets are delivered twice, seqnos 43..62."""
    tr = tmp_path / "basic1.tr"
    with gzip.open(ROOT / "tests/ns2/fixtures/basic1_10/basic1.tr.gz", "rb") as f:
        tr.write_bytes(f.read())
    nstrace.nsopen(str(tr))
    counts = {}
    while not nstrace.isEOF():
        if nstrace.isEvent():
            (event, time, sendnode, dest, _, size, _, flow, _, _, seqno, _) = nstrace.getEvent()
            if event == "r" and dest == 2 and size >= 1000 and flow == 0:
                counts[seqno] = counts.get(seqno, 0) + 1
    nstrace.nsclose()
    twice = sorted(s for s, c in counts.items() if c > 1)
    assert twice == [43, 45, 47, 49, 51, 53, 55, 57, 58, 59, 60, 61, 62]
    assert all(counts[s] == 2 for s in twice)


def test_top_level_module_is_the_same():
    top = importlib.import_module("nstrace")
    assert top.nsopen is nstrace.nsopen and top.getEvent is nstrace.getEvent


def test_context_manager(sample):
    with nstrace.NsTrace(str(sample)) as t:
        kinds = []
        while not t.isEOF():
            kinds.append("v" if t.isVar() else "e" if t.isEvent() else "?")
            t.skipline()
    assert kinds == ["v", "e", "e", "v", "e", "e"]


def test_a_file_that_fails_to_open_leaves_none_current(sample, tmp_path):
    nstrace.nsopen(str(sample))
    with pytest.raises(OSError):
        nstrace.nsopen(str(tmp_path / "missing.tr"))
    with pytest.raises(RuntimeError, match="nsopen"):
        nstrace.isEOF()


def test_getvar_names_file_and_line_of_a_malformed_record(tmp_path):
    p = tmp_path / "v.tr"
    p.write_text("0.1 0 0 2 0 cwnd_ 1.0\n0.2 0 0 2 0 cwnd_ lots\n")
    nstrace.nsopen(str(p))
    nstrace.getVar()
    with pytest.raises(ValueError, match=r"v.tr:2: getVar\(\)"):
        nstrace.getVar()
    nstrace.nsclose()
