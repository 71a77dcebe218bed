# A hash classifier (an ErrorModule's) that meets a flow it has no entry for:
# ns-2's Classifier::find calls `unknown-flow`, looks again, calls `no-slot`,
# and for slot -1 classifies once more before dropping the packet.
#   ns hash_miss.tcl KEY MODE
# KEY: Fid, Dest, SrcDest or SrcDestFid (the ErrorModule's classifier)
# MODE: default   - ErrorModule's unknown-flow warning, then the default
#                   no-slot handler: dump, exit 1
#       bind      - unknown-flow binds the flow to a lossless model: the
#                   packet that revealed it goes on
#       quiet     - no-slot only prints: every packet of the flow is dropped
#       patch     - no-slot binds the flow: the second look places the packet
set key [lindex $argv 0]
set mode [lindex $argv 1]
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set em [new ErrorModule $key]
set e1 [new ErrorModel]
$e1 set rate_ 0.5
$e1 unit pkt
$em insert $e1
$em bind $e1 7
$ns lossmodel $em $n0 $n1
set cl [$em cmd classifier]
set e2 [new ErrorModel]
$e2 set rate_ 0.0
$e2 unit pkt
$e2 target [$e1 target]
$e2 drop-target [$e1 drop-target]
switch $mode {
    bind {
        $cl proc unknown-flow {src dst fid} {
            global e2 ns
            puts "[$ns now] unknown-flow $src $dst $fid"
            $self set-hash auto $src $dst $fid [$self installNext $e2]
        }
    }
    quiet {
        $cl proc no-slot {slot} { global ns; puts "[$ns now] no-slot $slot" }
    }
    patch {
        $cl proc no-slot {slot} {
            global ns e2
            puts "[$ns now] no-slot $slot"
            $self set-hash auto 0 1 3 [$self installNext $e2]
        }
    }
}
# flow 3 has no entry; flow 7 goes to the lossy model
foreach {fid at} {3 0.1 7 0.105} {
    set udp [new Agent/UDP]
    $udp set fid_ $fid
    $ns attach-agent $n0 $udp
    set null [new Agent/Null]
    $ns attach-agent $n1 $null
    $ns connect $udp $null
    set cbr [new Application/Traffic/CBR]
    $cbr attach-agent $udp
    $ns at $at "$cbr start"
}
$ns at 0.5 "puts \"classifier mask [$cl set mask_] shift [$cl set shift_]\"; $ns flush-trace; exit 0"
$ns run
