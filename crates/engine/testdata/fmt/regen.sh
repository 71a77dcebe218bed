#!/bin/sh
# Regenerates the glibc printf reference data used by tests/fmt_vectors.rs.
# Needs gcc and glibc; the Rust tests themselves need neither.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gcc -O2 -Wall -o "$tmp/gen" "$here/gen_fmt_vectors.c"
"$tmp/gen" digests > "$here/fmt_digests.txt"
"$tmp/gen" cases > "$here/fmt_cases.txt"
ldd --version | head -n 1 | sed 's/^/# generated with: /' >> "$here/fmt_digests.txt"
