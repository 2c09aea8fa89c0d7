#!/usr/bin/env bash
# SIGKILL at random instants of a large write (issue 25, item 5; circuits/io/output_file.hpp).
#   kill_at_random.sh RNNCC DIR METHOD [KILLS] [SEED]
#     METHOD: unnamed (O_TMPFILE, the default where the file system has it)
#           | named   (the fallback, forced by RNNCC_OUTPUT_NO_TMPFILE=1)
# Times one complete `compile -o` (the reference output), then KILLS times (default 50): writes
# an old target (mode 0600), starts the compile, kills it with SIGKILL after a delay drawn
# uniformly from [0, 1.1 × the reference time] (bash's RANDOM seeded with SEED, default 25), and
# requires: the target holds the old bytes or the complete output, byte for byte, with mode 0600;
# every temporary file left belongs to a killed process. Unnamed: a temporary file can only be
# left by a kill in the microseconds between naming the file and renaming it, so at most 2 kills
# of 50 may leave one. Then a complete run must leave the target and nothing else: it removes
# what the killed runs left. Run from the source root (examples/ paths).
set -u
rnncc=$1 dir=$2 method=$3 kills=${4:-50} seed=${5:-25}
fail() { echo "FAIL ($method, seed $seed): $*" >&2; exit 1; }
case $method in
  unnamed) unset RNNCC_OUTPUT_NO_TMPFILE ;;
  named) export RNNCC_OUTPUT_NO_TMPFILE=1 ;;
  *) fail "unknown method" ;;
esac
rm -rf "$dir" "$dir.ref" && mkdir -p "$dir" || fail "cannot make $dir"
trap 'rm -f "$dir.ref" "$dir.old"' EXIT
target=$dir/out.json
compile=("$rnncc" compile examples/s5_word_problem.json -n 1000 --target boolean -o "$target")

start=$(date +%s%N)
"${compile[@]}" >/dev/null || fail "the reference run failed"
span_us=$((($(date +%s%N) - start) / 1000))
mv "$target" "$dir.ref"
printf '{"old": "contents that must survive"}\n' >"$dir.old"

# Where the file system has no O_TMPFILE, "unnamed" falls back to named files: say so and
# check it as named.
if [ "$method" = unnamed ] &&
  ! /usr/bin/env python3 -c 'import os,sys; os.close(os.open(sys.argv[1], os.O_TMPFILE | os.O_WRONLY, 0o600))' "$dir" 2>/dev/null; then
  echo "note: no O_TMPFILE under $dir: checking the named fallback"
  method=named
fi

RANDOM=$seed
n_old=0 n_new=0 n_done=0 n_left=0
for i in $(seq 1 "$kills"); do
  cp "$dir.old" "$target" && chmod 0600 "$target"
  "${compile[@]}" >/dev/null 2>&1 &
  pid=$!
  delay=$(((RANDOM * 32768 + RANDOM) % (span_us * 11 / 10 + 1)))
  sleep "$(printf '%d.%06d' $((delay / 1000000)) $((delay % 1000000)))"
  kill -KILL $pid 2>/dev/null
  wait $pid 2>/dev/null
  rc=$?
  if cmp -s "$target" "$dir.old"; then
    n_old=$((n_old + 1))
  elif cmp -s "$target" "$dir.ref"; then
    n_new=$((n_new + 1))
    [ "$(stat -c %a "$target")" = 600 ] || fail "kill $i: the target's mode became $(stat -c %a "$target")"
  else
    fail "kill $i (after ${delay} µs, exit $rc): the target is neither the old bytes nor the complete output"
  fi
  [ $rc -eq 0 ] && n_done=$((n_done + 1))
  [ $rc -eq 0 ] || [ $rc -eq 137 ] || fail "kill $i: exit $rc, expected 137 (SIGKILL) or 0"
  left=$(compgen -G "$target.rnncc-tmp-*")
  if [ -n "$left" ]; then
    n_left=$((n_left + 1))
    for f in $left; do
      owner=${f#"$target.rnncc-tmp-"}
      owner=${owner%%-*}
      kill -0 "$owner" 2>/dev/null && fail "kill $i: $f belongs to a live process"
    done
  fi
  [ "$(ls -A "$dir" | grep -cv '^out\.json')" = 0 ] || fail "kill $i: the directory holds $(ls -A "$dir")"
done
if [ "$method" = unnamed ] && [ $n_left -gt 2 ]; then
  fail "$n_left of $kills kills left a named temporary file"
fi

"${compile[@]}" >/dev/null || fail "the run after the kills failed"
cmp -s "$target" "$dir.ref" || fail "the run after the kills wrote other bytes"
[ "$(ls -A "$dir")" = out.json ] || fail "after the next run the directory holds: $(ls -A "$dir" | tr '\n' ' ')"
echo "ok ($method): $kills SIGKILLs within $((span_us * 11 / 10)) µs of the start: $n_old left the old target, $n_new the complete output ($n_done had finished); $n_left left a temporary file, which the next run removed"
