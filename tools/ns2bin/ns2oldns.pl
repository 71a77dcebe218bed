#!/usr/bin/perl
# ns2oldns.pl -- turn a tagged ns-2 trace into the old positional format.
#
# Dumbbell's replacement for ns-2's bin/ns2oldns.pl, same output.  Unlike
# the other helpers here it is Perl: the tagged-trace suite runs it as
# "$PERL -I../../bin ../../bin/ns2oldns.pl", and perl would pass -I on to
# another interpreter named on the #! line.  It needs no module.
#
# Reads standard input (as the original, arguments are ignored) and
# writes, for every packet line of type +, -, r or d in the tagged format
# ($ns use-taggedtrace: "TYPE TIME -s SRC -d DST -p PTYPE -e SIZE -c FID
# -i UID -a FID -x {SADDR DADDR SEQNO FLAGS SNAME}"), the line
#
#     TYPE TIME SRC DST PTYPE SIZE FLAGS FID SADDR DADDR SEQNO UID
#
# with TIME as written.  Comment lines (TYPE starting with #) are copied;
# every other line (h, v, ...) is left out.  A tag's value ends at white
# space, or is a balanced {...} or [...] group (which may hold "..."); a
# value that opens a group it does not close, or starts with a quote, is
# empty, and its text is read as the next tags; a later tag of the same
# name wins; a missing tag prints as nothing.  As in the original, a line
# with a type but no time (or an empty line) ends the conversion.

use strict;
use warnings;

# Split a leading balanced {...} or [...] group off $s: (group, rest), or
# (undef, $s) when there is none.
sub bracketed {
    my ($s) = @_;
    return (undef, $s) if $s =~ /^"/;
    my %close = ('{' => '}', '[' => ']');
    my @stack;
    my $n = length $s;
    for (my $i = 0; $i < $n; $i++) {
        my $c = substr($s, $i, 1);
        if (@stack and $stack[-1] eq '"') {
            if ($c eq '\\') { $i++; }
            elsif ($c eq '"') { pop @stack; }
        } elsif ($c eq '\\') {
            $i++;
        } elsif (exists $close{$c} or $c eq '"') {
            push @stack, $c;
        } elsif ($c eq '}' or $c eq ']') {
            return (undef, $s) unless @stack and $close{$stack[-1]} eq $c;
            pop @stack;
        }
        return (substr($s, 0, $i + 1), substr($s, $i + 1)) unless @stack;
    }
    return (undef, $s);
}

# The tag => value pairs of the rest of a tagged line.
sub tags {
    my ($s) = @_;
    my %d;
    while (1) {
        $s =~ s/^\s+//;
        last if $s eq '';
        my ($tag, $rest) = split ' ', $s, 2;
        $tag =~ s/-//;
        $s = defined $rest ? $rest : '';
        $s =~ s/^\s+//;
        if ($s =~ /^[{\["]/) {
            ($d{$tag}, $s) = bracketed($s);
        } else {
            my ($value, $more) = split ' ', $s, 2;
            $d{$tag} = $value;
            last unless defined $value;
            $s = defined $more ? $more : '';
        }
    }
    return %d;
}

while (my $line = <STDIN>) {
    chomp $line;
    my ($type, $time, $rest) = split ' ', $line, 3;
    $type = '' unless defined $type;
    if ($type =~ /^#/) {
        print "$line\n";
        next;
    }
    last unless defined $time;
    next unless $type =~ /^[-+rd]$/;
    my %d = tags(defined $rest ? $rest : '');
    my $x = defined $d{'x'} ? $d{'x'} : '';
    $x =~ s/^\{(.*)\}$/$1/;
    my @x = split ' ', $x;
    my @f = map { defined $_ ? $_ : '' } ($type, $time, $d{'s'}, $d{'d'}, $d{'p'}, $d{'e'}, $x[3],
                                          $d{'c'}, $x[0], $x[1], $x[2], $d{'i'});
    print join(' ', @f), "\n";
}
