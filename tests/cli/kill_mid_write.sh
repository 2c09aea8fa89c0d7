#!/usr/bin/env bash
# Atomic outputs under signals and failures (issues 14 and 25, circuits/io/output_file.hpp).
#   kill_mid_write.sh RNNCC DIR MODE [METHOD]
#     MODE: INT | TERM | QUIT | HUP | PIPE   a signal to a long `compile -o` mid-work: it dies by
#                                            that signal (status 128 + its number)
#         | fail     a compile that fails after opening -o (a budget refusal): exit 2
#         | xfsz     a write beyond `ulimit -f`: exit 2, "File too large", not a death by SIGXFSZ
#         | reader   the output is a FIFO, or a link to /dev/stdout, whose reader leaves early:
#                    a silent death by SIGPIPE (141); with SIGPIPE inherited ignored, exit 2
#     METHOD: unnamed (O_TMPFILE where the file system has it, the default)
#           | named   (the fallback, forced by RNNCC_OUTPUT_NO_TMPFILE=1)
# Over an existing target DIR/out.json, asserts: the exit status, nothing but the old target
# remains in DIR, and the old target is byte-identical. Run from the source root.
set -u
rnncc=$1 dir=$2 mode=$3 method=${4:-unnamed}
fail() { echo "FAIL ($mode, $method): $*" >&2; exit 1; }
case $method in
  unnamed) unset RNNCC_OUTPUT_NO_TMPFILE ;;
  named) export RNNCC_OUTPUT_NO_TMPFILE=1 ;;
  *) fail "unknown method" ;;
esac
ulimit -c 0  # SIGQUIT's default action dumps core
rm -rf "$dir" && mkdir -p "$dir" || fail "cannot make $dir"
old='{"old": "contents that must survive"}'
printf '%s\n' "$old" >"$dir/out.json"
expected=$(mktemp) && printf '%s\n' "$old" >"$expected"
trap 'rm -f "$expected" "$dir.err"' EXIT

check_dir() {
  local left
  left=$(ls -A "$dir")
  [ "$left" = "out.json" ] || fail "the directory holds: $(echo $left)"
  cmp -s "$dir/out.json" "$expected" || fail "the old target changed"
}

case $mode in
  fail)
    # The output is opened before the work; the budget refusal comes after: the temporary file
    # must go, the old target stay.
    "$rnncc" compile examples/dplr_d3.json --length 100000 --max-gates 1000 -o "$dir/out.json" \
      2>"$dir.err"
    rc=$?
    [ $rc -eq 2 ] || fail "exit $rc, expected 2: $(cat "$dir.err")"
    grep -q -- "--max-gates" "$dir.err" || fail "no budget diagnostic: $(cat "$dir.err")"
    check_dir
    echo "ok: failed compile left the old target and no temporary file"
    exit 0
    ;;
  xfsz)
    # 64 KiB of the 2.4 MB circuit: the write fails with EFBIG (SIGXFSZ is ignored).
    (ulimit -f 64 && exec "$rnncc" compile examples/s5_word_problem.json -n 1000 --target boolean \
      -o "$dir/out.json") 2>"$dir.err"
    rc=$?
    [ $rc -eq 2 ] || fail "exit $rc, expected 2: $(cat "$dir.err")"
    grep -q "writing the output file failed: File too large (this process may write files of at most 65536 bytes: \`ulimit -f\`)" \
      "$dir.err" || fail "no size-limit diagnostic: $(cat "$dir.err")"
    check_dir
    echo "ok: ulimit -f mid-write: exit 2, $(cat "$dir.err")"
    exit 0
    ;;
  reader)
    mkfifo "$dir/pipe.json" && ln -s /dev/stdout "$dir/stdout.json" || fail "cannot make the FIFO"
    compile() {
      "$rnncc" compile examples/s5_word_problem.json -n 1000 --target boolean -o "$dir/$1"
    }
    # A FIFO whose reader takes 10 bytes of the 2.4 MB circuit and leaves.
    compile pipe.json 2>"$dir.err" &
    pid=$!
    head -c 10 "$dir/pipe.json" >/dev/null
    wait $pid
    rc=$?
    [ $rc -eq 141 ] || fail "FIFO: exit $rc, expected 141 (SIGPIPE): $(cat "$dir.err")"
    [ -s "$dir.err" ] && fail "FIFO: a message on SIGPIPE: $(cat "$dir.err")"
    [ -p "$dir/pipe.json" ] || fail "the FIFO was replaced"
    # `-o` a link to /dev/stdout, piped into a reader that leaves.
    compile stdout.json 2>"$dir.err" | head -c 10 >/dev/null
    rc=${PIPESTATUS[0]}
    [ $rc -eq 141 ] || fail "stdout: exit $rc, expected 141 (SIGPIPE): $(cat "$dir.err")"
    [ -s "$dir.err" ] && fail "stdout: a message on SIGPIPE: $(cat "$dir.err")"
    # SIGPIPE inherited ignored: the write fails with EPIPE, a diagnostic and exit 2.
    (trap '' PIPE && compile stdout.json 2>"$dir.err" | head -c 10 >/dev/null &&
      exit "${PIPESTATUS[0]}")
    rc=$?
    [ $rc -eq 2 ] || fail "SIGPIPE ignored: exit $rc, expected 2: $(cat "$dir.err")"
    grep -q "stdout.json: writing the output file failed: Broken pipe" "$dir.err" ||
      fail "SIGPIPE ignored: $(cat "$dir.err")"
    rm -f "$dir/pipe.json" "$dir/stdout.json"
    check_dir
    echo "ok: a reader that leaves: death by SIGPIPE without a word; SIGPIPE ignored: exit 2"
    exit 0
    ;;
  INT) signo=2 ;;
  QUIT) signo=3 ;;
  HUP) signo=1 ;;
  PIPE) signo=13 ;;
  TERM) signo=15 ;;
  *) fail "unknown mode" ;;
esac

# Whether the compile has its output open: a named temporary file beside the target, or an
# unnamed one among its descriptors (/proc/PID/fd/N -> DIR/#INODE (deleted)).
writing() {
  compgen -G "$dir/out.json.rnncc-tmp-*" >/dev/null && return 0
  ls -l "/proc/$1/fd" 2>/dev/null | grep -qF -- "$dir/#"
}

# Large enough to run for seconds: the temporary file exists from the start of the work. Job
# control on: a background job of a non-interactive shell would start with SIGINT ignored
# (and rnncc keeps a signal ignored that it inherited ignored).
set -m
"$rnncc" compile examples/dplr_d3.json --length 100000 -o "$dir/out.json" \
  2>/dev/null &
pid=$!
seen=""
for _ in $(seq 1 3000); do
  if writing $pid; then seen=yes; break; fi
  kill -0 $pid 2>/dev/null || break
  sleep 0.01
done
[ -n "$seen" ] || { kill -9 $pid 2>/dev/null; fail "the compile never opened its output"; }
sleep 0.3
kill -0 $pid 2>/dev/null || fail "the compile ended before the signal (make it larger)"
kill -s "$mode" $pid
wait $pid
rc=$?
[ $rc -ne 0 ] || fail "exit 0 after SIG$mode"
[ $rc -eq $((128 + signo)) ] || fail "exit $rc: expected death by SIG$mode ($((128 + signo)))"
check_dir
echo "ok: SIG$mode mid-write removed the temporary file and left the old target"
