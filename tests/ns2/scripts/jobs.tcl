# JoBS (Queue/JoBS) between two core nodes, four sources marked into classes
# 1-4 at the edge (Queue/Marker) and counted on the way out (Queue/Demarker).
# Mode from argv:
#   shared  one shared buffer, drops from the front, delay and loss ratios of 4
#           and 2 between classes 2-4, an absolute delay and loss bound on class 1,
#           drops for the bounds spread over all classes (adc_resolution_type_ 1);
#           CBR sources over the link rate
#   rate    separate buffers, absolute rates for classes 1 and 2, delay ratios of
#           2 between 2-4, sampling-period 5; CBR sources and a Reno flow in class 4
# JoBS's statistics file (jobs.tr), the core link's queue trace, the sinks' bytes
# every half second, the edge queues' counters at the end.
set mode [lindex $argv 0]
# (ns-2 gives JoBS's variables no defaults)
Queue/JoBS set drop_front_ false
Queue/JoBS set trace_hop_ false
Queue/JoBS set adc_resolution_type_ 0
Queue/JoBS set shared_buffer_ 0
Queue/JoBS set mean_pkt_size_ 4000
foreach v {1 2 3 4} {
    Queue/Marker set marker_arrvs${v}_ 0
    Queue/Demarker set demarker_arrvs${v}_ 0
}
set ns [new Simulator]
set qf [open q.tr w]
set rf [open rates.tr w]
foreach i {1 2} { set core($i) [$ns node] }
for {set i 1} {$i <= 4} {incr i} {
    set src($i) [$ns node]
    set dst($i) [$ns node]
}
$ns duplex-link $core(1) $core(2) 10Mb 1ms JoBS
$ns queue-limit $core(1) $core(2) 200
$ns queue-limit $core(2) $core(1) 200
set l [$ns link $core(1) $core(2)]
set q [$l queue]
set r [$ns link $core(2) $core(1)]
set rq [$r queue]
if {$mode == "shared"} {
    Queue/JoBS set shared_buffer_ 1
    foreach jq [list $q $rq] {
        $jq set shared_buffer_ true
        $jq set drop_front_ true
        $jq set adc_resolution_type_ 1
        $jq init-rdcs -1 4 4 4
        $jq init-rlcs -1 2 2 2
        $jq init-alcs 0.02 -1 -1 -1
        $jq init-adcs 0.004 -1 -1 -1
        $jq init-arcs -1 -1 -1 -1
        $jq sampling-period 1
    }
    set rate 3000000
} else {
    foreach jq [list $q $rq] {
        $jq init-rdcs -1 2 2 2
        $jq init-rlcs -1 -1 -1 -1
        $jq init-alcs -1 -1 -1 -1
        $jq init-adcs -1 -1 -1 -1
        $jq init-arcs 3000000 2500000 -1 -1
        $jq sampling-period 5
        $jq set mean_pkt_size_ 4000
    }
    set rate 2800000
}
$q link [$l link]
$q trace-file jobs.tr
$q id 1
$q initialize
$rq link [$r link]
$rq trace-file null
$rq id 2
$rq initialize
$ns trace-queue $core(1) $core(2) $qf

for {set i 1} {$i <= 4} {incr i} {
    $ns simplex-link $src($i) $core(1) 10Mb 1ms Marker
    $ns simplex-link $core(1) $src($i) 10Mb 1ms Demarker
    $ns simplex-link $core(2) $dst($i) 10Mb 1ms Demarker
    $ns simplex-link $dst($i) $core(2) 10Mb 1ms Marker
    foreach {a b} [list $src($i) $core(1) $core(1) $src($i) $core(2) $dst($i) $dst($i) $core(2)] {
        $ns queue-limit $a $b 300
    }
    foreach m [list [[$ns link $src($i) $core(1)] queue] [[$ns link $dst($i) $core(2)] queue]] {
        $m marker_type 1
        $m marker_class $i
    }
    foreach d [list [[$ns link $core(1) $src($i)] queue] [[$ns link $core(2) $dst($i)] queue]] {
        $d trace-file null
        $d id $i
    }
    set sink($i) [new Agent/LossMonitor]
    $ns attach-agent $dst($i) $sink($i)
    if {$mode == "rate" && $i == 4} {
        set tcp [new Agent/TCP/Reno]
        $tcp set window_ 40
        $tcp set packetSize_ 1000
        $ns attach-agent $src($i) $tcp
        set tsink [new Agent/TCPSink]
        $ns attach-agent $dst($i) $tsink
        $ns connect $tcp $tsink
        set ftp [$tcp attach-app FTP]
        $ns at 0.2 "$ftp start"
    }
    set u($i) [new Agent/UDP]
    $ns attach-agent $src($i) $u($i)
    $ns connect $u($i) $sink($i)
    $u($i) set packetSize_ [expr 300 + 100 * $i]
    set cbr($i) [new Application/Traffic/CBR]
    $cbr($i) set rate_ $rate
    $cbr($i) set packetSize_ [expr 500 + 200 * $i]
    $cbr($i) attach-agent $u($i)
    $ns at [expr 0.05 * $i] "$cbr($i) start"
}

proc record {} {
    global ns sink rf
    set now [$ns now]
    set line [format "%.2f" $now]
    for {set i 1} {$i <= 4} {incr i} {
        append line [format " %d %d" [$sink($i) set bytes_] [$sink($i) set nlost_]]
        $sink($i) set bytes_ 0
    }
    puts $rf $line
    $ns at [expr $now + 0.5] "record"
}
$ns at 0.0 "record"

proc finish {} {
    global ns qf rf src dst core
    $ns flush-trace
    close $qf
    close $rf
    for {set i 1} {$i <= 4} {incr i} {
        set m [[$ns link $src($i) $core(1)] queue]
        set d [[$ns link $core(2) $dst($i)] queue]
        puts "class $i marked [$m set marker_arrvs${i}_] out [$d set demarker_arrvs${i}_]"
    }
    exit 0
}
$ns at 3.0 "finish"
$ns run
