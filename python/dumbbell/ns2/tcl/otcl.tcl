# otcl.tcl -- the OTcl object system (as used by ns-2 2.35) in pure Tcl 8.6.
#
# Provides the classes Object and Class with OTcl's semantics: instprocs,
# per-object procs, OTcl's class precedence order, "$self next", Object's
# -option init processing, instvar, set/unset/array, the info
# introspection options, unknown handling, and OTcl's error messages.
#
# How it works
# ------------
# * Every object is a command: an alias "::name" -> "<ensemble> name".
#   The ensemble belongs to the object's class (shared by all instances
#   of the class) or, for objects that have per-object procs, to the object
#   itself.  Each ensemble has "-parameters self", so a call
#       name method a b
#   becomes
#       {*}$prefix name a b
#   where $prefix is the map entry for "method".  Map entries are filled
#   lazily by the ensemble's -unknown handler (::otcl::_::Miss), which
#   resolves the method through the per-object procs and the class
#   precedence list; redefinitions drop the affected entries again.
#   Dispatch of a cached method therefore runs entirely in C.
# * An instproc "m" of class C is the Tcl proc "::otcl::C instproc m" with
#   the formal arguments "class proc self <user args>" and its map prefix is
#   {"::otcl::C instproc m" C m}: the method body sees $self, $class and
#   $proc exactly as in OTcl.  Procs live in the namespace ::otcl, as in
#   OTcl (where they are ::otcl::p<N>), so a method body runs with
#   [namespace current] == ::otcl.  A per-object proc is
#   "::otcl::obj proc m" with class "".
# * Built-in methods (init, destroy, set, instvar, ...) are Tcl procs in
#   ::otcl::_ (Object.set, Class.create, ...) taking "self args".
# * Instance variables of object O live in the namespace ::otcl::o::<n>;
#   instvar links them into the caller's frame with "namespace upvar".
# * Method bodies are compiled with one rewrite: a line that is just
#   "$self instvar a b c" becomes an inline test plus a compiled
#   "namespace upvar" (see ::otcl::_::Rewrite); [info instbody] and
#   [info body] still return the original text.
#
# All bookkeeping lives in ::otcl::_ (nothing but method procs is ever put
# into ::otcl itself, so method bodies cannot accidentally resolve helper
# commands).

namespace eval ::otcl {}
namespace eval ::otcl::o {}
namespace eval ::otcl::api {}
namespace eval ::otcl::E {}
namespace eval ::otcl::_ {
    variable nobj 0          ;# counter for variable namespaces
    variable nens 0          ;# counter for dispatch ensembles
    variable cvepoch 0       ;# bumped when a class-level variable may change
    variable mepoch 0        ;# bumped when methods, the hierarchy, an object's
                             ;# class or its per-object procs change
    variable cvwatch 0       ;# 1: class-level set/unset bump cvepoch only
    variable cvvars          ;#    for the variables named in cvvars
    variable ns              ;# object -> variable namespace
    variable cls             ;# object -> class
    variable isclass         ;# class -> 1
    variable ens             ;# class -> shared ensemble (created lazily)
    variable priv            ;# object -> private ensemble
    variable ensof           ;# ensemble -> {c Class} or {o object}
    variable procs           ;# object -> dict: method -> entry
    variable iprocs          ;# class -> dict: method -> entry
    variable supers          ;# class -> superclasses, declared order
    variable subs            ;# class -> direct subclasses, newest first
    variable prec            ;# class -> precedence list (cache, incl. class)
    variable inst            ;# class -> dict: instance -> ""
    variable nc              ;# next-method cache
    variable auto            ;# procs that are autoload stubs
    variable ivf             ;# objects whose instvar may be inlined
    variable lazy            ;# method procs not compiled yet: {argl body}
    variable deferprocs 0    ;# 1: DefProc makes no stub proc (Compile will)
    variable hepoch 0        ;# bumped when a superclass link changes
    variable depcache        ;# class -> {hepoch dependents}
    variable allocof         ;# class -> {mepoch class-with-alloc alloc-entry}
    variable ivplain         ;# class -> {mepoch prefix-of-instvar}
    variable initsuper       ;# metaclass -> {mepoch init-and-superclass-built-in}
    # Arrays of per-class caches checked against mepoch (InvalClass drops a
    # class's entries where it does not bump mepoch; tclobject.tcl and the
    # library add theirs).
    # Writers of these set cached(class).
    variable classcaches {::otcl::_::allocof ::otcl::_::ivplain ::otcl::_::initsuper
                          ::otcl::_::infoimpl}
    variable infoimpl        ;# class -> {mepoch prefix-of-info}
    variable cached          ;# class -> 1: it may have entries in classcaches or nc
    variable precbusy        ;# classes whose Prec is being computed
    variable nons            ;# objects whose variable namespace is not made yet
    variable ufast           ;# unknown method entry -> command doing what it
                             ;# does, called as `command m self args...`
    array set ns {}; array set cls {}; array set isclass {}; array set ens {}
    array set priv {}; array set ensof {}; array set procs {}
    array set iprocs {}; array set supers {}; array set subs {}
    array set prec {}; array set inst {}; array set nc {}
    array set auto {}; array set ivf {}; array set cvvars {}; array set lazy {}
    array set depcache {}; array set allocof {}
    array set ivplain {}; array set precbusy {}; array set initsuper {}; array set cached {}; array set infoimpl {}
    array set ufast {}; array set nons {}
    # A method table entry is a list {kind prefix ?procname body?}:
    #   kind p: Tcl proc defined with instproc/proc; prefix {procname cls m}
    #           (cls is "" for per-object procs), body the original text
    #   kind b: built-in; prefix is a command prefix taking "self args"
}

# ----------------------------------------------------------------------
# small helpers

proc ::otcl::_::Norm {name} {
    if {[string match ::* $name]} {
        return [string range $name 2 end]
    }
    return $name
}

# Name of the Tcl proc implementing a method (kept readable because it is
# what shows up in errorInfo).
proc ::otcl::_::ProcName {owner kind m} {
    return "::otcl::[string map {:: :_:} $owner] $kind [string map {:: :_:} $m]"
}

proc ::otcl::_::ArgErr {self usage} {
    return -code error -level 2 "wrong # args: should be {$self $usage}"
}

proc ::otcl::_::BadVal {expected value} {
    return -code error -level 2 "expected $expected but got [list $value]"
}

proc ::otcl::_::TypeCheck {self type} {
    variable isclass
    if {$type eq "Class"} {
        if {![info exists isclass($self)]} {
            return -code error -level 2 \
                "type check failed: $self is not of type Class"
        }
    } else {
        variable cls
        if {![info exists cls($self)]} {
            return -code error -level 2 \
                "type check failed: $self is not of type Object"
        }
    }
}

# Class precedence list of class c, c first.  OTcl computes it with a
# depth-first topological sort that visits the superclasses in reverse
# declaration order and lists the classes in reverse finishing order.
proc ::otcl::_::Prec {c} {
    variable prec
    if {[info exists prec($c)]} {
        return $prec($c)
    }
    # With one superclass s the search below visits s's ancestors exactly
    # as Prec s does, then finishes c: c followed by s's list.  (An empty
    # list for s means a cycle; the search reports it.)
    variable supers
    variable precbusy
    if {![llength $supers($c)]} {
        # (what the search gives a class without superclasses: Object)
        return [set prec($c) [list $c]]
    }
    if {[llength $supers($c)] == 1 && ![info exists precbusy($c)]} {
        set precbusy($c) 1
        set sp [Prec [lindex $supers($c) 0]]
        unset precbusy($c)
        if {[llength $sp] && $c ni $sp} {
            return [set prec($c) [list $c {*}$sp]]
        }
    }
    set color [dict create]
    set order {}
    if {![Visit $c color order]} {
        return {}
    }
    return [set prec($c) [lreverse $order]]
}

proc ::otcl::_::Visit {c colorVar orderVar} {
    variable supers
    upvar 1 $colorVar color $orderVar order
    dict set color $c 1
    foreach s [lreverse $supers($c)] {
        if {[dict exists $color $s]} {
            if {[dict get $color $s] == 1} {
                return 0
            }
            continue
        }
        if {![Visit $s color order]} {
            return 0
        }
    }
    dict set color $c 2
    lappend order $c
    return 1
}

# c and all classes below it.
proc ::otcl::_::Dependents {c} {
    variable subs
    variable depcache
    variable hepoch
    if {[info exists depcache($c)] && [lindex $depcache($c) 0] == $hepoch} {
        return [lindex $depcache($c) 1]
    }
    if {![llength $subs($c)]} {
        return [list $c]
    }
    set seen [dict create $c {}]
    set todo [list $c]
    while {[llength $todo]} {
        set todo [lassign $todo k]
        foreach s $subs($k) {
            if {![dict exists $seen $s]} {
                dict set seen $s {}
                lappend todo $s
            }
        }
    }
    set r [dict keys $seen]
    set depcache($c) [list $hepoch $r]
    return $r
}

# ----------------------------------------------------------------------
# method lookup and the dispatch ensembles

# Entry for method m of object o (o may be "" to ignore per-object procs)
# whose class is c.  Returns {entry definingclass} or {}.
proc ::otcl::_::Lookup {o c m} {
    variable procs
    variable iprocs
    variable lazy
    if {$o ne "" && [info exists procs($o)] && [dict exists $procs($o) $m]} {
        set e [dict get $procs($o) $m]
        if {[info exists lazy([lindex $e 2])]} {
            Compile [lindex $e 2]
        }
        return [list $e ""]
    }
    foreach k [Prec $c] {
        if {[dict exists $iprocs($k) $m]} {
            set e [dict get $iprocs($k) $m]
            if {[info exists lazy([lindex $e 2])]} {
                Compile [lindex $e 2]
            }
            return [list $e $k]
        }
    }
    return {}
}

proc ::otcl::_::NewEns {what} {
    variable nens
    variable ensof
    set e ::otcl::E::e[incr nens]
    namespace eval ::otcl::E [list namespace ensemble create -command $e \
        -prefixes 0 -parameters self -map {} -unknown ::otcl::_::Miss]
    set ensof($e) $what
    return $e
}

proc ::otcl::_::ClassEns {c} {
    variable ens
    if {![info exists ens($c)]} {
        set ens($c) [NewEns [list c $c]]
    }
    return $ens($c)
}

# -unknown handler of the dispatch ensembles: resolve, cache, return prefix.
proc ::otcl::_::Miss {e self m args} {
    variable ensof
    variable isclass
    variable cls
    lassign $ensof($e) kind key
    if {$kind eq "c"} {
        set o ""
        set c $key
    } else {
        set o $key
        set c $cls($o)
    }
    set r [Lookup $o $c $m]
    if {[llength $r]} {
        set p [lindex $r 0 1]
        namespace ensemble configure $e \
            -map [dict replace [namespace ensemble configure $e -map] $m $p]
        return $p
    }
    set r [Lookup $o $c unknown]
    if {[llength $r]} {
        variable ufast
        if {[info exists ufast([lindex $r 0])]} {
            # an unknown method with a command of its own that takes the
            # method name first (no UCall to put it after self)
            set p [list $ufast([lindex $r 0]) $m]
        } else {
            set p [list ::otcl::_::UCall $m [lindex $r 0 1]]
        }
    } else {
        set p [list ::otcl::_::NoDispatch $m]
    }
    # Cache failed lookups too, except where the names are typically
    # fresh each time (classes: "Foo bar" creates bar) or the map is big.
    if {!(($kind eq "o" && [info exists isclass($o)])
          || ($kind eq "c" && "Class" in [Prec $c]))} {
        set map [namespace ensemble configure $e -map]
        if {[dict size $map] < 400} {
            namespace ensemble configure $e -map [dict replace $map $m $p]
        }
    }
    return $p
}

proc ::otcl::_::UCall {m p self args} {
    tailcall {*}$p $self $m {*}$args
}

proc ::otcl::_::NoDispatch {m self args} {
    return -code error "$self: unable to dispatch method $m"
}

# Forget cached dispatch of method m ("" = everything) in ensemble e.
proc ::otcl::_::Drop {e m} {
    if {$m eq "" || $m eq "unknown"} {
        namespace ensemble configure $e -map {}
        return
    }
    set map [namespace ensemble configure $e -map]
    if {[dict exists $map $m]} {
        namespace ensemble configure $e -map [dict remove $map $m]
    }
}

# Method m (or everything) changed for class c: flush dispatch caches of
# c, its subclasses, and the objects of those with private ensembles.
proc ::otcl::_::InvalClass {c m} {
    variable subs
    variable inst
    variable ens
    # A class with no subclasses, no instances and no dispatch ensemble (a
    # class being built): no cached dispatch or next method involves it,
    # and it is in the precedence list of no other class, so the caches
    # kept for other classes (checked against mepoch) cannot involve it
    # either.  Its own entries are dropped instead of bumping mepoch,
    # which would make every class's entries stale while the library
    # builds its classes.
    if {![llength $subs($c)] && ![dict size $inst($c)] && ![info exists ens($c)]} {
        variable cached
        if {[info exists cached($c)]} {
            unset cached($c)
            variable classcaches
            foreach a $classcaches {
                unset -nocomplain ${a}($c)
            }
            array unset nc [string map {* \\* ? \\? [ \\[ ] \\] \\ \\\\} $c]\x00*
        }
        return
    }
    variable priv
    variable cls
    variable nc
    variable mepoch
    incr mepoch
    array unset nc
    set deps [Dependents $c]
    foreach d $deps {
        if {[info exists ens($d)]} {
            Drop $ens($d) $m
        }
    }
    if {[array size priv]} {
        set dd [dict create]
        foreach d $deps {
            dict set dd $d {}
        }
        foreach {o e} [array get priv] {
            if {[dict exists $dd $cls($o)]} {
                Drop $e $m
            }
        }
    }
}

# Precedence of c (and everything below it) changed.
proc ::otcl::_::InvalPrec {c} {
    variable prec
    variable cvepoch
    incr cvepoch
    foreach d [Dependents $c] {
        unset -nocomplain prec($d)
    }
    ForgetIV $c
    InvalClass $c ""
}

proc ::otcl::_::Alias {o} {
    variable priv
    variable cls
    if {[info exists priv($o)]} {
        set e $priv($o)
    } else {
        set e [ClassEns $cls($o)]
    }
    interp alias {} ::$o {} $e $o
}

proc ::otcl::_::MakePrivate {o} {
    variable priv
    if {![info exists priv($o)]} {
        set priv($o) [NewEns [list o $o]]
        Alias $o
    }
    return $priv($o)
}

# ----------------------------------------------------------------------
# object creation, class change, and teardown

proc ::otcl::_::MakeObject {name c isc {super Object}} {
    variable nobj
    variable ns
    variable cls
    variable inst
    variable isclass
    variable supers
    variable subs
    variable iprocs
    set name [Norm $name]
    if {[info exists cls($name)]} {
        # As in OTcl, creating an object over an existing one destroys
        # the old one first (running its destroy method).
        catch {::$name destroy}
        Teardown $name
    }
    if {[namespace which -command ::$name] ne ""} {
        Keep $name
    }
    set ns($name) ::otcl::o::[incr nobj]
    namespace eval $ns($name) {}
    set cls($name) $c
    dict set inst($c) $name {}
    if {$isc} {
        set isclass($name) 1
        set supers($name) {}
        set subs($name) {}
        set iprocs($name) {}
        set inst($name) {}
        AddSuper $name $super
    }
    Alias $name
    return $name
}

# An object named like an existing command (`Agent/TCP return`, `Class
# puts`) replaces that command, as in OTcl, for the script and the ns-2
# library.  This implementation is Tcl code that calls such commands
# itself: the command is kept as ::otcl::keep::name, and the namespaces of
# the implementation (::otcl::_, ::otcl::api, ::dumbbell and its children)
# look there first, so they go on working (OTcl's C code never meets the
# object; where it ran Tcl, ns-2 fails as the script now does).
proc ::otcl::_::Keep {name} {
    if {[string first :: $name] >= 0} {
        return
    }
    namespace eval ::otcl::keep {}
    catch {rename ::otcl::keep::$name {}}
    rename ::$name ::otcl::keep::$name
    set todo {::otcl::_ ::otcl::api ::otcl::E ::dumbbell}
    while {[llength $todo]} {
        set todo [lassign $todo n]
        if {![namespace exists $n]} {
            continue
        }
        set path [namespace eval $n {namespace path}]
        if {"::otcl::keep" ni $path} {
            namespace eval $n [list namespace path [linsert $path 0 ::otcl::keep]]
        }
        if {$n ne "::otcl::_" && $n ne "::otcl::api" && $n ne "::otcl::E"} {
            lappend todo {*}[namespace children $n]
        }
    }
}

# Make the variable namespace of object o, made without one (nons: split
# objects made by ::dumbbell::_newplain, most of which never have a
# variable of their own).  Every path to an object's variables that needs
# the namespace to exist makes it first: Object.set (a write), instvar
# (Object.instvar, and IVF's inline form only once instvar has run),
# ::otcl::api::varname, the split layer's traces.  Reads, unset, info vars
# and destroy behave the same without it.
proc ::otcl::_::MakeNs {o} {
    variable ns
    variable nons
    namespace eval $ns($o) {}
    unset nons($o)
}

# MakeObject for a new plain (non-class) object of class c.
proc ::otcl::_::MakePlain {name c} {
    variable cls
    if {[info exists cls($name)] || [string match ::* $name]
        || [namespace which -command ::$name] ne ""} {
        return [MakeObject $name $c 0]
    }
    variable ns
    variable inst
    variable ens
    set ns($name) [set n ::otcl::o::[incr ::otcl::_::nobj]]
    namespace eval $n {}
    set cls($name) $c
    dict set inst($c) $name {}
    if {[info exists ens($c)]} {
        interp alias {} ::$name {} $ens($c) $name
    } else {
        Alias $name
    }
    # What the object's first `instvar` would learn (LearnIV), known now.
    if {[IVPlain $c]} {
        set ::otcl::_::ivf($name) 1
    }
    return $name
}

# Does instvar of a (plain, new) object of class c resolve to the built-in
# Object.instvar?  (Cached until methods or the hierarchy change.)
proc ::otcl::_::IVPlain {c} {
    variable ivplain
    if {[info exists ivplain($c)] && [lindex $ivplain($c) 0] == $::otcl::_::mepoch} {
        return [expr {[lindex $ivplain($c) 1] eq "::otcl::_::Object.instvar"}]
    }
    expr {[IVImpl $c] eq "::otcl::_::Object.instvar"}
}

# The prefix info of an object of class c without procs of its own
# resolves to.  (Cached until methods or the hierarchy change.)
proc ::otcl::_::InfoImpl {c} {
    variable infoimpl
    if {[info exists infoimpl($c)] && [lindex $infoimpl($c) 0] == $::otcl::_::mepoch} {
        return [lindex $infoimpl($c) 1]
    }
    set p [lindex [Lookup "" $c info] 0 1]
    set infoimpl($c) [list $::otcl::_::mepoch $p]
    set ::otcl::_::cached($c) 1
    return $p
}

# `$o info class` for object o (a canonical name).
proc ::otcl::_::ClassOf {o} {
    if {[info exists ::otcl::_::cls($o)] && ![info exists ::otcl::_::procs($o)]} {
        set c $::otcl::_::cls($o)
        variable infoimpl
        if {[info exists infoimpl($c)] && [lindex $infoimpl($c) 0] == $::otcl::_::mepoch} {
            set p [lindex $infoimpl($c) 1]
        } else {
            set p [InfoImpl $c]
        }
        if {$p eq "::otcl::_::Object.info"} {
            return $c
        }
    }
    return [::$o info class]
}

# The prefix instvar of a new object of class c resolves to (the same
# cache).
proc ::otcl::_::IVImpl {c} {
    variable ivplain
    if {[info exists ivplain($c)] && [lindex $ivplain($c) 0] == $::otcl::_::mepoch} {
        return [lindex $ivplain($c) 1]
    }
    set p [lindex [Lookup "" $c instvar] 0 1]
    set ivplain($c) [list $::otcl::_::mepoch $p]
    set ::otcl::_::cached($c) 1
    return $p
}

proc ::otcl::_::SetClass {o c} {
    variable cls
    variable inst
    variable priv
    variable mepoch
    incr mepoch
    dict unset inst($cls($o)) $o
    set cls($o) $c
    dict set inst($c) $o {}
    unset -nocomplain ::otcl::_::ivf($o)
    if {[info exists priv($o)]} {
        Drop $priv($o) ""
    } else {
        Alias $o
    }
}

proc ::otcl::_::AddSuper {c s} {
    variable supers
    variable subs
    variable hepoch
    incr hepoch
    if {$s ni $supers($c)} {
        lappend supers($c) $s
    }
    if {$c ni $subs($s)} {
        set subs($s) [linsert $subs($s) 0 $c]
    }
}

proc ::otcl::_::RemoveSuper {c s} {
    variable supers
    variable subs
    variable hepoch
    incr hepoch
    set i [lsearch -exact $supers($c) $s]
    if {$i >= 0} {
        set supers($c) [lreplace $supers($c) $i $i]
    }
    set i [lsearch -exact $subs($s) $c]
    if {$i >= 0} {
        set subs($s) [lreplace $subs($s) $i $i]
    }
}

# Remove every trace of object o (idempotent).  Variables are unset first
# (so unset traces run while the object still exists), as OTcl does.
proc ::otcl::_::Teardown {o} {
    variable ns
    variable cls
    variable isclass
    variable procs
    variable priv
    variable ensof
    variable inst
    if {![info exists cls($o)]} {
        return
    }
    if {[namespace exists $ns($o)]} {
        namespace delete $ns($o)
    }
    if {[info exists isclass($o)]} {
        TeardownClass $o
    }
    if {![info exists cls($o)]} {
        return
    }
    if {[info exists procs($o)]} {
        dict for {m entry} $procs($o) {
            if {[lindex $entry 0] eq "p"} {
                catch {rename [lindex $entry 2] {}}
            }
        }
        unset procs($o)
    }
    if {[info exists inst($cls($o))]} {
        dict unset inst($cls($o)) $o
    }
    unset cls($o) ns($o)
    unset -nocomplain ::otcl::_::nons($o)
    unset -nocomplain ::otcl::_::ivf($o)
    catch {interp alias {} ::$o {}}
    if {[info exists priv($o)]} {
        catch {rename $priv($o) {}}
        unset ensof($priv($o)) priv($o)
    }
}

proc ::otcl::_::TeardownClass {c} {
    variable inst
    variable cls
    variable iprocs
    variable supers
    variable subs
    variable isclass
    variable ens
    variable ensof
    variable prec
    # Destroy the instances (running their destroy methods), except the
    # class itself for circular meta-classes.
    foreach i [dict keys $inst($c)] {
        if {$i ne $c && [info exists cls($i)] && $cls($i) eq $c} {
            catch {::$i destroy}
            Teardown $i
        }
    }
    InvalPrec $c
    dict for {m entry} $iprocs($c) {
        if {[lindex $entry 0] eq "p"} {
            catch {rename [lindex $entry 2] {}}
        }
    }
    foreach s $supers($c) {
        RemoveSuper $c $s
    }
    foreach s $subs($c) {
        RemoveSuper $s $c
    }
    if {[info exists ens($c)]} {
        catch {rename $ens($c) {}}
        unset ensof($ens($c)) ens($c)
    }
    unset -nocomplain iprocs($c) supers($c) subs($c) isclass($c) prec($c)
    unset inst($c)
}

# ----------------------------------------------------------------------
# defining methods

proc ::otcl::_::DefProc {owner kind m argl body} {
    if {[string first :: $owner$m] < 0} {
        set pn "::otcl::$owner $kind $m"
    } else {
        set pn [ProcName $owner $kind $m]
    }
    if {$argl eq "auto"} {
        # OTcl autoloading: the body is a script expected to (re)define
        # the method; it is run on the first call.
        proc $pn {class proc self args} "tailcall ::otcl::_::AutoLoad\
            [list $owner] [list $kind] [list $pn] [list $body]\
            \$class \$proc \$self {*}\$args"
        set ::otcl::_::auto($pn) 1
    } else {
        # The proc is defined (so that its argument list is checked now)
        # with a stub body; the real one (rewritten, see Rewrite, the
        # costly part of defining a method) is installed when a lookup
        # first finds the method (Lookup, FindNext, create's alloc,
        # AutoLoad, ProcOf): most library methods are never called.  The
        # stub installs it too, should a proc be reached another way.
        # While the library loads (deferprocs), whose argument lists need
        # no check, not even the stub is made: Compile makes the proc.
        set a "class proc self $argl"
        set ::otcl::_::lazy($pn) [list $a $body]
        if {!$::otcl::_::deferprocs} {
            proc $pn $a "::otcl::_::Compile [list $pn]; tailcall {*}\[info level 0\]"
        }
        unset -nocomplain ::otcl::_::auto($pn)
    }
    return [list p [list $pn [expr {$kind eq "instproc" ? $owner : ""}] $m] $pn $body]
}

# Give method proc pn its real (rewritten) body.  (Rewrite's own command,
# where the host has one: ::dumbbell::be::rewrite, the same function.)
proc ::otcl::_::Compile {pn} {
    variable lazy
    if {[info exists lazy($pn)]} {
        lassign $lazy($pn) argl body
        unset lazy($pn)
        if {$::otcl::_::optimize_instvar && $::otcl::_::rewritec} {
            proc $pn $argl [::dumbbell::be::rewrite $body]
        } else {
            proc $pn $argl [Rewrite $body]
        }
    }
}
set ::otcl::_::rewritec [expr {[info commands ::dumbbell::be::rewrite] ne ""}]

# Speed-up for the most common statement in OTcl code: a line that consists
# of "$self instvar" followed by plain variable names, e.g.
#       $self instvar ns_ node_
# is compiled as
#       if {[::otcl::_::IVF $self ns_ node_]} {namespace upvar \
#               $::otcl::_::ns($self) ns_ ns_ node_ node_}
# ::otcl::_::IVF returns 1 only for objects whose instvar method is known to
# be the built-in one (and that are not classes); for every other object it
# performs "$self instvar ns_ node_" itself, through normal dispatch, and
# returns 0.  The line structure is preserved (so are line numbers in
# errorInfo), and [info body]/[info instbody] report the original text.
# Only lines that are (by a conservative line-based scan) at the start of
# a command in the body itself or in a braced script of a control command
# (if, foreach, while, catch, ...) are rewritten; lines that may be inside
# a quoted string or in other braced words (data, scripts run elsewhere)
# are left alone.  Set ::otcl::_::optimize_instvar to 0 before defining
# methods to disable the rewriting.
set ::otcl::_::optimize_instvar 1
# The lines rewritten (when at the start of a command): white space,
# "$self instvar", plain names, maybe "; more commands".
set ::otcl::_::instvar_line \
    {^[ \t]*\$self[ \t]+instvar(?:[ \t]+[A-Za-z0-9_]+)+[ \t]*(?:;.*)?$}

proc ::otcl::_::Rewrite {body} {
    variable optimize_instvar
    variable instvar_line
    if {!$optimize_instvar || ![string match {*$self*instvar*} $body]} {
        return $body
    }
    # Where such lines start (only lines with "instvar" are matched: a
    # regexp over the whole body cost more than the rest).  The scan below
    # (which tells whether such a line is at the start of a command) stops
    # after the last one: in library methods that is mostly the first line.
    set last -1
    set p 0
    while {[set i [string first instvar $body $p]] >= 0} {
        set start [expr {[string last \n $body $i] + 1}]
        set p [string first \n $body $i]
        if {$p < 0} {
            set p [string length $body]
        }
        if {[regexp $instvar_line [string range $body $start $p-1]]} {
            set at($start) {}
            set last $start
        }
        incr p
    }
    if {$last < 0} {
        return $body
    }
    set lines [split $body \n]
    set pos 0
    set out {}
    set quotes 0
    # Kinds of the braced words enclosing the current line, innermost
    # last: 1 = script of a control command, 2 = body of a switch,
    # 0 = anything else (data, or a script run elsewhere).
    set stack {}
    for {set i 0} {$pos <= $last} {incr i} {
        set line [lindex $lines $i]
        set start $pos
        incr pos [expr {[string length $line] + 1}]
        set ok [expr {$quotes % 2 == 0 && 0 ni $stack && 2 ni $stack}]
        # (Each step is skipped for a line without the characters it looks
        # for, which it would leave as it is.)
        set clean $line
        if {[string first \\ $clean] >= 0} {
            set clean [regsub -all {\\.} $clean ""]
        }
        if {[string first \" $clean] >= 0} {
            incr quotes [regexp -all {"} $clean]
            set clean [regsub -all {"[^"]*"} $clean ""]
        }
        set net 0
        if {[string first "\{" $clean] >= 0 || [string first "\}" $clean] >= 0} {
            set net [expr {[llength [split $clean "\{"]]
                           - [llength [split $clean "\}"]]}]
        }
        if {$net > 0} {
            if {[lindex $stack end] == 2} {
                set kind 1
            } else {
                regexp {^[\s\}]*(\S*)} $clean -> word
                set kind [ScriptKind $word]
            }
            for {set k 0} {$k < $net} {incr k} {
                lappend stack $kind
            }
        } elseif {$net < 0} {
            set stack [lrange $stack 0 end-[expr {-$net}]]
        }
        if {!$ok || ![info exists at($start)]} {
            lappend out $line
            continue
        }
        # One of the lines found above, taken apart without a regexp with
        # capturing groups (several times slower in Tcl): the indentation,
        # the names, and the rest from the first ";" on.
        set ws [string range $line 0 [string first {$} $line]-1]
        set semi [string first ";" $line]
        if {$semi < 0} {
            set names [lrange $line 2 end]
            set rest ""
        } else {
            set names [lrange [string range $line 0 $semi-1] 2 end]
            set rest [string range $line $semi end]
        }
        set pairs {}
        foreach v $names {
            lappend pairs $v $v
        }
        lappend out [string map [list @W@ $ws @N@ [join $names] \
            @P@ [join $pairs] @R@ $rest @O@ "\{" @C@ "\}"] \
            {@W@if {[::otcl::_::IVF $self @N@]} @O@namespace upvar $::otcl::_::ns($self) @P@@C@@R@}]
    }
    lappend out {*}[lrange $lines $i end]
    return [join $out \n]
}

proc ::otcl::_::ScriptKind {word} {
    switch -exact -- $word {
        if - elseif - else - then - while - for - foreach - lmap - catch -
        try - finally - on - trap - proc - time - dict - uplevel - eval {
            return 1
        }
        switch {
            return 2
        }
    }
    return 0
}

proc ::otcl::_::IVF {self args} {
    if {[info exists ::otcl::_::ivf($self)]} {
        return 1
    }
    uplevel 1 [list $self instvar {*}$args]
    return 0
}

# May instvar for object o be done by linking straight to its namespace?
# True when o's instvar method is the built-in $impl and o is no class.
proc ::otcl::_::LearnIV {o impl} {
    variable isclass
    variable cls
    variable ivf
    if {![info exists isclass($o)]
        && [lindex [Lookup $o $cls($o) instvar] 0 1] eq $impl} {
        set ivf($o) 1
    }
}

# Forget the above for the instances of c and the classes below it.
proc ::otcl::_::ForgetIV {c} {
    variable ivf
    variable inst
    if {![array size ivf]} {
        return
    }
    set deps [Dependents $c]
    foreach d $deps {
        foreach o [dict keys $inst($d)] {
            unset -nocomplain ivf($o)
        }
    }
}

proc ::otcl::_::AutoBody {pn} {
    variable auto
    return [info exists auto($pn)]
}

proc ::otcl::_::AutoLoad {owner kind pn script class proc self args} {
    variable procs
    variable iprocs
    set cn [expr {$class eq "" ? "{}" : $class}]
    if {[catch {uplevel 1 $script} msg]} {
        return -code error "$msg during autoloading (object=$self,\
            class=$cn, proc=$proc)"
    }
    set table [expr {$kind eq "instproc" ? $iprocs($owner) : $procs($owner)}]
    if {[dict exists $table $proc]} {
        set e [dict get $table $proc]
        if {[lindex $e 0] ne "p" || ![AutoBody [lindex $e 2]]} {
            if {[info exists ::otcl::_::lazy([lindex $e 2])]} {
                Compile [lindex $e 2]
            }
            tailcall {*}[lindex $e 1] $self {*}$args
        }
    }
    return -code error "no new proc during autoloading (object=$self,\
        class=$cn, proc=$proc)"
}

proc ::otcl::_::SetInstproc {c m entry} {
    variable iprocs
    if {[dict exists $iprocs($c) $m]} {
        set old [dict get $iprocs($c) $m]
        if {[lindex $old 0] eq "p" &&
            ([llength $entry] == 0 || [lindex $entry 2] ne [lindex $old 2])} {
            catch {rename [lindex $old 2] {}}
            unset -nocomplain ::otcl::_::lazy([lindex $old 2])
        }
    }
    if {[llength $entry]} {
        dict set iprocs($c) $m $entry
    } else {
        dict unset iprocs($c) $m
    }
    if {$m eq "instvar"} {
        ForgetIV $c
    }
    # (InvalClass's test for a class being built with nothing cached, inline)
    variable subs
    variable inst
    variable ens
    variable cached
    if {[llength $subs($c)] || [dict size $inst($c)] || [info exists ens($c)]
            || [info exists cached($c)]} {
        InvalClass $c $m
    }
}

proc ::otcl::_::SetProc {o m entry} {
    variable procs
    variable mepoch
    incr mepoch
    if {![info exists procs($o)]} {
        set procs($o) {}
    }
    if {[dict exists $procs($o) $m]} {
        set old [dict get $procs($o) $m]
        if {[lindex $old 0] eq "p" &&
            ([llength $entry] == 0 || [lindex $entry 2] ne [lindex $old 2])} {
            catch {rename [lindex $old 2] {}}
            unset -nocomplain ::otcl::_::lazy([lindex $old 2])
        }
    }
    if {[llength $entry]} {
        dict set procs($o) $m $entry
    } else {
        dict unset procs($o) $m
    }
    unset -nocomplain ::otcl::_::ivf($o)
    Drop [MakePrivate $o] $m
}

# Internal API (used by tclobject.tcl): install a built-in instproc.
proc ::otcl::_::DefBuiltin {c m prefix} {
    SetInstproc $c $m [list b $prefix]
}

proc ::otcl::_::DefBuiltinProc {o m prefix} {
    SetProc $o $m [list b $prefix]
}

# ----------------------------------------------------------------------
# built-in methods of Object

proc ::otcl::_::Object.alloc {self args} {
    if {![llength $args]} {
        ::otcl::_::ArgErr $self "alloc <obj> ?args?"
    }
    ::otcl::_::MakeObject [lindex $args 0] $self 0
    return [lrange $args 1 end]
}

proc ::otcl::_::Object.init {self args} {
    if {[llength $args] % 2} {
        return -code error "uneven number of args"
    }
    foreach {k v} $args {
        if {[string index $k 0] eq "-"} {
            set k [string range $k 1 end]
        }
        if {[catch {::$self $k $v} msg opts]} {
            dict unset opts -level
            return -options $opts "$msg during {$self} {$k} {$v}"
        }
    }
    return ""
}

proc ::otcl::_::Object.destroy {self args} {
    if {[llength $args]} {
        ::otcl::_::ArgErr $self destroy
    }
    set ns $::otcl::_::ns($self)
    # unset the variables here so that errors from unset traces surface
    foreach v [info vars ${ns}::*] {
        if {[catch {unset $v} msg opts]} {
            return -code error [string map [list ${ns}:: {}] $msg]
        }
    }
    ::otcl::_::Teardown $self
    return ""
}

proc ::otcl::_::Object.class {self args} {
    if {[llength $args] != 1} {
        ::otcl::_::ArgErr $self "class <class>"
    }
    set c [::otcl::_::Norm [lindex $args 0]]
    if {![info exists ::otcl::_::isclass($c)]} {
        ::otcl::_::BadVal "a class" [lindex $args 0]
    }
    ::otcl::_::SetClass $self $c
    return ""
}

# Argument names of a method proc (without class/proc/self).
proc ::otcl::_::ProcOf {table m} {
    if {[dict exists $table $m]} {
        set e [dict get $table $m]
        if {[lindex $e 0] eq "p"} {
            if {[info exists ::otcl::_::lazy([lindex $e 2])]} {
                Compile [lindex $e 2]
            }
            return [lindex $e 2]
        }
    }
    return ""
}

proc ::otcl::_::ListArgs {table m} {
    set pn [ProcOf $table $m]
    if {$pn eq "" || [AutoBody $pn]} {
        BadVal "a tcl method name" $m
    }
    return [lrange [info args $pn] 3 end]
}

proc ::otcl::_::ListBody {table m} {
    set pn [ProcOf $table $m]
    if {$pn eq "" || [AutoBody $pn]} {
        BadVal "a tcl method name" $m
    }
    return [lindex [dict get $table $m] 3]
}

# Called from a built-in info method: sets $var in the info caller's frame.
proc ::otcl::_::ListDefault {table m arg var} {
    set pn [ProcOf $table $m]
    if {$pn eq "" || [AutoBody $pn]} {
        BadVal "a tcl method name" $m
    }
    if {$arg ni [info args $pn]} {
        return -code error \
            "procedure \"$m\" doesn't have an argument \"$arg\""
    }
    upvar 2 $var v
    if {[info default $pn $arg d]} {
        if {[catch {set v $d}]} {
            return -code error \
                "couldn't store default value in variable \"$var\""
        }
        return 1
    }
    if {[catch {set v ""}]} {
        return -code error "couldn't store default value in variable \"$var\""
    }
    return 0
}

proc ::otcl::_::MatchKeys {keys pat} {
    if {$pat eq ""} {
        return $keys
    }
    set r {}
    foreach k $keys {
        if {[string match $pat $k]} {
            lappend r $k
        }
    }
    return $r
}

proc ::otcl::_::ProcKeys {table pat} {
    set r {}
    dict for {k e} $table {
        if {[lindex $e 0] eq "p" && ($pat eq "" || [string match $pat $k])} {
            lappend r $k
        }
    }
    return $r
}

proc ::otcl::_::Object.info {self args} {
    set n [llength $args]
    if {$n < 1} {
        ::otcl::_::ArgErr $self "info <opt> ?args?"
    }
    set table {}
    if {[::info exists ::otcl::_::procs($self)]} {
        set table $::otcl::_::procs($self)
    }
    set opt [lindex $args 0]
    switch -exact -- $opt {
        class {
            if {$n > 2} {
                ::otcl::_::ArgErr $self "info class ?class?"
            }
            set c $::otcl::_::cls($self)
            if {$n == 1} {
                return $c
            }
            set k [::otcl::_::Norm [lindex $args 1]]
            if {![::info exists ::otcl::_::isclass($k)]} {
                ::otcl::_::BadVal "a class" [lindex $args 1]
            }
            return [expr {$k in [::otcl::_::Prec $c]}]
        }
        commands {
            if {$n > 2} {
                ::otcl::_::ArgErr $self "info commands ?pat?"
            }
            return [::otcl::_::MatchKeys [dict keys $table] [lindex $args 1]]
        }
        procs {
            if {$n > 2} {
                ::otcl::_::ArgErr $self "info procs ?pat?"
            }
            return [::otcl::_::ProcKeys $table [lindex $args 1]]
        }
        args {
            if {$n != 2} {
                ::otcl::_::ArgErr $self "info args <proc>"
            }
            return [::otcl::_::ListArgs $table [lindex $args 1]]
        }
        default {
            if {$n != 4} {
                ::otcl::_::ArgErr $self "info default <proc> <arg> <var>"
            }
            return [::otcl::_::ListDefault $table {*}[lrange $args 1 end]]
        }
        body {
            if {$n != 2} {
                ::otcl::_::ArgErr $self "info body <proc>"
            }
            return [::otcl::_::ListBody $table [lindex $args 1]]
        }
        vars {
            if {$n > 2} {
                ::otcl::_::ArgErr $self "info vars ?pat?"
            }
            set ns $::otcl::_::ns($self)
            set r {}
            foreach v [::info vars ${ns}::*] {
                set v [namespace tail $v]
                if {$n == 1 || [string match [lindex $args 1] $v]} {
                    lappend r $v
                }
            }
            return $r
        }
    }
    ::otcl::_::BadVal "an info option" $opt
}

proc ::otcl::_::Object.proc {self args} {
    if {[llength $args] != 3} {
        ::otcl::_::ArgErr $self "proc name args body"
    }
    lassign $args m argl body
    if {$argl eq "" && $body eq ""} {
        ::otcl::_::SetProc $self $m {}
    } else {
        ::otcl::_::SetProc $self $m \
            [::otcl::_::DefProc $self proc $m $argl $body]
    }
    return ""
}

proc ::otcl::_::Object.next {self args} {
    upvar 1 class c proc m
    if {![info exists c] || ![info exists m]} {
        return -code error "no executing proc"
    }
    set oc $::otcl::_::cls($self)
    set key $oc\x00$c\x00$m
    if {[info exists ::otcl::_::nc($key)]} {
        set p $::otcl::_::nc($key)
    } else {
        set p [::otcl::_::FindNext $oc $c $m]
    }
    if {$p eq ""} {
        return ""
    }
    tailcall {*}$p $self {*}$args
}

proc ::otcl::_::FindNext {oc c m} {
    variable nc
    variable iprocs
    variable isclass
    set pl [Prec $oc]
    if {$c ne ""} {
        set c [Norm $c]
        if {![info exists isclass($c)]} {
            BadVal "a class" $c
        }
        set i [lsearch -exact $pl $c]
        set pl [expr {$i < 0 ? {} : [lrange $pl [expr {$i + 1}] end]}]
    }
    set p ""
    foreach k $pl {
        if {[dict exists $iprocs($k) $m]} {
            set e [dict get $iprocs($k) $m]
            if {[info exists ::otcl::_::lazy([lindex $e 2])]} {
                Compile [lindex $e 2]
            }
            set p [lindex $e 1]
            break
        }
    }
    set ::otcl::_::cached($oc) 1
    return [set nc($oc\x00$c\x00$m) $p]
}

proc ::otcl::_::Object.set {self args} {
    set ns $::otcl::_::ns($self)
    switch [llength $args] {
        1 {
            if {[catch {::set ${ns}::[lindex $args 0]} r]} {
                return -code error [string map [list ${ns}:: {}] $r]
            }
            return $r
        }
        2 {
            if {[info exists ::otcl::_::isclass($self)] && (!$::otcl::_::cvwatch
                    || [info exists ::otcl::_::cvvars([lindex $args 0])])} {
                incr ::otcl::_::cvepoch
            }
            if {[info exists ::otcl::_::nons($self)]} {
                ::otcl::_::MakeNs $self
            }
            if {[catch {::set ${ns}::[lindex $args 0] [lindex $args 1]} r]} {
                return -code error [string map [list ${ns}:: {}] $r]
            }
            return $r
        }
    }
    ::otcl::_::ArgErr $self "set var ?value?"
}

proc ::otcl::_::Object.unset {self args} {
    if {![llength $args]} {
        ::otcl::_::ArgErr $self "unset ?vars?"
    }
    if {[info exists ::otcl::_::isclass($self)]} {
        foreach v $args {
            if {!$::otcl::_::cvwatch || [info exists ::otcl::_::cvvars($v)]} {
                incr ::otcl::_::cvepoch
                break
            }
        }
    }
    set ns $::otcl::_::ns($self)
    foreach v $args {
        if {[catch {::unset ${ns}::$v} r]} {
            return -code error [string map [list ${ns}:: {}] $r]
        }
    }
    return ""
}

proc ::otcl::_::Object.instvar {self args} {
    set l {}
    foreach v $args {
        if {[llength $v] == 1} {
            lappend l $v $v
        } elseif {[llength $v] == 2} {
            lappend l {*}$v
        } else {
            return -code error \
                "expected ?inst/local? or ?inst? ?local? but got $v"
        }
    }
    if {![llength $l]} {
        ::otcl::_::ArgErr $self "instvar ?vars?"
    }
    if {[info level] == 1} {
        return -code error "bad variable name \"[lindex $l 1]\": can't\
            create namespace variable that refers to procedure variable"
    }
    if {![info exists ::otcl::_::ivf($self)]} {
        if {[info exists ::otcl::_::isclass($self)]} {
            incr ::otcl::_::cvepoch
        } else {
            ::otcl::_::LearnIV $self ::otcl::_::Object.instvar
        }
    }
    if {[info exists ::otcl::_::nons($self)]} {
        ::otcl::_::MakeNs $self
    }
    uplevel 1 [list ::namespace upvar $::otcl::_::ns($self) {*}$l]
}

# ----------------------------------------------------------------------
# built-in methods of Class

proc ::otcl::_::Class.alloc {self args} {
    if {![llength $args]} {
        ::otcl::_::ArgErr $self "alloc <cl> ?args?"
    }
    ::otcl::_::MakeObject [lindex $args 0] $self 1
    return [lrange $args 1 end]
}

# Class methods check their receiver with `TypeCheck $self Class`, which
# itself starts with the `isclass` test; the methods below make that test
# inline first, so that the common case (a known class) costs no proc call.
proc ::otcl::_::Class.create {self args} {
    if {![info exists ::otcl::_::isclass($self)]} {
        ::otcl::_::TypeCheck $self Class
    }
    if {![llength $args]} {
        ::otcl::_::ArgErr $self "create <obj> ?args?"
    }
    set name [lindex $args 0]
    # The alloc proc (the first class in the precedence list with one),
    # cached until methods or procs change.
    if {[info exists ::otcl::_::allocof($self)]
            && [lindex $::otcl::_::allocof($self) 0] == $::otcl::_::mepoch} {
        lassign $::otcl::_::allocof($self) - found e
    } else {
        set found ""
        foreach k [::otcl::_::Prec $self] {
            if {[info exists ::otcl::_::procs($k)]
                && [dict exists $::otcl::_::procs($k) alloc]} {
                set found $k
                break
            }
        }
        if {$found eq ""} {
            return -code error "no reachable alloc"
        }
        set e [dict get $::otcl::_::procs($found) alloc]
        set ::otcl::_::allocof($self) [list $::otcl::_::mepoch $found $e]
        set ::otcl::_::cached($self) 1
    }
    if {[info exists ::otcl::_::lazy([lindex $e 2])]} {
        ::otcl::_::Compile [lindex $e 2]
    }
    set p [lindex $e 1]
    if {$p eq "::otcl::_::Object.alloc"} {
        ::otcl::_::MakePlain $name $self
        set rest [lrange $args 1 end]
    } elseif {$p eq "::otcl::_::Class.alloc"} {
        # `Class create C -superclass S`, S a class other than C, where the
        # new class's init and superclass are OTcl's own: what they would
        # do (link C below S instead of Object), without the dispatch.
        if {[llength $args] == 3 && [lindex $args 1] eq "-superclass"
                && [info exists ::otcl::_::isclass([set s [::otcl::_::Norm [lindex $args 2]]])]
                && $s ne [::otcl::_::Norm $name] && [::otcl::_::InitSuperPlain $self]} {
            ::otcl::_::MakeSubclass $name $self $s
            return $name
        }
        ::otcl::_::MakeObject $name $self 1
        set rest [lrange $args 1 end]
    } else {
        set rest [{*}$p $found {*}$args]
        set o [::otcl::_::Norm $name]
        if {![info exists ::otcl::_::cls($o)]} {
            return -code error "couldn't find result of alloc"
        }
        ::otcl::_::SetClass $o $self
    }
    uplevel 1 [list ::[::otcl::_::Norm $name] init {*}$rest]
    return $name
}

# `Class name` or `Class name -superclass super` (super a class other than
# name) for the host's library while it loads (deferprocs): no script has
# run, so Class's create, alloc, init and superclass are OTcl's own, and
# this does what Class.create then does, without the dispatch (through
# Class's unknown for `Class name`) and its checks.  Otherwise it is the
# command itself.
proc ::otcl::_::LibClass {name {super ""}} {
    if {!$::otcl::_::deferprocs} {
        if {$super eq ""} {
            tailcall Class create $name
        }
        tailcall Class create $name -superclass $super
    }
    if {$super eq ""} {
        # (Object's init, without arguments, does nothing)
        MakeObject $name Class 1
        return $name
    }
    MakeSubclass $name Class [Norm $super]
    return $name
}

# New class `name` of metaclass mc below class s (normalized) instead of
# Object: what OTcl's own init and superclass do for `mc create name
# -superclass s` (Class.create and LibClass take this path).  The
# invalidation is InvalPrec's for a class without subclasses, instances
# or dispatch ensemble.
proc ::otcl::_::MakeSubclass {name mc s} {
    set c [MakeObject $name $mc 1 $s]
    incr ::otcl::_::cvepoch
    unset -nocomplain ::otcl::_::prec($c)
    if {[info exists ::otcl::_::cached($c)]} {
        InvalClass $c ""
    }
}

# Do new classes of metaclass mc have OTcl's own init and superclass
# methods?  (Cached until methods or the hierarchy change.)
proc ::otcl::_::InitSuperPlain {mc} {
    variable initsuper
    if {[info exists initsuper($mc)] && [lindex $initsuper($mc) 0] == $::otcl::_::mepoch} {
        return [lindex $initsuper($mc) 1]
    }
    set ok [expr {[lindex [Lookup "" $mc init] 0 1] eq "::otcl::_::Object.init"
                  && [lindex [Lookup "" $mc superclass] 0 1] eq "::otcl::_::Class.superclass"}]
    set initsuper($mc) [list $::otcl::_::mepoch $ok]
    set ::otcl::_::cached($mc) 1
    return $ok
}

proc ::otcl::_::Class.superclass {self args} {
    if {![info exists ::otcl::_::isclass($self)]} {
        ::otcl::_::TypeCheck $self Class
    }
    if {[llength $args] != 1} {
        ::otcl::_::ArgErr $self "superclass <classes>"
    }
    set arg [lindex $args 0]
    set new {}
    foreach s $arg {
        set n [::otcl::_::Norm $s]
        if {![info exists ::otcl::_::isclass($n)]} {
            catch {uplevel #0 [list auto_load $s]}
            if {![info exists ::otcl::_::isclass($n)]} {
                ::otcl::_::BadVal "a list of classes" $arg
            }
        }
        lappend new $n
    }
    # superclasses must not precede their own superclasses
    for {set i 0} {$i < [llength $new]} {incr i} {
        for {set j [expr {$i + 1}]} {$j < [llength $new]} {incr j} {
            if {[lindex $new $i] in [::otcl::_::Prec [lindex $new $j]]} {
                ::otcl::_::BadVal "classes in dependence order" $arg
            }
        }
    }
    set old $::otcl::_::supers($self)
    foreach s $old {
        ::otcl::_::RemoveSuper $self $s
    }
    foreach s $new {
        ::otcl::_::AddSuper $self $s
    }
    ::otcl::_::InvalPrec $self
    if {![llength [::otcl::_::Prec $self]]} {
        foreach s $new {
            ::otcl::_::RemoveSuper $self $s
        }
        foreach s $old {
            ::otcl::_::AddSuper $self $s
        }
        ::otcl::_::InvalPrec $self
        ::otcl::_::BadVal "a cycle-free graph" $arg
    }
    return ""
}

proc ::otcl::_::Class.instproc {self args} {
    if {![info exists ::otcl::_::isclass($self)]} {
        ::otcl::_::TypeCheck $self Class
    }
    if {[llength $args] != 3} {
        ::otcl::_::ArgErr $self "instproc name args body"
    }
    lassign $args m argl body
    if {$argl eq "" && $body eq ""} {
        ::otcl::_::SetInstproc $self $m {}
    } else {
        ::otcl::_::SetInstproc $self $m \
            [::otcl::_::DefProc $self instproc $m $argl $body]
    }
    return ""
}

proc ::otcl::_::Class.info {self args} {
    if {![info exists ::otcl::_::isclass($self)]} {
        ::otcl::_::TypeCheck $self Class
    }
    set n [llength $args]
    if {$n < 1} {
        ::otcl::_::ArgErr $self "info <opt> ?args?"
    }
    set table $::otcl::_::iprocs($self)
    switch -exact -- [lindex $args 0] {
        superclass {
            if {$n > 2} {
                ::otcl::_::ArgErr $self "info superclass ?class?"
            }
            if {$n == 1} {
                return $::otcl::_::supers($self)
            }
            set k [::otcl::_::Norm [lindex $args 1]]
            if {![info exists ::otcl::_::isclass($k)]} {
                ::otcl::_::BadVal "a class" [lindex $args 1]
            }
            return [expr {$k in [::otcl::_::Prec $self]}]
        }
        subclass {
            if {$n > 2} {
                ::otcl::_::ArgErr $self "info subclass ?class?"
            }
            if {$n == 1} {
                return $::otcl::_::subs($self)
            }
            set k [::otcl::_::Norm [lindex $args 1]]
            if {![info exists ::otcl::_::isclass($k)]} {
                ::otcl::_::BadVal "a class" [lindex $args 1]
            }
            return [expr {$k in [::otcl::_::Dependents $self]}]
        }
        heritage {
            if {$n > 2} {
                ::otcl::_::ArgErr $self "info heritage ?pat?"
            }
            return [::otcl::_::MatchKeys \
                        [lrange [::otcl::_::Prec $self] 1 end] [lindex $args 1]]
        }
        instances {
            if {$n > 2} {
                ::otcl::_::ArgErr $self "info instances ?pat?"
            }
            return [::otcl::_::MatchKeys \
                        [dict keys $::otcl::_::inst($self)] [lindex $args 1]]
        }
        instcommands {
            if {$n > 2} {
                ::otcl::_::ArgErr $self "info instcommands ?pat?"
            }
            return [::otcl::_::MatchKeys [dict keys $table] [lindex $args 1]]
        }
        instprocs {
            if {$n > 2} {
                ::otcl::_::ArgErr $self "info instprocs ?pat?"
            }
            return [::otcl::_::ProcKeys $table [lindex $args 1]]
        }
        instargs {
            if {$n != 2} {
                ::otcl::_::ArgErr $self "info instargs <instproc>"
            }
            return [::otcl::_::ListArgs $table [lindex $args 1]]
        }
        instdefault {
            if {$n != 4} {
                ::otcl::_::ArgErr $self \
                    "info instdefault <instproc> <arg> <var>"
            }
            return [::otcl::_::ListDefault $table {*}[lrange $args 1 end]]
        }
        instbody {
            if {$n != 2} {
                ::otcl::_::ArgErr $self "info instbody <instproc>"
            }
            return [::otcl::_::ListBody $table [lindex $args 1]]
        }
    }
    tailcall ::otcl::_::Object.info $self {*}$args
}

# ----------------------------------------------------------------------
# public helpers (not part of OTcl)

# Fully qualified name of an object's instance variable, for use with
# trace/vwait/upvar from outside the object.
proc ::otcl::api::varname {obj var} {
    set o [::otcl::_::Norm $obj]
    if {![info exists ::otcl::_::ns($o)]} {
        return -code error "$obj is not an object"
    }
    if {[info exists ::otcl::_::nons($o)]} {
        ::otcl::_::MakeNs $o
    }
    return $::otcl::_::ns($o)::$var
}

# What `$obj info class` returns, without the dispatch where info is
# OTcl's own.
proc ::otcl::api::classof {obj} {
    ::otcl::_::ClassOf [::otcl::_::Norm $obj]
}

# A class's heritage (its precedence list without the class itself).
proc ::otcl::api::heritage {cls} {
    set c [::otcl::_::Norm $cls]
    if {![info exists ::otcl::_::isclass($c)]} {
        return -code error "$cls is not a class"
    }
    return [lrange [::otcl::_::Prec $c] 1 end]
}

# Is obj an OTcl object / class?
proc ::otcl::api::isobject {obj} {
    return [info exists ::otcl::_::cls([::otcl::_::Norm $obj])]
}
proc ::otcl::api::isclass {obj} {
    return [info exists ::otcl::_::isclass([::otcl::_::Norm $obj])]
}

# ----------------------------------------------------------------------
# bootstrap Object and Class

namespace eval ::otcl::_ {
    foreach c {Object Class} {
        set ns($c) ::otcl::o::[incr nobj]
        namespace eval $ns($c) {}
        set cls($c) Class
        set isclass($c) 1
        set supers($c) {}
        set subs($c) {}
        set iprocs($c) {}
        set inst($c) {}
    }
    dict set inst(Class) Object {}
    dict set inst(Class) Class {}
    AddSuper Class Object
    foreach m {init destroy class info proc next set unset instvar} {
        dict set iprocs(Object) $m [list b ::otcl::_::Object.$m]
    }
    dict set iprocs(Class) create [list b ::otcl::_::Class.create]
    dict set iprocs(Class) superclass [list b ::otcl::_::Class.superclass]
    dict set iprocs(Class) info [list b ::otcl::_::Class.info]
    dict set iprocs(Class) instproc [list b ::otcl::_::Class.instproc]
    SetProc Object alloc [list b ::otcl::_::Object.alloc]
    SetProc Class alloc [list b ::otcl::_::Class.alloc]
    unset c
}

Object instproc array {opt ary args} {
    $self instvar $ary
    array $opt $ary {*}$args
}

Class instproc unknown {m args} {
    if {$m eq "create"} {
        error "$self: unable to dispatch $m"
    }
    $self create $m {*}$args
}

package provide otcl 1.14
