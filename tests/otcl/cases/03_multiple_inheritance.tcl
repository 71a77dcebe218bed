# multiple inheritance and OTcl's precedence order
Class A
Class B
Class C -superclass {A B}
puts [C info heritage]
puts [C info superclass]
Class D -superclass A
Class E -superclass {D B}
puts [E info heritage]
# diamond
Class Top
Class L -superclass Top
Class R -superclass Top
Class Bot -superclass {L R}
puts [Bot info heritage]
# deeper mix
Class X
Class Y -superclass X
Class Z -superclass X
Class W -superclass {Y Z}
Class V -superclass Z
Class U -superclass {W V}
puts [U info heritage]
Class P
Class Q -superclass P
Class S
Class T -superclass {S Q}
Class M -superclass {T P}
puts [M info heritage]
foreach c {A B L R Top Y Z X} {
    $c instproc who {} "return \[list $c \[\$self next\]\]"
}
Bot b
puts [b who]
U u
puts [u who]
C c
puts [c who]
puts [Bot info superclass Top]
puts [Bot info superclass R]
puts [Top info subclass Bot]
puts [Top info subclass Top]
puts [L info subclass R]
puts [lsort [Top info subclass]]
