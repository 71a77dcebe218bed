# Placeholder for ns-2's Perl trace library module NS::TraceFileEvent.
#
# ns-2's tagged-trace suite checks that NS::TraceFileEvent, ::TraceFileReader
# and ::TraceFileWriter load (perl -I../../bin -MNS::... -e exit) before it
# runs ../../bin/ns2oldns.pl; Dumbbell's ns2oldns.pl (Python, beside this
# directory) needs none of them.  This module defines nothing.
package NS::TraceFileEvent;
1;
