# Addresses (ns-2's tcl/lib/ns-address.tcl, routing/address.cc,
# addr-params.cc): the flat format every script starts with, and the
# hierarchical one (`$ns set-address-format hierarchical`, `node-config
# -addressType hierarchical`): three levels, domain.cluster.node, nodes made
# with `$ns node D.C.N`, routes computed per level (crates/engine/src/hier.rs)
# and addresses printed as D.C.N in the traces.
#
# Inside the engine a packet's address stays its node's id; what the script
# sees of a hierarchical address is ns-2's: `node-addr` is the string,
# `AddrParams addr2id` and an agent's `agent_addr_` and `dst_addr_` the
# packed number (domain, cluster and node fields at their shifts).

Class AddrParams
AddrParams set def_clusters 4
AddrParams set def_nodes 5
AddrParams set domain_num_ 1
Simulator set AddressFormat_ DEF

namespace eval ::dumbbell::addr {
    # ns-2's defaults: one level of 30 bits, the multicast bit above it
    variable hlevel 1
    variable shift; array set shift {1 0}
    variable mask; array set mask {1 1073741823}
    variable nodebits 30
}

AddrParams proc hlevel {} { return $::dumbbell::addr::hlevel }
AddrParams proc nodebits {} { return $::dumbbell::addr::nodebits }
AddrParams proc McastShift {} { return 30 }
AddrParams proc McastMask {} { return 1 }
AddrParams proc NodeShift {level} {
    if {![info exists ::dumbbell::addr::shift($level)]} {
        error "AddrParams NodeShift: no level $level (the address has [AddrParams hlevel])"
    }
    return $::dumbbell::addr::shift($level)
}
AddrParams proc NodeMask {level} {
    if {![info exists ::dumbbell::addr::mask($level)]} {
        error "AddrParams NodeMask: no level $level (the address has [AddrParams hlevel])"
    }
    return $::dumbbell::addr::mask($level)
}
AddrParams proc split-addrstr {addrstr} { split $addrstr . }

# The packed number of an address string (ns-2's `Address str2addr`).
AddrParams proc addr2id {addrstr} {
    if {![Simulator hier-addr?]} {
        return [expr {$addrstr & [AddrParams NodeMask 1] << [AddrParams NodeShift 1]}]
    }
    set a 0
    set i 1
    foreach part [::dumbbell::addr::parts $addrstr] {
        set a [expr {$a | (($part & [AddrParams NodeMask $i]) << [AddrParams NodeShift $i])}]
        incr i
    }
    return $a
}

AddrParams proc id2addr {addr} {
    set str {}
    for {set i 1} {$i <= [AddrParams hlevel]} {incr i} {
        lappend str [expr {($addr >> [AddrParams NodeShift $i]) & [AddrParams NodeMask $i]}]
    }
    return $str
}

# How many domains (level 0), clusters in the address's domain (1) or nodes
# in its cluster (2) the hierarchy has.
AddrParams proc elements-in-level? {nodeaddr level} {
    AddrParams instvar domain_num_ cluster_num_ nodes_num_
    set L [AddrParams split-addrstr $nodeaddr]
    switch -- $level {
        0 { return $domain_num_ }
        1 { return [lindex $cluster_num_ [lindex $L 0]] }
        2 {
            set index 0
            for {set c 0} {$c < [lindex $L 0]} {incr c} {
                incr index [lindex $cluster_num_ $c]
            }
            return [lindex $nodes_num_ [expr {$index + [lindex $L 1]}]]
        }
    }
}

# A hierarchical address's three parts, checked.
proc ::dumbbell::addr::parts {addrstr} {
    set L [split $addrstr .]
    set ok [expr {[llength $L] == [AddrParams hlevel]}]
    foreach p $L {
        if {![string is digit -strict $p]} { set ok 0 }
    }
    if {!$ok} {
        error "hierarchical address \"$addrstr\": expected [AddrParams hlevel] whole numbers from 0 separated by dots (domain.cluster.node)"
    }
    set i 1
    foreach p $L {
        if {$p > [AddrParams NodeMask $i]} {
            error "hierarchical address \"$addrstr\": part $i ($p) does not fit its [::dumbbell::addr::bits $i] bits (at most [AddrParams NodeMask $i])"
        }
        incr i
    }
    return $L
}

proc ::dumbbell::addr::bits {level} {
    set m [AddrParams NodeMask $level]
    set n 0
    while {$m > 0} { incr n; set m [expr {$m >> 1}] }
    return $n
}

Simulator proc address-format {} { Simulator set AddressFormat_ }
Simulator proc default-addr? {} { expr {[Simulator set AddressFormat_] eq "DEF"} }
Simulator proc hier-addr? {} { expr {[Simulator set AddressFormat_] eq "HIER"} }

# `set-address-format def`, `expanded` (obsolete: a notice, as in ns-2),
# `hierarchical` (three levels of 9, 11 and 11 bits) or `hierarchical 3 B1
# B2 B3` (the bits of each level).
Simulator instproc set-address-format {opt args} {
    switch -- $opt {
        def {
            set ::dumbbell::addr::hlevel 1
            array set ::dumbbell::addr::shift {1 0}
            array set ::dumbbell::addr::mask {1 1073741823}
            set ::dumbbell::addr::nodebits 30
            Simulator set AddressFormat_ DEF
        }
        expanded { puts "set-address-format expanded is obsoleted by 31-bit addressing." }
        hierarchical {
            if {[llength $args] == 0} {
                set levels 3
                set bits {9 11 11}
            } else {
                set levels [lindex $args 0]
                set bits [lrange $args 1 end]
            }
            if {$levels != 3} {
                ::dumbbell::unsupported "hierarchical addresses of $levels levels (ns-2 routes over three: domain.cluster.node)"
            }
            if {[llength $bits] != $levels} {
                error "set-address-format hierarchical $levels: expected $levels numbers of bits, got \"$bits\""
            }
            set total 0
            foreach b $bits {
                if {![string is digit -strict $b] || $b < 1} {
                    error "set-address-format hierarchical: bits per level \"$b\": expected a whole number from 1"
                }
                incr total $b
            }
            if {$total > 31} {
                error "set-address-format hierarchical: $total bits in all (\"$bits\"); an address has at most 31"
            }
            # ns-2 allocates the fields from bit 30 downwards
            set top 31
            set i 1
            foreach b $bits {
                set top [expr {$top - $b}]
                set ::dumbbell::addr::shift($i) $top
                set ::dumbbell::addr::mask($i) [expr {(1 << $b) - 1}]
                incr i
            }
            set ::dumbbell::addr::hlevel $levels
            set ::dumbbell::addr::nodebits $total
            Simulator set AddressFormat_ HIER
            # (the engine translates agents' addresses with them)
            set f {}
            for {set i 1} {$i <= 3} {incr i} {
                lappend f $::dumbbell::addr::shift($i) $::dumbbell::addr::mask($i)
            }
            eval [list [$self get-routelogic] cmd hier-format] $f
        }
        default { error "ns-address.tcl:set-address-format: Unknown address format $opt" }
    }
}

Simulator instproc get-node-id-by-addr {addr} {
    $self instvar Node_
    foreach id [lsort -integer [array names Node_]] {
        if {[$Node_($id) node-addr] eq $addr} { return $id }
    }
    error "get-node-id-by-addr:Cannot find node with given address"
}

Simulator instproc get-node-by-addr {addr} {
    return [$self get-node-by-id [$self get-node-id-by-addr $addr]]
}

# A node's (or LAN's) hierarchical address, given when it is made: the
# route logic routes by it and the traces print it.
proc ::dumbbell::addr::assign {obj addr} {
    ::dumbbell::addr::parts $addr
    $obj set address_ $addr
    [[Simulator instance] get-routelogic] cmd hier-addr [$obj id] $addr
}

# ns-2's compute-hier-routes: the hierarchy (AddrParams domain_num_,
# cluster_num_, nodes_num_, with ns-2's defaults and its notices when the
# last two are missing), then every link in the link array's order, then
# the routes.
Simulator instproc dumbbell-hier-routes {} {
    $self instvar link_
    set r [$self get-routelogic]
    if {![info exists link_]} { return }
    AddrParams instvar domain_num_ cluster_num_ nodes_num_
    if {![info exists cluster_num_]} {
        set def [AddrParams set def_clusters]
        puts "Default value for cluster_num set to $def\n"
        set cluster_num_ {}
        for {set i 0} {$i < $domain_num_} {incr i} { lappend cluster_num_ $def }
    }
    if {![info exists nodes_num_]} {
        set def [AddrParams set def_nodes]
        puts "Default value for nodes_num set to $def\n"
        set nodes_num_ {}
        foreach c [lrange $cluster_num_ 0 [expr {$domain_num_ - 1}]] {
            for {set i 0} {$i < $c} {incr i} { lappend nodes_num_ $def }
        }
    }
    if {![string is digit -strict $domain_num_] || $domain_num_ < 1} {
        error "AddrParams domain_num_ \"$domain_num_\": expected the number of domains, a whole number from 1"
    }
    if {[llength $cluster_num_] != $domain_num_} {
        error "AddrParams cluster_num_ \"$cluster_num_\": expected one number of clusters for each of the $domain_num_ domains (domain_num_)"
    }
    set total 0
    foreach c $cluster_num_ {
        if {![string is digit -strict $c]} {
            error "AddrParams cluster_num_ \"$cluster_num_\": expected whole numbers"
        }
        incr total $c
    }
    if {[llength $nodes_num_] != $total} {
        error "AddrParams nodes_num_ \"$nodes_num_\": expected one number of nodes for each of the $total clusters (cluster_num_ $cluster_num_)"
    }
    foreach c $nodes_num_ {
        if {![string is digit -strict $c]} {
            error "AddrParams nodes_num_ \"$nodes_num_\": expected whole numbers"
        }
    }
    $r cmd hier-topo $cluster_num_ $nodes_num_
    foreach ln [array names link_] {
        lassign [split $ln :] src dst
        if {[$link_($ln) up?] eq "up"} {
            $r cmd hier-insert $src $dst [$link_($ln) cost?]
        } else {
            $r cmd hier-reset $src $dst
        }
    }
    $r cmd hier-compute
}
