#!/usr/bin/env bash
# Builds the prefix-sharing GPU binaries here (sm_90, no Graphviz, FLINT, CaDiCaL or Z3: the device
# machine has none of them) and stages them into prefix-run/ (git-ignored) for the device tool's `carry`:
#   bench/prefix_stage.sh && device run --carry prefix-run 'bash prefix-run/run.sh'
# run.sh runs the GPU == CPU tests (prefix_gpu_tests, and gpu_tests' device-check case), then the
# headline (bench/gpu_headline.cpp) at lengths 32 and 40; logs and JSON go to $OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DRNNCC_WITH_GRAPHVIZ=OFF -DRNNCC_WITH_FLINT=OFF -DRNNCC_WITH_SAT=OFF \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache >/dev/null
cmake --build build-gpu --target prefix_gpu_tests gpu_tests gpu_headline -j2
rm -rf prefix-run && mkdir -p prefix-run/lib
cp build-gpu/tests/gpu/prefix_gpu_tests build-gpu/tests/gpu/gpu_tests build-gpu/bench/gpu_headline \
  prefix-run/
cp -L /usr/lib/x86_64-linux-gnu/libfmt.so.9 prefix-run/lib/
for b in prefix-run/prefix_gpu_tests prefix-run/gpu_headline; do
  if ldd "$b" | grep -E "gmpxx|flint|gvc|cgraph"; then echo "$b links a library the device lacks" >&2; exit 1; fi
done
cat > prefix-run/run.sh <<'R'
#!/usr/bin/env bash
# On the device machine, from the repository root: bash prefix-run/run.sh [HEADLINE ARGS…]
set -uo pipefail
root=$PWD
cd prefix-run
export LD_LIBRARY_PATH=$PWD/lib:${LD_LIBRARY_PATH:-} RNNCC_SOURCE_DIR=$root
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,memory.total --format=csv | tee "$OUT/nvidia-smi.txt"
nproc
./prefix_gpu_tests -r compact 2>&1 | tee "$OUT/prefix_gpu_tests.log" | tail -5
./gpu_tests -r compact "GPU device checks of constructions equal the CPU twin's" 2>&1 | tee "$OUT/gpu_tests.log" | tail -3
cmd=(./gpu_headline --wfa "$root/examples/wfa_count_ab.att" --family dplr --json "$OUT/headline.json" "$@")
echo "${cmd[*]}"
"${cmd[@]}" 2>&1 | tee "$OUT/headline.log"
R
du -sh prefix-run
