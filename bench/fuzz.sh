#!/usr/bin/env bash
# bench/fuzz.sh [SECONDS] [JOBS] [BUILD_DIR]
#
# Runs every libFuzzer target of a fuzz build tree (BUILD_DIR/tests/fuzz/fuzz_*, built with
# -DRNNCC_FUZZ=ON, docs/reliability.md) for SECONDS each, JOBS targets at a time, each through
# tests/fuzz/run_fuzzer.sh on a copy of its checked-in corpus (tests/fuzz/corpus/<name>/) with
# its dictionary. Prints one row per target (executions, executions/s, corpus size before and
# after, findings, exit status), writes the same as JSON to WORK/summary.json, and exits 1 when
# any target found something (its reproducers are listed; WORK/<name>/log has the report).
#
#   SECONDS    per target, default 60 (the goal of issue 14: 600, i.e. ten minutes)
#   JOBS       targets run at once (each uses one core), default nproc
#   BUILD_DIR  relative to the repository root or absolute, default build-fuzz
#   FUZZ_WORK  (environment) the work folder, default BUILD_DIR/fuzz-bench
#
# It builds nothing: a copy of the build tree on another machine (same libraries: libgmp,
# libflint, libfmt) is enough, as long as it runs from a checkout of the same commit — the
# corpora and dictionaries are read from the repository, never written.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
seconds=${1:-60} jobs=${2:-$(nproc)} build=${3:-build-fuzz}
work=${FUZZ_WORK:-$build/fuzz-bench}
usage="usage: bench/fuzz.sh [SECONDS] [JOBS] [BUILD_DIR]"
[[ $seconds =~ ^[1-9][0-9]*$ && $jobs =~ ^[1-9][0-9]*$ ]] || { echo "$usage" >&2; exit 2; }

targets=()
for f in "$build"/tests/fuzz/fuzz_*; do
  # A libFuzzer binary, not the corpus replayer a build without RNNCC_FUZZ makes of the same name.
  [[ -f $f && -x $f ]] && grep -qa -- '-max_total_time' "$f" && targets+=("$f")
done
if ((${#targets[@]} == 0)); then
  cat >&2 <<EOF
bench/fuzz.sh: no libFuzzer targets in $build/tests/fuzz; build them first (docs/reliability.md):
  cmake -S . -B $build -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \\
    -DRNNCC_ENABLE_CUDA=OFF -DRNNCC_FUZZ=ON -DRNNCC_SANITIZE=address,undefined
  cmake --build $build
EOF
  exit 2
fi
missing=$(ldd "${targets[0]}" 2>/dev/null | grep 'not found')
[[ -z $missing ]] || { echo "bench/fuzz.sh: ${targets[0]} lacks libraries:" >&2; echo "$missing" >&2; exit 2; }

mkdir -p "$work" && work=$(cd "$work" && pwd)
echo "fuzzing ${#targets[@]} targets for $seconds s each, $jobs at a time ($(nproc) cores), work in $work"
export seconds work
printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -n 1 bash -c '
  name=$(basename "$1"); name=${name#fuzz_}
  bash tests/fuzz/run_fuzzer.sh "$1" tests/fuzz "$name" "$seconds" "$work" >"$work/$name.out" 2>&1
  head -n 1 "$work/$name.out"' _

# The table and the JSON summary, from each run's result line (run_fuzzer.sh).
json_rows=() failed=0
printf '\n%-22s %12s %9s %15s %9s %5s\n' target executions "exec/s" "corpus (seeds)" findings exit
for f in "${targets[@]}"; do
  name=$(basename "$f") name=${name#fuzz_}
  seeds=$(find "tests/fuzz/corpus/$name" -type f 2>/dev/null | wc -l)
  executions=0 rate=0 corpus=0 findings=0 exit=missing elapsed=0
  if [[ -f $work/$name/result ]]; then
    read -r -a kv <"$work/$name/result"
    for p in "${kv[@]}"; do
      case $p in
        executions=*) executions=${p#*=} ;; rate=*) rate=${p#*=} ;; corpus=*) corpus=${p#*=} ;;
        findings=*) findings=${p#*=} ;; exit=*) exit=${p#*=} ;; seconds=*) elapsed=${p#*=} ;;
      esac
    done
  fi
  [[ $exit == 0 && $findings == 0 ]] || failed=1
  printf '%-22s %12s %9s %15s %9s %5s\n' "$name" "$executions" "$rate" "$corpus ($seeds)" "$findings" "$exit"
  [[ $exit =~ ^[0-9]+$ ]] || exit=null
  json_rows+=("$(printf '    {"target": "%s", "seconds": %s, "executions": %s, "executions_per_second": %s, "seeds": %s, "corpus": %s, "findings": %s, "exit": %s}' \
    "$name" "$elapsed" "$executions" "$rate" "$seeds" "$corpus" "$findings" "$exit")")
done
{
  printf '{\n  "commit": "%s",\n  "date": "%s",\n  "host": "%s",\n  "cores": %s,\n' \
    "$(git rev-parse --short HEAD 2>/dev/null || echo unknown)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
    "$(hostname)" "$(nproc)"
  printf '  "seconds_per_target": %s,\n  "jobs": %s,\n  "targets": [\n' "$seconds" "$jobs"
  for i in "${!json_rows[@]}"; do
    ((i + 1 < ${#json_rows[@]})) && sep=, || sep=
    printf '%s%s\n' "${json_rows[$i]}" "$sep"
  done
  printf '  ]\n}\n'
} >"$work/summary.json"
echo "summary: $work/summary.json"
if ((failed)); then
  echo "findings (reproducers; add each to tests/fuzz/corpus/<name>/ as crash-<what> once fixed):"
  find "$work" -path '*/artifacts/*' -type f -printf '  %p\n'
  exit 1
fi
