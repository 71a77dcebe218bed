# TFRC (Agent/TFRC, Agent/TFRCSink) scenarios for the differential corpus.
#   ns tfrc.tcl MODE
# Every mode traces all links to out.tr and prints the senders' counters
# every second.  Modes: basic, red_ecn, ftp, cbr, telnet, ewma, rbph, ebph,
# printloss, short3, voip, overhead, conservative, nofeedback, restart,
# params.

set mode [lindex $argv 0]
set ns [new Simulator]
set f [open out.tr w]
$ns trace-all $f

set s1 [$ns node]
set s2 [$ns node]
set r1 [$ns node]
set r2 [$ns node]
set d1 [$ns node]
set d2 [$ns node]
set q DropTail
if {$mode == "red_ecn" || $mode == "overhead"} {
    set q RED
    Queue/RED set setbit_ true
    Queue/RED set thresh_ 5
    Queue/RED set maxthresh_ 15
}
$ns duplex-link $s1 $r1 10Mb 2ms DropTail
$ns duplex-link $s2 $r1 10Mb 3ms DropTail
$ns duplex-link $r1 $r2 1.5Mb 20ms $q
$ns queue-limit $r1 $r2 20
$ns duplex-link $r2 $d1 10Mb 4ms DropTail
$ns duplex-link $r2 $d2 10Mb 5ms DropTail

proc report {t1 label} {
    global ns
    puts "[$ns now] $label [$t1 set ndatapack_] [$t1 set ndatabytes_] [$t1 set true_loss_rate_] [format %.6g [$t1 set rate_]]"
    $ns at [expr [$ns now] + 1.0] "report $t1 $label"
}

# The link r1-r2 drops the packets numbered in $list (of all it carries).
proc droplist {list} {
    global ns r1 r2
    set em [new ErrorModule Fid]
    set link [$ns link $r1 $r2]
    $link errormodule $em
    $em default pass
    set emod [$link errormodule]
    set m [new ErrorModel/List]
    $m unit pkt
    $m droplist $list
    $emod insert $m
    $emod bind $m 0
}

set stop 12.0
switch $mode {
    basic {
        set t1 [$ns create-connection TFRC $s1 TFRCSink $d1 1]
        set t2 [$ns create-connection TFRC $s2 TFRCSink $d2 2]
        $ns at 0.0 "$t1 start"
        $ns at 3.0 "$t2 start"
        $ns at 9.0 "$t2 stop"
    }
    red_ecn {
        Agent/TFRC set ecn_ 1
        set t1 [$ns create-connection TFRC $s1 TFRCSink $d1 1]
        set tcp [$ns create-connection TCP/Reno $s2 TCPSink $d2 2]
        $tcp set ecn_ 1
        set ftp [$tcp attach-app FTP]
        $ns at 0.0 "$t1 start"
        $ns at 1.0 "$ftp start"
    }
    ftp {
        Agent/TFRC set SndrType_ 1
        set t1 [$ns create-connection TFRC $s1 TFRCSink $d1 1]
        set ftp [$t1 attach-app FTP]
        $ns at 0.5 "$ftp start"
        set t2 [$ns create-connection TFRC $s2 TFRCSink $d2 2]
        $t2 set SndrType_ 0
        $ns at 2.0 "$t2 start"
    }
    cbr {
        Agent/TFRC set SndrType_ 1
        Agent/TFRC set packetSize_ 500
        set t1 [$ns create-connection TFRC $s1 TFRCSink $d1 1]
        set cbr [new Application/Traffic/CBR]
        $cbr set packetSize_ 500
        $cbr attach-agent $t1
        $cbr set interval_ 0.01
        $ns at 0.1 "$cbr start"
        $ns at 3.0 "$cbr set interval_ 0.002"
        $ns at 5.0 "$cbr stop"
        $ns at 7.0 "$cbr start"
    }
    telnet {
        Agent/TFRC set SndrType_ 1
        set t1 [$ns create-connection TFRC $s1 TFRCSink $d1 1]
        set tel [$t1 attach-app Telnet]
        $tel set interval_ 0.05
        $ns at 0.1 "$tel start"
        set t2 [$ns create-connection TFRC $s2 TFRCSink $d2 2]
        $t2 set SndrType_ 1
        $t2 set oldCode_ true
        set tel2 [$t2 attach-app Telnet]
        $tel2 set interval_ 0.2
        $ns at 0.3 "$tel2 start"
    }
    ewma - rbph - ebph {
        Agent/TFRCSink set algo_ [expr {$mode == "ewma" ? 2 : ($mode == "rbph" ? 3 : 4)}]
        droplist {20 21 60 200 201 202 400 700 701 900}
        set t1 [$ns create-connection TFRC $s1 TFRCSink $d1 1]
        $ns at 0.0 "$t1 start"
    }
    printloss {
        Agent/TFRCSink set printLoss_ 1
        Agent/TFRCSink set ShortIntervals_ 1
        Agent/TFRCSink set smooth_ 0
        droplist {30 31 32 90 250 251 500 800}
        set t1 [$ns create-connection TFRC $s1 TFRCSink $d1 1]
        $ns at 0.0 "$t1 start"
    }
    short3 {
        Agent/TFRCSink set printLoss_ 1
        Agent/TFRCSink set ShortIntervals_ 3
        Agent/TFRCSink set discount_ 0
        droplist {30 31 32 33 90 91 250 251 500 800 801 802}
        set t1 [$ns create-connection TFRC $s1 TFRCSink $d1 1]
        $ns at 0.0 "$t1 start"
    }
    voip {
        Agent/TFRC set voip_ 1
        Agent/TFRC set packetSize_ 100
        Agent/TFRC set voip_max_pkt_rate_ 50
        set t1 [$ns create-connection TFRC $s1 TFRCSink $d1 1]
        set t2 [$ns create-connection TFRC $s2 TFRCSink $d2 2]
        $t2 set voip_ 0
        $t2 set useHeaders_ false
        $ns at 0.0 "$t1 start"
        $ns at 0.5 "$t2 start"
        set stop 4.0
    }
    overhead {
        Agent/TFRC set overhead_ 0.3
        Agent/TFRC set ca_ 0
        Agent/TFRC set df_ 0.25
        set t1 [$ns create-connection TFRC $s1 TFRCSink $d1 1]
        set t2 [$ns create-connection TFRC $s2 TFRCSink $d2 2]
        $ns at 0.0 "$t1 start"
        $ns at 0.7 "$t2 start"
    }
    conservative {
        Agent/TFRC set conservative_ true
        Agent/TFRC set scmult_ 1.2
        Agent/TFRC set maxHeavyRounds_ 1
        set t1 [$ns create-connection TFRC $s1 TFRCSink $d1 1]
        set udp [$ns create-connection UDP $s2 Null $d2 2]
        set cbr [$udp attach-app Traffic/CBR]
        $cbr set rate_ 1.4Mb
        $ns at 0.0 "$t1 start"
        $ns at 4.0 "$cbr start"
        $ns at 8.0 "$cbr stop"
    }
    nofeedback {
        # The reverse path goes down for two seconds: no reports, the
        # no-feedback timer halves the rate.
        set t1 [$ns create-connection TFRC $s1 TFRCSink $d1 1]
        $ns at 0.0 "$t1 start"
        $ns rtmodel-at 3.0 down $r2 $r1
        $ns rtmodel-at 5.0 up $r2 $r1
    }
    restart {
        Agent/TFRC set rate_init_option_ 1
        Agent/TFRC set rate_init_ 1
        set t1 [$ns create-connection TFRC $s1 TFRCSink $d1 1]
        $ns at 0.0 "$t1 start"
        $ns at 3.0 "$t1 stop"
        $ns at 6.0 "$t1 start"
    }
    params {
        Agent/TFRCSink set NumFeedback_ 3
        Agent/TFRCSink set PreciseLoss_ 0
        Agent/TFRCSink set discount_ 0
        Agent/TFRCSink set NumSamples_ 4
        Agent/TFRC set bval_ 2
        Agent/TFRC set minrto_ 0.5
        Agent/TFRC set ssmult_ 1.5
        Agent/TFRC set slow_increase_ 0
        Agent/TFRC set InitRate_ 1000
        droplist {40 41 120 300 301 600}
        set t1 [$ns create-connection TFRC $s1 TFRCSink $d1 1]
        set t2 [$ns create-connection TFRC $s2 TFRCSink $d2 2]
        $ns at 0.0 "$t1 start"
        $ns at 1.0 "$t2 start"
        puts "[$t1 set maxqueue_] [Agent/TFRC set maxqueue_] [$t2 set rate_init_option_]"
    }
    default {
        puts "unknown mode $mode"
        exit 2
    }
}
report $t1 t1
$ns at $stop "close $f; exit 0"
$ns run
