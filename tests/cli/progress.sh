#!/usr/bin/env bash
# Progress on stderr (docs/cli.md, "Progress"): none when stderr is not a terminal (the goldens
# stay byte-identical) or with --quiet; a line redrawn with \r and erased at the end under a
# pseudo-terminal (script(1) from util-linux; skipped, exit 77, without it); --quiet accepted by
# every command. Usage: progress.sh RNNCC WORKDIR
set -u
rnncc=$1 dir=$2
rm -rf "$dir" && mkdir -p "$dir"
fail() { echo "FAIL: $*"; exit 1; }

# 1. Not a terminal: no stderr bytes even for a run past the delay (delay 0 here).
RNNCC_PROGRESS_DELAY=0 "$rnncc" depth --arch dplr --lengths 2..64 >"$dir/out" 2>"$dir/err" ||
  fail "depth failed"
[ -s "$dir/err" ] && fail "stderr not empty without a terminal: $(cat -v "$dir/err")"
grep -q '^dplr  *64 ' "$dir/out" || fail "depth rows missing"

# 2. --quiet everywhere: the same stdout with and without it, exit 0.
quiet_same() {
  local name=$1; shift
  "$rnncc" "$@" >"$dir/a" 2>&1 || fail "$name: exit $?"
  "$rnncc" "$@" --quiet >"$dir/b" 2>&1 || fail "$name --quiet: exit $?"
  "$rnncc" -q "$@" >"$dir/c" 2>&1 || fail "-q $name: exit $?"
  for f in a b c; do sed -E 's/[0-9][0-9.e+]*/N/g' "$dir/$f" >"$dir/$f.n"; done  # timings
  cmp -s "$dir/a.n" "$dir/b.n" && cmp -s "$dir/a.n" "$dir/c.n" ||
    fail "$name: --quiet changed the output: $(diff "$dir/a" "$dir/b")"
}
quiet_same run run examples/parity_deltanet.json 0101
quiet_same compile compile examples/parity_deltanet.json -n 4
quiet_same compile-o compile examples/parity_deltanet.json -n 4 -o "$dir/c.json"
quiet_same stats stats tests/cli/circuits/tiny.json
quiet_same eval eval tests/cli/circuits/small.bench --batch 64
quiet_same convert convert tests/cli/circuits/tiny.json "$dir/t.json"
quiet_same construct construct wfa examples/wfa_binary_value.att -o "$dir/m.json"
quiet_same construct-tm construct tm examples/tm_bb2.txt -o "$dir/tm.json"
quiet_same verify verify wfa examples/wfa_binary_value.att --random 20 --seed 1
quiet_same verify-tm verify tm examples/tm_bb2.txt
quiet_same depth depth --arch dplr --lengths 2..16
quiet_same equiv equiv examples/wfa_binary_value.att examples/wfa_binary_value.wfa.json --certificate "$dir/cert.json"
quiet_same check-certificate check-certificate examples/wfa_binary_value.att examples/wfa_binary_value.wfa.json "$dir/cert.json"
quiet_same minimize minimize examples/wfa_count_ab.att
if "$rnncc" --help | grep -q '^  draw'; then
  quiet_same draw draw tests/cli/circuits/tiny.json -o "$dir/t.dot"
fi

# 3. Under a pseudo-terminal: the line appears (with a rate), is redrawn with \r, and is erased.
if ! command -v script >/dev/null || ! script -qc true /dev/null >/dev/null 2>&1; then
  echo "SKIP: script(1) from util-linux is not available: no pseudo-terminal test"
  exit 77
fi
RNNCC_PROGRESS_DELAY=0 RNNCC_PROGRESS_INTERVAL=0 script -qc "'$rnncc' depth --arch dplr --lengths 2..64 >'$dir/tty_out'" \
  /dev/null >"$dir/tty" 2>&1 </dev/null || fail "depth under script failed"
grep -q $'\rmeasuring depth (dplr at n = [0-9]*): [0-9]*/6 circuits' "$dir/tty" ||
  fail "no progress line under a terminal: $(cat -v "$dir/tty")"
grep -q 'circuits/s' "$dir/tty" || fail "no rate: $(cat -v "$dir/tty")"
[ "$(tail -c 4 "$dir/tty" | od -An -c | tr -d ' \n')" = '\r033[K' ] ||
  fail "the line is not erased at the end: $(tail -c 40 "$dir/tty" | cat -v)"
cmp -s "$dir/tty_out" "$dir/out" || fail "stdout differs under a terminal"
# eval: patterns of the total, a rate and the time left (the wide evaluator's block reports; with
# no redraw interval the first block's report is drawn however fast the run)
RNNCC_PROGRESS_DELAY=0 RNNCC_PROGRESS_INTERVAL=0 script -qc "'$rnncc' eval tests/data/epfl/multiplier.aig --batch 262144 >/dev/null" \
  /dev/null >"$dir/tty_eval" 2>&1 </dev/null || fail "eval under script failed"
grep -q $'\revaluating tests/data/epfl/multiplier.aig: [0-9]*/262144 patterns ([0-9]*%), .* patterns/s, .* left' \
  "$dir/tty_eval" || fail "no eval progress with a rate and time left: $(cat -v "$dir/tty_eval")"
# --quiet: nothing on the terminal
RNNCC_PROGRESS_DELAY=0 script -qc "'$rnncc' depth --quiet --arch dplr --lengths 2..64 >/dev/null" \
  /dev/null >"$dir/tty_quiet" 2>&1 </dev/null || fail "depth --quiet under script failed"
[ -s "$dir/tty_quiet" ] && fail "--quiet drew: $(cat -v "$dir/tty_quiet")"
echo "ok"
