# Snoop (LL/LLSnoop) at a base station: A -- B ==LAN== C -- D, the LAN's
# interface at B a snoop link layer, the link C -> D (and with "both" the
# link D -> C too) losing a share of its packets.  TCP from A to D (and with
# "both" from D to A as well, its data coming up through the snoop link
# layer): snoop caches the segments it sends towards C, retransmits them
# locally on duplicate ACKs or on its timer, holds back the duplicates its
# retransmission answers, and marks ACKs going down (ELN) when data from
# D's side went missing.
# Usage: ns snoop.tcl LOSS% TCP(Reno|Newreno|Tahoe) fwd|both STOP [MAXBUFS] [MAC] [LRU]
# (with LRU 1 a full cache makes room for a new segment: ns-2's "snoop
# full, making room" on stdout)
lassign $argv loss tcptype dir stop maxbufs mac lru
if {$lru eq ""} { set lru 0 }
Snoop set lru_ $lru
if {$maxbufs eq ""} { set maxbufs 0 }
if {$mac eq ""} { set mac Mac/802_3 }
Agent/TCP set tcpTick_ 0.1
Agent/TCP set minrto_ 1
Snoop set maxbufs_ $maxbufs
set ns [new Simulator]
set tr [open snoop.tr w]
$ns trace-all $tr
set A [$ns node]
set B [$ns node]
set C [$ns node]
set D [$ns node]
$ns duplex-link $A $B 10Mb 5ms DropTail
$ns duplex-link $C $D 2Mb 20ms DropTail
$ns queue-limit $C $D 20
set lan [$ns make-lan [list $C] 11Mb 2ms LL Queue/DropTail $mac]
$lan addNode [list $B] 11Mb 2ms LL/LLSnoop Queue/DropTail $mac
proc lossy {from to loss seed} {
    global ns
    set err [new ErrorModel]
    $err drop-target [new Agent/Null]
    set rng [new RNG]
    $rng seed $seed
    set rand [new RandomVariable/Uniform]
    $rand set min_ 0
    $rand set max_ 100
    $rand use-rng $rng
    $err ranvar $rand
    $err set rate_ $loss
    [$ns link $from $to] errormodule $err
}
lossy $C $D $loss 7
if {$dir eq "both"} { lossy $D $C [expr {$loss / 2.0}] 11 }
proc flow {src dst type start win} {
    global ns
    if {$type eq "Tahoe"} { set tcp [new Agent/TCP] } else { set tcp [new Agent/TCP/$type] }
    $tcp set window_ $win
    set sink [new Agent/TCPSink]
    $ns attach-agent $src $tcp
    $ns attach-agent $dst $sink
    $ns connect $tcp $sink
    set ftp [new Application/FTP]
    $ftp attach-agent $tcp
    $ns at $start "$ftp start"
    return $tcp
}
set t1 [flow $A $D $tcptype 0.1 16]
if {$dir eq "both"} { set t2 [flow $D $A $tcptype 0.3 8] }
$ns at $stop "finish"
proc finish {} {
    global ns tr t1
    $ns flush-trace
    close $tr
    puts "ack [$t1 set ack_] rtx [$t1 set nrexmit_]"
    exit 0
}
$ns run
