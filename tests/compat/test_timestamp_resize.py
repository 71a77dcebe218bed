"""A TCP sender's timestamp table that grows (`bugFix_ts_`): ns-2's
TcpAgent::output prints `%p resizing timestamp table` on C's stdout, its
own address, different in every run; Dumbbell prints the same line with an
address made from the agent (the same in every run).  tests/random's
check.py compares such lines with the address masked (found by `check.py
--linux` seed 9115, where Dumbbell had written a warning on stderr)."""

from __future__ import annotations

import re

from tclrun import run

SCRIPT = """# A sender whose timestamp table (bugFix_ts_) must grow: more than 90% of
# its 100 entries in flight.  ns-2's TcpAgent prints its own address then.
set ns [new Simulator]
set a [$ns node]; set b [$ns node]
$ns duplex-link $a $b 100Mb 100ms DropTail
$ns queue-limit $a $b 1000
set tcp [new Agent/TCP/Linux]
$tcp set window_ 400
$tcp set timestamps_ true
$tcp set bugFix_ts_ true
$ns attach-agent $a $tcp
set sink [new Agent/TCPSink/Sack1]
$sink set ts_echo_rfc1323_ true
$ns attach-agent $b $sink
$ns connect $tcp $sink
set ftp [$tcp attach-app FTP]
$ns at 0.1 "$ftp start"
$ns at 3 {puts "ack [$tcp set ack_] cwnd [$tcp set cwnd_]"; exit 0}
$ns run
"""

# `ns s.tcl` (ns-2 2.35) on 2026-11-29: its stdout, its address masked
NS2 = """ack 2924 cwnd 406.268
0xADDRESS resizing timestamp table
0xADDRESS resizing timestamp table
0xADDRESS resizing timestamp table
"""


def test_the_resize_line_is_ns2s_with_a_fixed_address(tmp_path):
    r = run(tmp_path, SCRIPT)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    assert re.sub(r"(?m)^0x[0-9a-f]+ ", "0xADDRESS ", r.stdout) == NS2
    again = run(tmp_path, SCRIPT)
    assert again.stdout == r.stdout, "the address is the same in every run"
