# Micro-benchmark of the OTcl implementation (not a test).
# Usage: python3 tests/otcl/bench.py   (or: ns tests/otcl/bench.tcl for the
# real OTcl inside ns-2, for comparison)
Class BFoo
Class BBar -superclass BFoo
BFoo instproc m {a} { return $a }
BFoo instproc iv1 {} { $self instvar x; return $x }
BFoo instproc iv3 {} { $self instvar x y z; return $x }
BFoo instproc nx {a} { return $a }
BBar instproc nx {a} { $self next $a }
BFoo instproc noop {} {}
BFoo instproc ivbase {} { return 1 }
BBar b
b set x 1; b set y 2; b set z 3
b proc pp {a} { return $a }
proc bench_report {label script n} {
    set t [lindex [uplevel 1 [list time $script $n]] 0]
    puts [format "%-34s %8.3f us" $label $t]
}
set n 200000
# warm up
b m 1; b iv1; b iv3; b nx 1; b pp 1; b set x; b set x 1
proc run_bench {n} {
    bench_report "instproc dispatch (b m 1)"        {b m 1} $n
    bench_report "method with instvar x"            {b iv1} $n
    bench_report "method with instvar x y z"        {b iv3} $n
    bench_report "method without instvar (base)"    {b ivbase} $n
    bench_report "next (b nx 1)"                    {b nx 1} $n
    bench_report "per-object proc (b pp 1)"         {b pp 1} $n
    bench_report "set read (b set x)"               {b set x} $n
    bench_report "set write (b set x 1)"            {b set x 1} $n
    bench_report "plain Tcl proc call"              {bench_plain 1} $n
}
proc bench_plain {a} { return $a }
run_bench $n
set t0 [clock microseconds]
for {set i 0} {$i < 2000} {incr i} { BFoo create bo$i }
set t1 [clock microseconds]
puts [format "%-34s %8.3f us" "object create" [expr {($t1-$t0)/2000.0}]]
for {set i 0} {$i < 2000} {incr i} { bo$i destroy }
set t2 [clock microseconds]
puts [format "%-34s %8.3f us" "object destroy" [expr {($t2-$t1)/2000.0}]]

# ----------------------------------------------------------------------
# split objects (only when tclobject.tcl is loaded); the backend here is a
# trivial Tcl one, so these numbers are the cost of the Tcl layer alone.
if {[info commands ::dumbbell::register_class] ne ""} {
    namespace eval ::benchbe { variable v; array set v {} }
    proc ::benchbe::shadow {o c a} { return BAgent }
    proc ::benchbe::boundvars {k} { return {window_ size_} }
    proc ::benchbe::get {o n} { return $::benchbe::v($o,$n) }
    proc ::benchbe::put {o n x} { set ::benchbe::v($o,$n) $x }
    proc ::benchbe::cmd {o args} { return ok }
    proc ::benchbe::delete {o} {}
    foreach n {shadow boundvars get cmd delete} {
        interp alias {} ::dumbbell::be::$n {} ::benchbe::$n
    }
    interp alias {} ::dumbbell::be::set {} ::benchbe::put
    ::dumbbell::register_class BAgent
    BAgent instproc iv {} { $self instvar window_; return $window_ }
    BAgent instproc ivplain {} { $self instvar plain_; return $plain_ }
    BAgent instproc m {} { return 1 }
    set a [new BAgent]
    $a set window_ 1
    $a set plain_ 1
    $a iv; $a ivplain; $a enginecmd
    proc run_split {a n} {
        bench_report "split: method dispatch"        [list $a m] $n
        bench_report "split: set bound var (read)"   [list $a set window_] $n
        bench_report "split: set plain var (read)"   [list $a set plain_] $n
        bench_report "split: method w/ instvar bound" [list $a iv] $n
        bench_report "split: method w/ instvar plain" [list $a ivplain] $n
        bench_report "split: engine cmd via unknown" [list $a enginecmd] $n
        bench_report "split: \$obj cmd ..."           [list $a cmd enginecmd] $n
    }
    run_split $a 100000
    set t0 [clock microseconds]
    for {set i 0} {$i < 2000} {incr i} { new BAgent }
    puts [format "%-34s %8.3f us" "split: new" \
              [expr {([clock microseconds] - $t0) / 2000.0}]]
}
