#!/usr/bin/env bash
# Regenerate tests/tools/fixtures/expected/*.out with ns-2's ORIGINAL Perl
# helper scripts, for the cases listed in tests/tools/fixtures/cases.txt.
#
# Usage: tests/tools/regen.sh [NS2_BIN]
#   NS2_BIN: ns-2 source bin/ directory holding getrc, raw2xg, raw2xg-sctp,
#            set_flow_id
#            (default: $NS2_BIN, else /work/debsrc/ns-2.35/bin).
# Needs perl.  Then review with "git diff tests/tools/fixtures".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-${NS2_BIN:-/work/debsrc/ns-2.35/bin}}
for t in getrc raw2xg raw2xg-sctp set_flow_id; do
  [ -f "$bin/$t" ] || { echo "regen.sh: no $t in $bin" >&2; exit 2; }
done

# ns-2's raw2xg does "require 'getopts.pl'" (Perl 4), which modern Perl no
# longer ships; give it a Getopts() built on Getopt::Std.
perl5=$(mktemp -d); trap 'rm -rf "$perl5"' EXIT
cat >"$perl5/getopts.pl" <<'EOF'
require Getopt::Std;
sub Getopts {
    my %given;
    my $ok = Getopt::Std::getopts($_[0], \%given);
    no strict 'refs';
    while (my ($letter, $value) = each %given) { ${"main::opt_$letter"} = $value; }
    return $ok;
}
1;
EOF
export PERL5LIB="$perl5${PERL5LIB:+:$PERL5LIB}"

cd "$here/fixtures"
mkdir -p expected
rm -f expected/*.out
n=0
while read -r id tool input trace args; do
  case "$id" in ''|'#'*) continue ;; esac
  read -r -a argv <<<"${args:-}"
  if [ "$input" = stdin ]; then
    perl "$bin/$tool" "${argv[@]}" <"$trace" >"expected/$id.out"
  else
    perl "$bin/$tool" "${argv[@]}" "$trace" </dev/null >"expected/$id.out"
  fi
  n=$((n + 1))
done <cases.txt
# ns2oldns.pl needs ns-2's Perl trace library (bin/NS) and reads stdin only.
if [ -f "$bin/ns2oldns.pl" ]; then
  perl -I"$bin" "$bin/ns2oldns.pl" <tagged.tr >expected/ns2oldns.out 2>/dev/null
  n=$((n + 1))
fi
echo "regen.sh: wrote $n expected outputs in $here/fixtures/expected"
