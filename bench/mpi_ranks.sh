#!/usr/bin/env bash
# The cost and gain of sharding over MPI ranks on this machine (docs/performance.md, "Past one
# machine"): the same verify and eval as one process and under `mpirun -np R`, R = 1, 2, 3, wall
# time of the whole command (MPI's start included), median of 3 runs, with the digests compared.
# Ranks are not bound to cores (--bind-to none): each one runs threads on every core.
# Usage: bench/mpi_ranks.sh BUILD_DIR   (from the source root)
set -euo pipefail
rnncc=$(realpath "${1:-build}/cli/rnncc")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
"$rnncc" compile examples/s5_word_problem.json -n 24 --target boolean -o "$work/s5.json" > /dev/null
verify=(verify model examples/binary_value_wfa.json --against examples/wfa_binary_value.att
        --no-proof --exhaustive 15 --seed 1 --no-timing --json)
eval_=(eval "$work/s5.json" --batch 1073741824 --max-work 100000000000000 --json)
median() { sort -n | sed -n 2p; }
time_of() {  # the median wall time of 3 runs of "$@", in seconds; the output of the last kept
  for _ in 1 2 3; do
    /usr/bin/time -f %e -o "$work/t" "$@" > "$work/out" 2> /dev/null || [[ $? == 1 ]]
    cat "$work/t"
  done | median
}
digest() {
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j.get("fingerprint") or j["checked"])' "$work/out"
}
printf '%-34s %10s %10s  %s\n' "run" "verify (s)" "eval (s)" "same result as one process"
v1=$(time_of "$rnncc" "${verify[@]}"); vd=$(digest)
e1=$(time_of "$rnncc" "${eval_[@]}"); ed=$(digest)
printf '%-34s %10s %10s  %s\n' "one process" "$v1" "$e1" "-"
for R in 1 2 3; do
  v=$(time_of mpirun --bind-to none -np $R "$rnncc" "${verify[@]}"); vs=$([[ "$(digest)" == "$vd" ]] && echo yes || echo NO)
  e=$(time_of mpirun --bind-to none -np $R "$rnncc" "${eval_[@]}"); es=$([[ "$(digest)" == "$ed" ]] && echo yes || echo NO)
  printf '%-34s %10s %10s  %s\n' "mpirun -np $R" "$v" "$e" "verify $vs, eval $es"
done
