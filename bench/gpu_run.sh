#!/usr/bin/env bash
# Runs on the device machine, from the repository root, after bench/gpu_stage.sh staged gpu-run/:
#   bash gpu-run/run.sh [tests] [compiled-tests] [bench] [compiled] [cli] [headline]
# Logs and JSON go to $OUT (the device tool brings them back); a short table prints last.
set -uo pipefail
root=$PWD
cd "$(dirname "$0")"
# NVRTC from the device image's CUDA (the compiled kernels).
cuda_lib=$(dirname "$(readlink -f "$(command -v nvcc)")")/../lib64
export LD_LIBRARY_PATH=$PWD/lib:$cuda_lib:${LD_LIBRARY_PATH:-}
export RNNCC_EPFL_DIR=$PWD/epfl RNNCC_SOURCE_DIR=$root
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,memory.total,power.limit --format=csv | tee "$OUT/nvidia-smi.txt"
nproc
nvidia-smi dmon -s pc -d 1 > "$OUT/dmon.txt" 2>&1 &   # clocks and power while we run
dmon=$!
summary=()
for what in "$@"; do
  case $what in
    tests)
      ./gpu_tests -r compact 2>&1 | tee "$OUT/gpu_tests.log" | tail -15
      summary+=("tests: $(tail -1 "$OUT/gpu_tests.log")")
      ;;
    compiled-tests)
      ./kernel_source_tests -r compact 2>&1 | tail -3
      ./gpu_compiled_tests -r compact 2>&1 | tee "$OUT/gpu_compiled_tests.log" | tail -15
      summary+=("compiled tests: $(tail -1 "$OUT/gpu_compiled_tests.log")")
      ;;
    compiled)
      # A fresh kernel cache, so the first run of each kernel reports NVRTC's compile time.
      # (or the cache staged from the build machine, whose compile times --nvrtc-only printed).
      export RNNCC_KERNEL_CACHE=$(mktemp -d)
      if [ -d kernel-cache ]; then cp kernel-cache/* "$RNNCC_KERNEL_CACHE"/; fi
      ./gpu_eval --sections compiled --epfl epfl --anchor-dir . --dplr "$root/examples/dplr_d3.json" \
        --arith-log2-patterns 22 --json "$OUT/gpu_compiled.json" 2>&1 | tee "$OUT/gpu_compiled.log" | tail -20
      for f in anchor_*.ptxas; do echo "$f: $(grep -E 'registers|spill' "$f" | tr -s ' ' | tr '\n' ' ')"; done
      ;;
    bench)
      ./gpu_eval --epfl epfl --abc ./abc --dplr "$root/examples/dplr_d3.json" --arith-log2-patterns 22 --json "$OUT/gpu_eval.json" \
        2>&1 | tee "$OUT/gpu_eval.log" | tail -30
      ;;
    cli)
      { ./rnncc eval epfl/multiplier.aig --batch 4194304 --device gpu
        ./rnncc eval epfl/multiplier.aig --batch 4194304 --device cpu
        ./rnncc verify wfa "$root/examples/wfa_count_ab.att" --family dplr --exhaustive 24 --random 100000 --length 40 --device gpu
        ./rnncc verify matmul3 --modulus 29 --no-bos --no-proof --exhaustive 3 --device gpu; } 2>&1 | tee "$OUT/cli.log" | tail -40
      ;;
    headline)
      ./gpu_headline --wfa "$root/examples/wfa_count_ab.att" --length 32 --threads ${HEADLINE_THREADS:-1024} --json "$OUT/headline.json" \
        2>&1 | tee "$OUT/headline.log" | tail -30
      ;;
  esac
done
kill $dmon 2>/dev/null
echo "SM clock (MHz) under load, max seen: $(awk '$1 ~ /^[0-9]+$/ {print $0}' "$OUT/dmon.txt" | awk '{ if ($6 > m) m = $6 } END { print m }')"
printf '%s\n' "${summary[@]}"
