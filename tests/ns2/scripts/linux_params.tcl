set ns [new Simulator]
set n0 [$ns node]
set n1 [$ns node]
$ns duplex-link $n0 $n1 1Mb 10ms DropTail
set tcp [$ns create-connection TCP/Linux $n0 TCPSink $n1 0]
$tcp select_ca cubic
$tcp get_ca_param cubic
$tcp get_ca_param vegas
$tcp get_ca_param linux
$tcp set_ca_param cubic beta 700
$tcp get_ca_param cubic beta
$tcp get_ca_default_param cubic beta
$tcp set_ca_default_param vegas alpha 6
$tcp get_ca_default_param vegas alpha
$tcp get_ca_default_param linux tcp_max_burst
$tcp get_ca_param hybla
$tcp get_ca_param htcp
$tcp get_ca_param bic
$tcp get_ca_param illinois
puts [$tcp set next_pkts_in_flight_]
$ns at 1.0 "exit 0"
$ns run
