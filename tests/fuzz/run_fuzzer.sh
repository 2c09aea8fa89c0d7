#!/usr/bin/env bash
# run_fuzzer.sh FUZZER FUZZ_DIR NAME SECONDS WORK_DIR
# Runs one libFuzzer target for SECONDS on a copy of its checked-in corpus (the source tree is
# never written), with its dictionary when there is one. Exit 0 when nothing was found; a
# finding leaves its reproducer in WORK_DIR/NAME/ and exits nonzero. Prints one summary line:
#   fuzz NAME: <executions> executions in <s> s (<rate>/s), corpus <n>, findings <k>
set -uo pipefail
fuzzer=$1 dir=$2 name=$3 seconds=$4 work=$5/$name
rm -rf "$work" && mkdir -p "$work/corpus" "$work/artifacts"
cp -r "$dir/corpus/$name/." "$work/corpus/" 2>/dev/null || true
args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536
      -print_final_stats=1 -artifact_prefix="$work/artifacts/")
[[ -f $dir/dict/$name.dict ]] && args+=(-dict="$dir/dict/$name.dict")
"$fuzzer" "${args[@]}" "$work/corpus" >"$work/log" 2>&1
rc=$?
execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/log" | grep -o '[0-9]*$' || echo 0)
secs=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$work/log" | grep -o '[0-9]*$' || echo 0)
findings=$(find "$work/artifacts" -type f | wc -l)
corpus=$(find "$work/corpus" -type f | wc -l)
echo "fuzz $name: ${execs:-0} executions in $seconds s (${secs:-0}/s), corpus $corpus, findings $findings"
if ((rc != 0 || findings > 0)); then
  tail -n 60 "$work/log"
  find "$work/artifacts" -type f -printf 'reproducer: %p\n'
  exit 1
fi
