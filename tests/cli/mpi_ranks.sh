#!/usr/bin/env bash
# `mpirun -np R rnncc verify|eval` (issue 26, item 5; algebra/ranks.hpp, algebra/sharded_run.hpp):
# with R = 1, 2 and 3 CPU ranks the reports equal the single process's — byte for byte for
# verify's JSON (checked counts, verdict, first counterexample), and per-output digests,
# patterns and fingerprint for eval; a run killed with SIGKILL resumes from its checkpoint, on
# another number of ranks, to the same digest; commands that do not shard are refused under
# mpirun; another job's checkpoint is refused.
# Usage: mpi_ranks.sh RNNCC WORKDIR   (run from the source root)
set -euo pipefail
rnncc=$(realpath "$1")
work=$2
rm -rf "$work" && mkdir -p "$work"
if ! command -v mpirun > /dev/null; then
  echo "SKIPPED: no mpirun (Debian: openmpi-bin)"
  exit 0
fi
# CI runs as root in a container: Open MPI asks for both variables, oversubscribes 3 ranks on 2
# cores only when told, and cannot use cross-memory attach there.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
mpi() { local ranks=$1; shift; mpirun --bind-to none -np "$ranks" "$rnncc" "$@"; }
fail() { echo "FAIL: $*"; exit 1; }
# Runs "$@", requires exit status $1.
expect() {
  local want=$1; shift
  set +e; "$@"; local got=$?; set -e
  [[ $got == "$want" ]] || fail "exit $got, expected $want: $*"
}
# The fields of eval --json that do not depend on where it ran.
digest() {
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["kind"], j["patterns"], j["per_output"], j["fingerprint"])' "$1"
}

# verify: a construction that holds (prefix sharing) and one refuted at a^13 (block 13 of 20).
models=tests/cli/models
verify_holds=(verify model examples/binary_value_wfa.json --against examples/wfa_binary_value.att
              --no-proof --exhaustive 14 --seed 1 --no-timing --json)
verify_refuted=(verify model "$models/zero_a.json" --against "$models/cycle13.att" --random 0
                --seed 1 --no-timing --no-proof --exhaustive 20 --json)
expect 0 "$rnncc" "${verify_holds[@]}" > "$work/holds.json"
expect 1 "$rnncc" "${verify_refuted[@]}" > "$work/refuted.json"
grep -q '"input": "aaaaaaaaaaaaa"' "$work/refuted.json" || fail "the counterexample is not a^13"
for R in 1 2 3; do
  expect 0 mpi $R "${verify_holds[@]}" > "$work/holds-$R.json" 2> "$work/holds-$R.err"
  cmp "$work/holds.json" "$work/holds-$R.json" || fail "verify (holds) on $R ranks differs"
  grep -q "over $R MPI rank" "$work/holds-$R.err" || fail "no sharding line on $R ranks"
  expect 1 mpi $R "${verify_refuted[@]}" > "$work/refuted-$R.json" 2> /dev/null
  cmp "$work/refuted.json" "$work/refuted-$R.json" || fail "verify (refuted) on $R ranks differs"
done

# eval: a boolean circuit and an arithmetic one (mod p digests).
"$rnncc" compile examples/s5_word_problem.json -n 24 --target boolean -o "$work/s5.json" > /dev/null
cp tests/cli/circuits/arith.json "$work/arith.json"
for c in s5 arith; do
  "$rnncc" eval "$work/$c.json" --batch 3000000 --seed 7 --json > "$work/$c-eval.json"
  for R in 1 2 3; do
    mpi $R eval "$work/$c.json" --batch 3000000 --seed 7 --json > "$work/$c-eval-$R.json" 2> /dev/null
    [[ "$(digest "$work/$c-eval.json")" == "$(digest "$work/$c-eval-$R.json")" ]] ||
      fail "eval $c on $R ranks: $(digest "$work/$c-eval-$R.json") vs $(digest "$work/$c-eval.json")"
  done
done

# SIGKILL mid-run, then resume on 3 ranks, then on 2 (all blocks read): the same digest.
big=(eval "$work/s5.json" --batch 1073741824 --max-work 100000000000000 --json)
"$rnncc" "${big[@]}" > "$work/big.json"
"$rnncc" "${big[@]}" --checkpoint "$work/big.ckpt" > /dev/null & pid=$!
sleep 1
kill -9 $pid 2> /dev/null || fail "the run ended before it was killed"
wait $pid 2> /dev/null || true
entries=$(($(wc -l < "$work/big.ckpt") - 3))
((entries > 0 && entries < 128)) || fail "the killed run recorded $entries of 128 blocks"
mpi 3 "${big[@]}" --checkpoint "$work/big.ckpt" > "$work/big-3.json" 2> /dev/null
[[ "$(digest "$work/big.json")" == "$(digest "$work/big-3.json")" ]] || fail "resumed on 3 ranks"
mpi 2 "${big[@]}" --checkpoint "$work/big.ckpt" > "$work/big-2.json" 2> /dev/null
[[ "$(digest "$work/big.json")" == "$(digest "$work/big-2.json")" ]] || fail "re-read on 2 ranks"
[[ $(($(wc -l < "$work/big.ckpt") - 3)) == 128 ]] || fail "the checkpoint does not hold 128 blocks"
# verify --checkpoint in one process: written, then read back to the same report.
expect 0 "$rnncc" "${verify_holds[@]}" --checkpoint "$work/v.ckpt" > "$work/v1.json" 2> /dev/null
expect 0 "$rnncc" "${verify_holds[@]}" --checkpoint "$work/v.ckpt" > "$work/v2.json" 2> "$work/v2.err"
cmp "$work/holds.json" "$work/v2.json" || fail "verify resumed from a complete checkpoint differs"
grep -q "18 resumed" "$work/v2.err" || fail "the second verify did not read its 18 blocks"

# Refusals: another job's checkpoint (exit 2, FILE:2); a command that does not shard.
expect 2 "$rnncc" eval "$work/arith.json" --batch 1000 --checkpoint "$work/big.ckpt" 2> "$work/other.err"
grep -q "big.ckpt:2: a checkpoint of another job" "$work/other.err" || fail "$(cat "$work/other.err")"
expect 2 mpi 2 stats "$work/s5.json" > /dev/null 2> "$work/stats.err"
expect 2 "$rnncc" eval "$work/s5.json" --outputs --batch 10 --checkpoint "$work/x.ckpt" 2> "$work/outputs.err"
grep -q "outputs prints every pattern from one process" "$work/outputs.err" || fail "$(cat "$work/outputs.err")"
echo "mpi: verify and eval agree on 1, 2 and 3 ranks; resumed after SIGKILL"
