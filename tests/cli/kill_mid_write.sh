#!/usr/bin/env bash
# Atomic outputs under signals and failures (issue 14, circuits/io/output_file.hpp).
#   kill_mid_write.sh RNNCC DIR MODE     MODE: INT | TERM (kill a long `compile -o` mid-work)
#                                              | fail (a compile that fails after opening -o)
# Over an existing target DIR/out.json, asserts: the process died by the signal (or exited
# nonzero), nothing but the old target remains in DIR, and the old target is byte-identical.
# Run from the source root (examples/ paths).
set -u
rnncc=$1 dir=$2 mode=$3
fail() { echo "FAIL ($mode): $*" >&2; exit 1; }
rm -rf "$dir" && mkdir -p "$dir" || fail "cannot make $dir"
old='{"old": "contents that must survive"}'
printf '%s\n' "$old" >"$dir/out.json"
expected=$(mktemp) && printf '%s\n' "$old" >"$expected"
trap 'rm -f "$expected"' EXIT

check_dir() {
  local left
  left=$(ls -A "$dir")
  [ "$left" = "out.json" ] || fail "the directory holds: $(echo $left)"
  cmp -s "$dir/out.json" "$expected" || fail "the old target changed"
}

if [ "$mode" = fail ]; then
  # The output is opened before the work; the budget refusal comes after: the temporary file
  # must go, the old target stay.
  "$rnncc" compile examples/dplr_d3.json --length 100000 --max-gates 1000 -o "$dir/out.json" \
    2>"$dir.err"
  rc=$?
  [ $rc -eq 2 ] || fail "exit $rc, expected 2: $(cat "$dir.err")"
  grep -q -- "--max-gates" "$dir.err" || fail "no budget diagnostic: $(cat "$dir.err")"
  rm -f "$dir.err"
  check_dir
  echo "ok: failed compile left the old target and no temporary file"
  exit 0
fi

case $mode in INT) signo=2 ;; TERM) signo=15 ;; *) fail "unknown mode" ;; esac
# Large enough to run for seconds: the temporary file exists from the start of the work. Job
# control on: a background job of a non-interactive shell would start with SIGINT ignored
# (and rnncc keeps a signal ignored that it inherited ignored).
set -m
"$rnncc" compile examples/dplr_d3.json --length 100000 -o "$dir/out.json" \
  2>/dev/null &
pid=$!
seen=""
for _ in $(seq 1 3000); do
  if compgen -G "$dir/out.json.rnncc-tmp-*" >/dev/null; then seen=yes; break; fi
  kill -0 $pid 2>/dev/null || break
  sleep 0.01
done
[ -n "$seen" ] || { kill -9 $pid 2>/dev/null; fail "no temporary file appeared beside the target"; }
sleep 0.3
kill -0 $pid 2>/dev/null || fail "the compile ended before the signal (make it larger)"
kill -s "$mode" $pid
wait $pid
rc=$?
[ $rc -ne 0 ] || fail "exit 0 after SIG$mode"
[ $rc -eq $((128 + signo)) ] || fail "exit $rc: expected death by SIG$mode ($((128 + signo)))"
check_dir
echo "ok: SIG$mode mid-write removed the temporary file and left the old target"
