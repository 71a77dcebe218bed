# instvar statements in all kinds of places in a method body
Class Foo
Foo instproc init {} { $self set a 1; $self set b 2 }
Foo instproc semi {} {
    $self instvar a; set a [expr {$a + 10}]
    return $a
}
Foo instproc comment {} {
    $self instvar a b ;# trailing comment
    return "$a $b"
}
Foo instproc nested {flag} {
    if {$flag} {
        $self instvar a
        return "nested $a"
    } else {
        foreach i {1} {
            $self instvar b
        }
        return "loop $b"
    }
}
Foo instproc inbracket {} {
    set r [$self instvar a]
    return "<$r> $a"
}
Foo instproc quoted {} {
    set s "first line
    $self instvar a
    last line"
    return $s
}
Foo instproc braced {} {
    set s {
    $self instvar a
    }
    return [string trim $s]
}
Foo instproc evald {} {
    set script {
        $self instvar b
        set b
    }
    return [eval $script]
}
Foo instproc cont {} {
    $self instvar \
        a \
        b
    return "$a $b"
}
Foo instproc tabs {} {
	$self	instvar	a	b
	return "$a $b"
}
Foo instproc self_reassigned {other} {
    set self $other
    $self instvar a
    return $a
}
Foo instproc comment_line {} {
    # $self instvar nothing
    $self instvar a
    return $a
}
Foo instproc odd_quote_comment {} {
    # a comment with one " quote
    $self instvar a
    return $a
}
Foo f
puts [f semi]
puts [f comment]
puts [f nested 1]
puts [f nested 0]
puts [f inbracket]
puts [f quoted]
puts [f braced]
puts [f evald]
puts [f cont]
puts [f tabs]
Foo g
g set a 500
puts [f self_reassigned g]
puts [f comment_line]
puts [f odd_quote_comment]
puts [string match {*$self instvar a b ;# trailing comment*} [Foo info instbody comment]]
puts [string match {*if*} [Foo info instbody comment]]
# errors from instvar lines keep the original line numbers
Foo instproc errline {} {
    set x 1
    set a 5
    $self instvar a
}
puts [catch {f errline} msg]
puts $msg
puts [regexp {line 4\)} $::errorInfo]
