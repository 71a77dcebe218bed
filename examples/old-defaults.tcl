# ns-2 defaults of the early 2000s, for reproducing papers of that time.
#
# The seeds' experiments ran on ns 2.1b5 (1999) to 2.1b8 (2001).  Several
# defaults changed later, and ns-2 2.35 (whose defaults Dumbbell uses)
# differs in ways that move the papers' figures.  This sets them back, as
# ns-2's own validation suites do in their "FOR UPDATING GLOBAL DEFAULTS"
# blocks: RED measured in packets (bytes_/queue_in_bytes_ became true in
# 2004), no gentle mode (true since April 2001), no mark_p_ rule (which
# drops instead of marking once the probability exceeds 0.1; 2005); TCP
# without the SYN exchange, with an initial window of 1, without RFC 2988's
# timer rules and the 1 s minimum RTO.
#
# Use: source [file join [file dirname [info script]] .. old-defaults.tcl]
Queue/RED set bytes_ false
Queue/RED set queue_in_bytes_ false
Queue/RED set gentle_ false
Queue/RED set use_mark_p_ false
Agent/TCP set windowInit_ 1
Agent/TCP set syn_ false
Agent/TCP set delay_growth_ false
Agent/TCP set useHeaders_ false
Agent/TCP set rfc2988_ false
Agent/TCP set minrto_ 0
