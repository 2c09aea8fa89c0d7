#!/usr/bin/env bash
# Out of memory is a diagnostic, never an abort (issue 25; cli/error_boundary.hpp).
#   out_of_memory.sh RNNCC DIR
# Under an address-space limit of 300 MB (ulimit -v), a compile whose estimate passes
# --max-memory (raised on purpose) runs out of memory: it must exit 3 with "rnncc: error: out of
# memory while compiling …; lower --length/-n …" and leave nothing beside its target. Skipped
# where rnncc cannot start under the limit (a sanitizer build reserves terabytes of addresses).
# Run from the source root (examples/ paths).
set -u
rnncc=$1 dir=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$dir" && mkdir -p "$dir" || fail "cannot make $dir"
limit=300000  # KiB of address space
if ! (ulimit -v $limit && "$rnncc" --version) >/dev/null 2>&1; then
  echo "SKIPPED: rnncc does not start under ulimit -v $limit (a sanitizer build?)"
  exit 0
fi
(ulimit -v $limit && exec "$rnncc" compile examples/s5_word_problem.json -n 200000 \
  --target boolean --max-memory 1000000 -o "$dir/big.json") 2>"$dir.err"
rc=$?
err=$(cat "$dir.err")
rm -f "$dir.err"
[ $rc -eq 3 ] || fail "exit $rc, expected 3: $err"
expected="rnncc: error: out of memory while compiling examples/s5_word_problem.json for n = 200000; lower --length/-n"
[[ "$err" == "$expected"* ]] || fail "stderr: $err"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "more than one line on stderr: $err"
left=$(ls -A "$dir")
[ -z "$left" ] || fail "left behind: $left"
rmdir "$dir"
echo "ok: exit 3, '$err', nothing left"
