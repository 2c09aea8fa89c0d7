#!/usr/bin/env bash
# The wide CPU evaluator against ABC `sim` on a many-core host (issue 15, item 2), in two steps:
#
#   here:    bench/cpu_eval_run.sh stage
#            builds bench/cpu_eval in build-cpu/ (no Graphviz, no FLINT: the device machine has
#            neither) and stages it with libfmt, ABC (+ libreadline/libtinfo/libbz2) and the
#            EPFL AIGs into build-cpu-run/ (git-ignored by /build-*/);
#   there:   device run --carry build-cpu-run 'bash bench/cpu_eval_run.sh run [LOG2_PATTERNS]'
#            runs cpu_eval (one core side by side with ABC on CPU 0, then 1, 2, 4, …, all cores
#            against ABC as one process per core); the log and JSON go to $OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  stage)
    export CCACHE_DIR=${CCACHE_DIR:-/work/.ccache} CCACHE_BASEDIR=${CCACHE_BASEDIR:-/work}
    cmake -S . -B build-cpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DRNNCC_ENABLE_CUDA=OFF \
      -DRNNCC_WITH_GRAPHVIZ=OFF -DRNNCC_WITH_FLINT=OFF -DCMAKE_CXX_COMPILER_LAUNCHER=ccache >/dev/null
    cmake --build build-cpu --target cpu_eval
    rm -rf build-cpu-run && mkdir -p build-cpu-run/lib build-cpu-run/epfl
    cp build-cpu/bench/cpu_eval build-cpu-run/
    cp -L /usr/lib/x86_64-linux-gnu/libfmt.so.9 build-cpu-run/lib/
    cp -L "$(command -v berkeley-abc)" build-cpu-run/abc
    for l in libreadline.so.8 libtinfo.so.6 libbz2.so.1.0; do
      cp -L /lib/x86_64-linux-gnu/$l build-cpu-run/lib/
    done
    # The whole EPFL suite (github.com/lsils/benchmarks) where RNNCC_EPFL_DIR names it; hyp is
    # not among the 13 circuits shipped in tests/data/epfl.
    epfl=${RNNCC_EPFL_DIR:-tests/data/epfl}
    for name in multiplier hyp; do
      if [ -f "$epfl/$name.aig" ]; then cp "$epfl/$name.aig" build-cpu-run/epfl/
      else echo "no $name.aig in $epfl (set RNNCC_EPFL_DIR to the whole suite): left out"; fi
    done
    ldd build-cpu-run/cpu_eval | grep -E "gmpxx|gvc|cgraph|flint" && { echo "links a library the device lacks"; exit 1; }
    du -sh build-cpu-run
    ;;
  run)
    OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
    cd build-cpu-run
    export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-}
    { nproc; lscpu | grep -E "Model name|^CPU\(s\)|L2|L3|Thread|Socket|NUMA"; } | tee "$OUT/cpu.txt"
    ./cpu_eval --epfl epfl --abc ./abc --log2-patterns "${2:-20}" --json "$OUT/cpu_eval.json" \
      2>&1 | tee "$OUT/cpu_eval.log"
    ;;
  *)
    echo "usage: $0 stage | run [LOG2_PATTERNS]" >&2
    exit 2
    ;;
esac
