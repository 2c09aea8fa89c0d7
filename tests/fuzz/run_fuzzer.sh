#!/usr/bin/env bash
# run_fuzzer.sh FUZZER FUZZ_DIR NAME SECONDS WORK_DIR
# Runs one libFuzzer target for SECONDS on a copy of its checked-in corpus (the source tree is
# never written), with its dictionary when there is one. Exit 0 when nothing was found; a
# finding (crash, sanitizer report, leak, uncaught exception, input slower than 10 s, more than
# 2 GiB) leaves its reproducer in WORK_DIR/NAME/artifacts/ and exits 1. Prints one summary line:
#   fuzz NAME: <executions> executions in <s> s (<rate>/s), corpus <n>, findings <k>, exit <rc>
# and writes the same figures to WORK_DIR/NAME/result (one line of `key=value` pairs) for
# bench/fuzz.sh. Sanitizer options default to those of the ctest environment of the sanitizer
# tree (tests/sanitizer_env.cmake.in); options already in the environment win.
set -uo pipefail
fuzzer=$1 dir=$2 name=$3 seconds=$4 work=$5/$name
[[ -x $fuzzer ]] || { echo "run_fuzzer.sh: $fuzzer: not an executable" >&2; exit 2; }
common="halt_on_error=1:abort_on_error=0:exitcode=86:print_stacktrace=1"
export ASAN_OPTIONS="$common:detect_leaks=1:detect_stack_use_after_return=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="$common:print_summary=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export LSAN_OPTIONS="exitcode=86:suppressions=$(cd "$dir/.." && pwd)/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
rm -rf "$work" && mkdir -p "$work/corpus" "$work/artifacts"
cp -r "$dir/corpus/$name/." "$work/corpus/" 2>/dev/null || true
args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536
      -print_final_stats=1 -artifact_prefix="$work/artifacts/")
[[ -f $dir/dict/$name.dict ]] && args+=(-dict="$dir/dict/$name.dict")
start=$(date +%s)
"$fuzzer" "${args[@]}" "$work/corpus" >"$work/log" 2>&1
rc=$?
elapsed=$(($(date +%s) - start))
figure() { grep -o "stat::$1: *[0-9]*" "$work/log" | grep -o '[0-9]*$' | tail -n 1; }
execs=$(figure number_of_executed_units) rate=$(figure average_exec_per_sec)
execs=${execs:-0} rate=${rate:-0}
# libFuzzer prints no final rate when a finding ends the run: executions over elapsed time then.
((rate == 0 && elapsed > 0)) && rate=$((execs / elapsed))
findings=$(find "$work/artifacts" -type f | wc -l)
corpus=$(find "$work/corpus" -type f | wc -l)
echo "fuzz $name: $execs executions in $elapsed s (${rate}/s), corpus $corpus, findings $findings, exit $rc"
echo "name=$name executions=$execs seconds=$elapsed rate=$rate corpus=$corpus findings=$findings exit=$rc" \
  >"$work/result"
if ((rc != 0 || findings > 0)); then
  tail -n 60 "$work/log"
  find "$work/artifacts" -type f -printf 'reproducer: %p\n'
  exit 1
fi
