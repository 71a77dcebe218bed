# errmodel.tcl -- deterministic and random loss injection.
#
#   s0, s1, s2 --(10Mb, 2/4/6ms)-- r ==(2Mb, 15ms)== d
#
# An ErrorModule (Fid classifier) at the head of r->d binds
#   flow 0 to ErrorModel/Periodic (offset_/period_ from the command line,
#          optionally in bytes),
#   flow 1 to ErrorModel/List (packets 5 17 18 40),
#   other flows: "default pass".
# After the r->d link (insert-linkloss) a uniform ErrorModel loses each
# packet of every flow with probability `rate` (drawn from the default RNG);
# with markecn=1 it CE-marks instead (flow 2 is ECN-capable and RED is not
# involved).  Flows: 0 Reno, 1 Newreno, 2 Tahoe with ecn_ 1.
#
# Usage: ns errmodel.tcl offset period unit(pkt|byte) rate markecn [endtime]
# Writes err.tr (trace-all).

if { $argc < 5 } {
    puts stderr "usage: ns errmodel.tcl offset period unit rate markecn \[endtime\]"
    exit 1
}
lassign $argv offset period unit rate markecn
set endtime 10
if { $argc >= 6 } { set endtime [lindex $argv 5] }

set ns [new Simulator]
set tf [open err.tr w]
$ns trace-all $tf

set r [$ns node]
set d [$ns node]
$ns duplex-link $r $d 2Mb 15ms DropTail
$ns queue-limit $r $d 20

set em [new ErrorModule Fid]
set per [new ErrorModel/Periodic]
$per unit $unit
$per set offset_ $offset
$per set period_ $period
[$ns link $r $d] errormodule $em
$em insert $per
$em bind $per 0
set lst [new ErrorModel/List]
puts "droplist entries: [$lst droplist {40 5} 18 17]"
$em insert $lst
$em bind $lst 1
$em default pass
puts "models: [llength [$em errormodels]] unit: [$per unit]"

set loss [new ErrorModel]
$loss set rate_ $rate
$loss set markecn_ $markecn
[$ns link $r $d] insert-linkloss $loss

set types {TCP/Reno TCP/Newreno TCP}
for {set i 0} {$i < 3} {incr i} {
    set s($i) [$ns node]
    $ns duplex-link $s($i) $r 10Mb [expr {2 + 2 * $i}]ms DropTail
    set tcp($i) [$ns create-connection [lindex $types $i] $s($i) TCPSink $d $i]
    $tcp($i) set window_ 30
    if {$i == 2} { $tcp($i) set ecn_ 1 }
    set ftp($i) [$tcp($i) attach-app FTP]
    $ns at [expr {0.1 * $i}] "$ftp($i) start"
}

proc finish {} {
    global ns tf tcp
    $ns flush-trace
    close $tf
    for {set i 0} {$i < 3} {incr i} {
        puts "flow $i ack [$tcp($i) set ack_] nrexmitpack [$tcp($i) set nrexmitpack_] necn [$tcp($i) set necnresponses_]"
    }
    exit 0
}
$ns at $endtime "finish"
$ns run
