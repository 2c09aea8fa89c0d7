#!/usr/bin/env bash
# eval --against (docs/cli.md, "eval --against"; verify/circuit_against_model.hpp): a compiled
# circuit checked against the model's function of the precision and scan it was compiled with.
# Each case's whole stdout/stderr and exit code are compared with the text below; the circuits
# are compiled here first. Usage: eval_against.sh RNNCC WORKDIR (from the source root)
set -u
rnncc=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }
m=examples/dplr_d3.json
for scan in sequential brent-kung; do
  "$rnncc" compile $m -n 8 --target boolean --precision log:1 --scan $scan -o "$dir/$scan.json" ||
    fail "compile --scan $scan"
done
"$rnncc" compile $m -n 6 -o "$dir/arith.json" || fail "compile arith"
"$rnncc" compile $m -n 30 -o "$dir/big.json" || fail "compile n = 30"

# expect NAME RC WANTED -- ARGS: run rnncc ARGS (stdout and stderr together, the work folder
# shown as DIR) and compare.
expect() {
  local name=$1 rc=$2 want=$3; shift 4
  local got status
  got=$("$rnncc" "$@" 2>&1); status=$?
  got=${got//$dir/DIR}
  [ "$status" = "$rc" ] || fail "$name: exit $status, expected $rc: $got"
  [ "$got" = "$want" ] || fail "$name: output differs:
--- expected
$want
--- got
$got"
  echo "ok: $name"
}

expect brent-kung-own-scan 0 "DIR/brent-kung.json against examples/dplr_d3.json: the scan-rounded function of brent-kung at log:1 (\`rnncc run --precision log:1 --scan brent-kung\`)
  proved: all 256 strings of length 8 agree (every input the circuit has)" -- \
  eval "$dir/brent-kung.json" --against $m --precision log:1 --scan brent-kung --exhaustive

expect brent-kung-against-sequential 1 "DIR/brent-kung.json against examples/dplr_d3.json: the model's log:1 run (the sequential rule) (\`rnncc run --precision log:1\`)
  refuted: 208 of all 256 strings of length 8 differ
  first: y[8][0][0] at input 00000000: circuit -6.25, reference -6
  on these strings the circuit equals the function of --scan sklansky, kogge-stone, brent-kung, ladner-fischer: give --scan as the circuit was compiled" -- \
  eval "$dir/brent-kung.json" --against $m --precision log:1 --scan sequential --exhaustive

# The first differing value is what `rnncc run` prints for that string under each scan.
"$rnncc" run $m 00000000 --precision log:1 | grep -q '^ *8  *0  *-6  ' || fail "run: y_8 of 00000000 is not -6"
"$rnncc" run $m 00000000 --precision log:1 --scan brent-kung | grep -q '^ *8  *0  *-6.25  ' ||
  fail "run --scan brent-kung: y_8 of 00000000 is not -6.25"

expect sequential-against-brent-kung 1 "DIR/sequential.json against examples/dplr_d3.json: the scan-rounded function of brent-kung at log:1 (\`rnncc run --precision log:1 --scan brent-kung\`)
  refuted: 402 of 500 random strings of length 8 differ
  first: y[8][0][0] at input 11111010: circuit -6.0625, reference -6.125
  on these strings the circuit equals the function of --scan sequential: give --scan as the circuit was compiled" -- \
  eval "$dir/sequential.json" --against $m --precision log:1 --scan brent-kung --seed 3 --batch 500

expect sequential-own-scan-json 0 '{
  "circuit": "DIR/sequential.json",
  "model": "examples/dplr_d3.json",
  "verdict": "tested",
  "kind": "boolean",
  "reference": "the model'"'"'s log:1 run (the sequential rule)",
  "command": "rnncc run --precision log:1",
  "length": 8,
  "strings": 100,
  "exhaustive": false,
  "differing": 0,
  "agreeing_scans": []
}' -- eval "$dir/sequential.json" --against $m --precision log:1 --scan sequential --batch 100 --json

expect arith-exact 0 "DIR/arith.json against examples/dplr_d3.json: the model's exact run over Q (every scan computes it) (\`rnncc run\`)
  proved: all 64 strings of length 6 agree (every input the circuit has)" -- \
  eval "$dir/arith.json" --against $m --exhaustive

expect arith-other-model 1 "DIR/arith.json against examples/parity_deltanet.json: the model's exact run over Q (every scan computes it) (\`rnncc run\`)
  refuted: 10 of 10 random strings of length 6 differ
  first: y[6][0][0] at input 000001: circuit 39835/15552, reference -1" -- \
  eval "$dir/arith.json" --against examples/parity_deltanet.json --batch 10

# Diagnostics: exit 2, the option named, nothing on stdout.
expect err-precision-width 2 "rnncc: error: --precision: log:2 at length 8 gives 17-bit values (I = 8, F = 8), the circuit's outputs have 9 bits: give the --precision (and --int-bits) it was compiled with" -- \
  eval "$dir/brent-kung.json" --against $m --precision log:2
expect err-arith-log 2 "rnncc: error: --precision: an arithmetic circuit computes over Q: it is checked against the model's exact run (leave --precision out, or give exact)" -- \
  eval "$dir/arith.json" --against $m --precision log:1
expect err-inputs 2 "rnncc: error: --against: input 0 of the circuit is named 'a', not 'x[1,0]': a circuit compiled from a model reads the one-hot x[t,σ] in order" -- \
  eval tests/cli/circuits/tiny.json --against $m
expect err-scan-alone 2 "rnncc: error: --scan: is read with --against MODEL only" -- \
  eval "$dir/arith.json" --scan sequential
expect err-gpu 2 "rnncc: error: --against: checks on the CPU in one process: leave out --outputs, --checkpoint, --device gpu and mpirun" -- \
  eval "$dir/arith.json" --against $m --device gpu
expect err-exhaustive 2 "rnncc: error: --exhaustive: |Σ|^n = 2^30 strings is more than 16777216: use --batch N random strings" -- \
  eval "$dir/big.json" --against $m --exhaustive
