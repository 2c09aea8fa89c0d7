#!/bin/bash
# The cases of docs/reliability.md, "Work and memory limits" (issue 25, item 3): each command run
# by every rnncc binary given, from the repository root, under a 4 GB address-space limit and a
# 60 s timeout; one line per case: exit code, wall and CPU time, peak RSS, the last line of
# stderr.   bench/limits_cases.sh BEFORE/rnncc AFTER/rnncc
set -u
cd "$(dirname "$0")/.."
ONES5K=$(python3 -c "print('1'*5000)"); ONES10K=$(python3 -c "print('1'*10000)")
AB60K=$(python3 -c "print('ab'*30000,end='')"); BIN60K=$(python3 -c "print('1'*60000,end='')")
measure() {  # label binary args...
  local label=$1 bin=$2; shift 2
  python3 - "$label" "$bin" "$@" <<'PY'
import resource, subprocess, sys, time
label, binary, args = sys.argv[1], sys.argv[2], sys.argv[3:]
def limit():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
t = time.time()
r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
try:
    p = subprocess.run([binary] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       timeout=60, preexec_fn=limit)
    rc, err = p.returncode, p.stderr.decode(errors="replace").strip().splitlines()
except subprocess.TimeoutExpired:
    rc, err = "timeout", []
wall = time.time() - t
r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
rss = r1.ru_maxrss / 1024
print(f"{label}\t{binary}\trc={rc}\twall {wall:.2f} s\tcpu {cpu:.2f} s\t{rss:.0f} MB\t{(err[-1][:200] if err else '')}", flush=True)
PY
}
cases() {
  local b=$1
  measure "tm bb5 --max-steps 10000" $b verify tm examples/tm_bb5.txt --max-steps 10000
  measure "tm bb5 --max-steps 20000" $b verify tm examples/tm_bb5.txt --max-steps 20000
  measure "tm bb5 --max-steps 100000" $b verify tm examples/tm_bb5.txt --max-steps 100000
  measure "tm --input 5000 ones" $b verify tm examples/tm_bb5.txt --max-steps 100 --input $ONES5K
  measure "tm --input 10000 ones" $b verify tm examples/tm_bb5.txt --max-steps 100 --input $ONES10K
  measure "run s4_decay 60 kB" $b run examples/s4_decay.json $AB60K
  measure "run binary_value 60 kB" $b run examples/binary_value_wfa.json $BIN60K
  measure "run d1024 60000" $b run tests/cli/models/diagonal_d1024.json $AB60K
  measure "verify wfa chain" $b verify wfa tests/cli/models/chain_1448.att --random 3 --length 3
  measure "verify wfa chain deltanet" $b verify wfa tests/cli/models/chain_1448.att --family deltanet --random 3 --length 3
  measure "construct wfa chain" $b construct wfa tests/cli/models/chain_1448.att -o "${TMPDIR:-/tmp}/chain-$$.json"
  measure "construct wfa chain dplr" $b construct wfa tests/cli/models/chain_1448.att --family dplr -o "${TMPDIR:-/tmp}/chain-$$.json"
  measure "stats /dev/zero" $b stats /dev/zero
  measure "run /dev/zero a" $b run /dev/zero a
}
for binary in "$@"; do cases "$binary"; done
