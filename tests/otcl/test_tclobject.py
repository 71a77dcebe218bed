"""Tests of python/dumbbell/ns2/tcl/tclobject.tcl (ns-2/tclcl split objects)
with the mock engine backend in tests/otcl/mock_backend.tcl."""
import os
import tkinter

import pytest

from runcase import new_interp

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture
def tcl():
    t = new_interp()
    t.eval("source {%s}" % os.path.join(HERE, "mock_backend.tcl"))
    return t


def calls(tcl, what):
    return int(tcl.eval("::mock::calls %s" % what))


def log(tcl):
    return tcl.eval("set ::mock::log")


def clear_log(tcl):
    tcl.eval("set ::mock::log {}")


# ----------------------------------------------------------------------
# class registration

def test_register_class_builds_hierarchy(tcl):
    assert tcl.eval("Agent/TCP/Reno info superclass") == "Agent/TCP"
    assert tcl.eval("Agent/TCP info superclass") == "Agent"
    assert tcl.eval("Agent info superclass") == "SplitObject"
    assert tcl.eval("Agent/TCP/Reno info heritage") == \
        "Agent/TCP Agent SplitObject Object"
    assert tcl.eval("SplitObject info superclass") == "Object"


def test_register_class_keeps_existing_classes(tcl):
    tcl.eval("Agent instproc mine {} { return mine }")
    tcl.eval("::dumbbell::register_class Agent/UDP/Extra")
    assert tcl.eval("Agent/UDP/Extra info heritage") == \
        "Agent/UDP Agent SplitObject Object"
    assert tcl.eval("Agent info instprocs mine") == "mine"
    tcl.eval("SplitObject register Agent/UDP/Other")
    assert tcl.eval("Agent/UDP/Other info superclass") == "Agent/UDP"
    assert tcl.eval("TclObject is-class Agent/UDP") == "1"
    assert tcl.eval("TclObject is-class Agent/Nothing") == "0"


# ----------------------------------------------------------------------
# new / delete / shadow creation

def test_new_creates_shadow(tcl):
    o = tcl.eval("new Agent/TCP/Reno -a 1")
    assert o.startswith("_o") and o[2:].isdigit()
    assert tcl.eval("%s info class" % o) == "Agent/TCP/Reno"
    assert "{shadow %s Agent/TCP/Reno {-a 1}}" % o in log(tcl)
    assert tcl.eval("set ::dumbbell::_kind(%s)" % o) == "Agent/TCP/Reno"
    o2 = tcl.eval("new Queue/DropTail")
    assert int(o2[2:]) == int(o[2:]) + 1


def test_new_script_subclass_uses_engine_parent(tcl):
    tcl.eval("Class MyTcp -superclass Agent/TCP/Reno")
    tcl.eval("MyTcp instproc init args { eval $self next $args;"
             " $self set inited 1 }")
    o = tcl.eval("new MyTcp")
    assert tcl.eval("set ::mock::kindof(%s)" % o) == "Agent/TCP/Reno"
    assert tcl.eval("%s set inited" % o) == "1"
    assert tcl.eval("%s info class" % o) == "MyTcp"


def test_plain_otcl_class_has_no_shadow(tcl):
    tcl.eval("Class Plain")
    clear_log(tcl)
    o = tcl.eval("new Plain")
    assert o.startswith("_o")
    assert log(tcl) == ""
    tcl.eval("delete %s" % o)
    assert log(tcl) == ""


def test_failed_shadow_returns_empty_and_deletes(tcl):
    tcl.eval("Class Orphan -superclass SplitObject")
    before = tcl.eval("SplitObject set id")
    assert tcl.eval("new Orphan") == ""
    o = "_o%d" % (int(before) + 1)
    assert tcl.eval("info commands %s" % o) == ""
    assert "no engine class" in tcl.eval("set ::dumbbell::shadow_error")
    assert tcl.eval("new Agent/TCP fail") == ""
    assert "engine refused" in tcl.eval("set ::dumbbell::shadow_error")
    assert tcl.eval("catch {Orphan create x} msg") == "1"
    assert tcl.eval("set msg") == "__FAILED_SHADOW_OBJECT_"


def test_constructor_failure_message(tcl):
    tcl.eval("Class BadAgent -superclass Agent")
    tcl.eval("BadAgent instproc init args { error \"boom $args\" }")
    assert tcl.eval("catch {new BadAgent 1 2} msg") == "1"
    assert tcl.eval("set msg") == \
        "class BadAgent: constructor failed: boom 1 2"
    assert "boom 1 2" in tcl.eval("set ::errorInfo")
    assert tcl.eval("catch {new NoSuchClass} msg") == "1"
    assert tcl.eval("set msg").startswith(
        "class NoSuchClass: constructor failed: invalid command name")


def test_delete_calls_backend_and_destroy_chain(tcl):
    tcl.eval("Agent instproc destroy {} { lappend ::destroyed $self;"
             " $self next }")
    o = tcl.eval("new Agent")
    clear_log(tcl)
    tcl.eval("delete %s" % o)
    assert tcl.eval("set ::destroyed") == o
    assert log(tcl) == "{delete %s}" % o
    assert tcl.eval("info commands %s" % o) == ""
    assert tcl.eval("info exists ::dumbbell::_kind(%s)" % o) == "0"


def test_getid_counter(tcl):
    a = tcl.eval("SplitObject getid")
    b = tcl.eval("SplitObject getid")
    assert int(b[2:]) == int(a[2:]) + 1
    assert tcl.eval("SplitObject set id") == b[2:]


# ----------------------------------------------------------------------
# bound variables

def test_set_routes_bound_variables(tcl):
    o = tcl.eval("new Agent/TCP")
    clear_log(tcl)
    assert tcl.eval("%s set window_ 30" % o) == "30"
    assert tcl.eval("%s set window_ 3.50" % o) == "3.5"
    assert tcl.eval("%s set window_" % o) == "3.5"
    assert log(tcl) == ("{set %s window_ 30} {set %s window_ 3.50} "
                        "{get %s window_}" % (o, o, o))
    clear_log(tcl)
    # ordinary instance variables stay in Tcl
    assert tcl.eval("%s set foo_ bar" % o) == "bar"
    assert tcl.eval("%s set foo_" % o) == "bar"
    assert tcl.eval("%s set arr(1) x" % o) == "x"
    assert log(tcl) == ""
    # errors from the engine propagate
    assert tcl.eval("catch {%s set window_ abc} msg" % o) == "1"
    assert "expected a number" in tcl.eval("set msg")
    assert tcl.eval("catch {%s set maxburst_} msg" % o) == "1"


def test_set_before_shadow_is_plain(tcl):
    tcl.eval("Class Early -superclass Agent")
    tcl.eval("Early instproc init args { $self set ttl_ 99;"
             " eval $self next $args }")
    clear_log(tcl)
    o = tcl.eval("new Early")
    # before the shadow existed, ttl_ was an ordinary variable
    assert "{set %s ttl_" % o not in log(tcl)
    assert tcl.eval("set [::otcl::api::varname %s ttl_]" % o) == "99"
    # after, the engine owns ttl_
    tcl.eval("%s set ttl_ 7" % o)
    assert tcl.eval("set ::mock::values(%s,ttl_)" % o) == "7"
    assert tcl.eval("%s set ttl_" % o) == "7"


def test_instvar_of_bound_variable_reads_and_writes_through(tcl):
    tcl.eval("""
        Agent/TCP instproc grow {} {
            $self instvar window_
            set window_ [expr {$window_ + 1}]
            return $window_
        }
        Agent/TCP instproc peek {} {
            $self instvar window_ {packetSize_ ps}
            return "$window_ $ps [info exists window_]"
        }
    """)
    o = tcl.eval("new Agent/TCP")
    tcl.eval("%s set window_ 10" % o)
    tcl.eval("%s set packetSize_ 1000" % o)
    clear_log(tcl)
    assert tcl.eval("%s grow" % o) == "11"
    assert "{set %s window_ 11}" % o in log(tcl)
    assert "{get %s window_}" % o in log(tcl)
    assert tcl.eval("set ::mock::values(%s,window_)" % o) == "11"
    # the engine's value changes behind Tcl's back: reads see it
    tcl.eval("set ::mock::values(%s,window_) 50" % o)
    assert tcl.eval("%s grow" % o) == "51"
    assert tcl.eval("%s peek" % o) == "51 1000 1"
    # many calls (the fast instvar path) still go through the engine
    for i in range(3):
        tcl.eval("%s grow" % o)
    assert tcl.eval("%s set window_" % o) == "54"
    # a plain variable in the same instvar statement is a Tcl variable
    tcl.eval("Agent/TCP instproc mixed {} { $self instvar window_ note_;"
             " set note_ hi; return $window_ }")
    clear_log(tcl)
    assert tcl.eval("%s mixed" % o) == "54"
    assert tcl.eval("%s set note_" % o) == "hi"
    assert "note_" not in log(tcl)


def test_instvar_write_error_from_engine(tcl):
    tcl.eval("Agent/TCP instproc bad {} { $self instvar window_;"
             " set window_ notanumber }")
    o = tcl.eval("new Agent/TCP")
    assert tcl.eval("catch {%s bad} msg" % o) == "1"
    msg = tcl.eval("set msg")
    assert msg.startswith("can't set \"window_\"")
    assert "expected a number" in msg


def test_instvar_parse_part1(tcl):
    tcl.eval("Agent instproc pp {} { $self instvar -parse-part1 tab(x);"
             " set tab 5; return [info exists tab] }")
    o = tcl.eval("new Agent")
    assert tcl.eval("%s pp" % o) == "1"
    assert tcl.eval("%s set tab(x)" % o) == "5"


def test_init_instvar_and_warning(tcl):
    tcl.eval("Agent/TCP set window_ 20")
    o = tcl.eval("new Agent/TCP")
    clear_log(tcl)
    tcl.eval("%s init-instvar window_" % o)
    assert log(tcl) == "{set %s window_ 20}" % o
    tcl.eval("Agent set other_ 5")
    tcl.eval("%s init-instvar other_" % o)
    assert tcl.eval("%s set other_" % o) == "5"


# ----------------------------------------------------------------------
# class defaults

def test_class_defaults_resolution_order(tcl):
    tcl.eval("""
        Agent set ttl_ 32
        Agent set window_ 1
        Agent/TCP set window_ 20
        Agent/TCP/Reno set window_ 30
        Class MyReno -superclass Agent/TCP/Reno
        MyReno set maxburst_ 4
        SplitObject set fid_ 9
        Object set dst_ 77
    """)
    d = dict(zip(*[iter(tcl.splitlist(
        tcl.eval("::dumbbell::class_defaults Agent/TCP/Reno MyReno")))] * 2))
    assert d == {"ttl_": "32", "window_": "30", "maxburst_": "4",
                 "fid_": "9", "dst_": "77"}
    d = dict(zip(*[iter(tcl.splitlist(
        tcl.eval("::dumbbell::class_defaults Agent/TCP Agent/TCP")))] * 2))
    assert d == {"ttl_": "32", "window_": "20", "fid_": "9", "dst_": "77"}
    # defaults reach the engine when objects are created
    o = tcl.eval("new MyReno")
    assert tcl.eval("%s set window_" % o) == "30"
    assert tcl.eval("%s set maxburst_" % o) == "4"
    # the order follows the list order: bound variables of the kind
    flat = tcl.splitlist(tcl.eval("::dumbbell::class_defaults Agent Agent"))
    assert list(flat[0::2]) == ["dst_", "fid_", "ttl_"]


def test_class_defaults_cache_and_invalidation(tcl):
    tcl.eval("Agent set ttl_ 32")
    e0 = int(tcl.eval("set ::dumbbell::defaults_epoch"))
    assert tcl.eval("::dumbbell::class_defaults Agent Agent") == "ttl_ 32"
    # cached: a direct namespace write (not through OTcl) is not seen
    tcl.eval("set [::otcl::api::varname Agent ttl_] 1")
    assert tcl.eval("::dumbbell::class_defaults Agent Agent") == "ttl_ 32"
    # class-level set bumps the epoch and invalidates
    tcl.eval("Agent set ttl_ 64")
    e1 = int(tcl.eval("set ::dumbbell::defaults_epoch"))
    assert e1 > e0
    assert int(tcl.eval("::dumbbell::defaults_epoch")) == e1
    assert tcl.eval("::dumbbell::class_defaults Agent Agent") == "ttl_ 64"
    # reading does not bump
    tcl.eval("Agent set ttl_")
    assert int(tcl.eval("set ::dumbbell::defaults_epoch")) == e1
    # unset bumps
    tcl.eval("Agent unset ttl_")
    assert tcl.eval("::dumbbell::class_defaults Agent Agent") == ""
    # instvar on a class (may write) bumps
    e2 = int(tcl.eval("set ::dumbbell::defaults_epoch"))
    tcl.eval("Agent proc setttl {v} { $self instvar ttl_; set ttl_ $v }")
    tcl.eval("Agent setttl 5")
    assert int(tcl.eval("set ::dumbbell::defaults_epoch")) > e2
    assert tcl.eval("::dumbbell::class_defaults Agent Agent") == "ttl_ 5"
    # array set on a class goes through instvar
    e3 = int(tcl.eval("set ::dumbbell::defaults_epoch"))
    tcl.eval("Agent array set tbl {a 1}")
    assert int(tcl.eval("set ::dumbbell::defaults_epoch")) > e3
    # instance-level set does not bump
    o = tcl.eval("new Agent")
    e4 = int(tcl.eval("set ::dumbbell::defaults_epoch"))
    tcl.eval("%s set ttl_ 3; %s set plain 1" % (o, o))
    assert int(tcl.eval("set ::dumbbell::defaults_epoch")) == e4
    # hierarchy changes invalidate too
    tcl.eval("Class Sub -superclass Agent")
    tcl.eval("Class Other; Other set ttl_ 111")
    assert tcl.eval("::dumbbell::class_defaults Agent Sub") == "ttl_ 5"
    tcl.eval("Sub superclass {Other Agent}")
    assert tcl.eval("::dumbbell::class_defaults Agent Sub") == "ttl_ 111"


def test_boundvars_cached_per_kind(tcl):
    clear_log(tcl)
    tcl.eval("new Queue/DropTail; new Queue/DropTail")
    tcl.eval("::dumbbell::class_defaults Queue/DropTail Queue/DropTail")
    assert calls(tcl, "boundvars") == 1
    assert tcl.eval("::dumbbell::boundvars Queue/DropTail") == \
        "limit_ blocking_ drop_front_"
    assert calls(tcl, "boundvars") == 1


# ----------------------------------------------------------------------
# engine commands

def test_unknown_dispatches_to_engine(tcl):
    o = tcl.eval("new Agent/TCP")
    clear_log(tcl)
    assert tcl.eval("%s ping" % o) == "pong"
    assert tcl.eval("%s echo a {b c} d" % o) == "a {b c} d"
    assert log(tcl) == "{cmd %s ping} {cmd %s echo a {b c} d}" % (o, o)
    # repeated calls (cached dispatch) still reach the engine
    for _ in range(3):
        assert tcl.eval("%s ping" % o) == "pong"
    assert tcl.eval("%s cmd kind" % o) == "Agent/TCP"
    # Tcl methods take precedence over engine commands
    tcl.eval("Agent instproc ping {} { return tcl-ping }")
    assert tcl.eval("%s ping" % o) == "tcl-ping"
    assert tcl.eval("%s cmd ping" % o) == "pong"


def test_unknown_engine_error_message(tcl):
    o = tcl.eval("new Agent/TCP/Reno")
    assert tcl.eval("catch {%s frobnicate 1 2} msg" % o) == "1"
    assert tcl.eval("set msg") == \
        "error when calling class Agent/TCP/Reno: frobnicate 1 2"
    assert 'no such engine command "frobnicate"' in \
        tcl.eval("set ::errorInfo")
    assert tcl.eval("catch {%s cmd frobnicate} msg" % o) == "1"
    assert tcl.eval("set msg") == 'no such engine command "frobnicate"'


def test_unknown_can_be_overridden_like_ns_compat(tcl):
    o = tcl.eval("new Agent")
    tcl.eval("set old [TclObject info instbody unknown]")
    tcl.eval("TclObject instproc unknown args { return \"wrapped $args\" }")
    assert tcl.eval("%s anything 1" % o) == "wrapped anything 1"
    tcl.eval("TclObject instproc unknown args $old")
    assert tcl.eval("%s ping" % o) == "pong"


# ----------------------------------------------------------------------
# integration with a Python-implemented backend

def test_python_backend_commands():
    t = new_interp()
    store = {}

    def shadow(obj, cls, argv):
        store[obj] = {}
        return "Agent"

    def boundvars(kind):
        return "rate_ size_"

    def get(obj, var):
        return store[obj].get(var, "0")

    def set_(obj, var, val):
        store[obj][var] = str(float(val))
        return store[obj][var]

    def cmd(obj, *args):
        return "py:" + " ".join(args)

    def delete(obj):
        store.pop(obj, None)
        return ""

    for name, fn in [("shadow", shadow), ("boundvars", boundvars),
                     ("get", get), ("set", set_), ("cmd", cmd),
                     ("delete", delete)]:
        t.createcommand("::dumbbell::be::" + name, fn)
    t.eval("::dumbbell::register_class Agent")
    o = t.eval("new Agent")
    assert t.eval("%s set rate_ 5" % o) == "5.0"
    assert store[o]["rate_"] == "5.0"
    t.eval("Agent instproc dbl {} { $self instvar rate_; "
           "set rate_ [expr {$rate_ * 2}] }")
    t.eval("%s dbl" % o)
    assert store[o]["rate_"] == "10.0"
    assert t.eval("%s hello world" % o) == "py:hello world"
    t.eval("delete %s" % o)
    assert o not in store


def test_unset_bound_variable_rearms_traces(tcl):
    tcl.eval("""
        Agent/TCP instproc rd {} { $self instvar window_; return $window_ }
        Agent/TCP instproc drop {} { $self instvar window_; unset window_ }
    """)
    o = tcl.eval("new Agent/TCP")
    tcl.eval("%s set window_ 5" % o)
    assert tcl.eval("%s rd" % o) == "5"
    tcl.eval("%s drop" % o)
    tcl.eval("set ::mock::values(%s,window_) 6" % o)
    clear_log(tcl)
    assert tcl.eval("%s rd" % o) == "6"
    assert tcl.eval("%s rd" % o) == "6"
    # exactly one engine read per Tcl read (no duplicated traces)
    assert calls(tcl, "get") == 2


def test_destroy_unsets_without_engine_traffic(tcl):
    tcl.eval("Agent/TCP instproc rd {} { $self instvar window_; return $window_ }")
    o = tcl.eval("new Agent/TCP")
    tcl.eval("%s set window_ 5" % o)
    tcl.eval("%s rd" % o)
    clear_log(tcl)
    tcl.eval("delete %s" % o)
    assert log(tcl) == "{delete %s}" % o


def test_split_object_info_and_class_queries(tcl):
    o = tcl.eval("new Agent/TCP/Reno")
    assert tcl.eval("%s info class" % o) == "Agent/TCP/Reno"
    assert tcl.eval("%s info class Agent" % o) == "1"
    assert tcl.eval("%s info class SplitObject" % o) == "1"
    assert tcl.eval("%s info class Queue" % o) == "0"
    assert tcl.eval("lsort [SplitObject info instprocs]") == \
        "destroy init init-instvar unknown warn-instvar"
    assert tcl.eval("lsort [SplitObject info procs]") == \
        "getid is-class register"
