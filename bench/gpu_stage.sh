#!/usr/bin/env bash
# Builds the GPU binaries here (sm_90, no Graphviz, no FLINT, no CaDiCaL or Z3: the device machine
# has none of them)
# and stages them with what they need into gpu-run/ (git-ignored), for the device tool's `carry`:
#   bench/gpu_stage.sh && device run --carry gpu-run 'bash gpu-run/run.sh'
# The straight-line anchors (bench/straightline_anchor.cpp → .cu → nvcc -O3 -arch=sm_90) of the
# EPFL circuits named in $ANCHORS (default: multiplier hyp) are built once into build-gpu/anchors/
# (hyp's 214k-AND kernel takes nvcc many minutes) with ptxas's -v report beside each.
# Without precompiled headers (RNNCC_PCH=OFF): ccache does not cache a compile that reads one.
# NVRTC is not staged: the device image has CUDA 13 (run.sh puts its lib64 on LD_LIBRARY_PATH).
# The device tool sends the session's checkout, not a helper's worktree: GPU_RUN_DIR=PATH stages
# into another folder (one that checkout's .git/info/exclude ignores); GPU_RUN_LEAN=1 leaves out
# ABC, the CLI and the headline binary (the 64 MiB limit on what travels).
# MPI: the binaries link Open MPI only with GPU_RUN_MPI=1, which also stages Debian's Open MPI
# (mpirun, its plugins and libraries: about 20 MB) into $run/openmpi, relocated by OPAL_PREFIX in
# run.sh (bench/gpu_openmpi.sh); without it they are built with RNNCC_WITH_MPI=OFF, since the
# device image need not have libmpi.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DRNNCC_WITH_GRAPHVIZ=OFF -DRNNCC_WITH_FLINT=OFF -DRNNCC_WITH_SAT=OFF -DRNNCC_PCH=OFF \
  -DRNNCC_WITH_MPI="$([ -n "${GPU_RUN_MPI:-}" ] && echo ON || echo OFF)" \
  -DCMAKE_CXX_COMPILER_LAUNCHER=ccache \
  -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache >/dev/null
cmake --build build-gpu --target gpu_tests gpu_compiled_tests kernel_source_tests prefix_gpu_tests \
  gpu_eval gpu_headline rnncc straightline_anchor cpu_eval bench_model_walk
run=${GPU_RUN_DIR:-gpu-run}
rm -rf "$run" && mkdir -p "$run"/lib "$run"/epfl
cp build-gpu/tests/gpu/gpu_tests build-gpu/tests/gpu/gpu_compiled_tests \
   build-gpu/tests/gpu/kernel_source_tests build-gpu/tests/gpu/prefix_gpu_tests build-gpu/bench/gpu_eval \
   build-gpu/bench/bench_model_walk "$run"/
cp bench/gpu_run.sh "$run"/run.sh
cp -L /usr/lib/x86_64-linux-gnu/libfmt.so.9 "$run"/lib/
if [ -z "${GPU_RUN_LEAN:-}" ]; then
  cp build-gpu/bench/gpu_headline build-gpu/bench/cpu_eval build-gpu/cli/rnncc "$run"/
  # ABC's simulator for the ratio (and the libraries Ubuntu may lack).
  cp -L "$(command -v berkeley-abc)" "$run"/abc
  for l in libreadline.so.8 libtinfo.so.6 libbz2.so.1.0; do cp -L /lib/x86_64-linux-gnu/$l "$run"/lib/; done
fi
strip "$run"/gpu_* "$run"/kernel_source_tests "$run"/prefix_gpu_tests "$run"/bench_model_walk
[ -f "$run"/cpu_eval ] && strip "$run"/cpu_eval
if [ -n "${GPU_RUN_MPI:-}" ]; then bash bench/gpu_openmpi.sh "$run"/openmpi; fi
# The EPFL circuits: the whole suite (github.com/lsils/benchmarks) where RNNCC_EPFL_DIR names a
# folder of its .aig files, else the 13 shipped in tests/data/epfl (no hyp).
epfl=${RNNCC_EPFL_DIR:-tests/data/epfl}
cp "$epfl"/*.aig "$run"/epfl/
mkdir -p build-gpu/anchors
for name in ${ANCHORS-multiplier hyp}; do
  a=build-gpu/anchors/anchor_$name
  if [ ! -f "$epfl/$name.aig" ]; then echo "no $name.aig in $epfl: no anchor for it"; continue; fi
  if [ ! -x "$a" ] || [ "$a" -ot "bench/straightline_anchor.cpp" ]; then
    build-gpu/bench/straightline_anchor "$epfl/$name.aig" "$a.cu"
    nvcc -O3 -arch=sm_90 -Xptxas -v "$a.cu" -o "$a" 2>"$a.ptxas" || { cat "$a.ptxas"; exit 1; }
  fi
  cp "$a" "$a.ptxas" "$run"/
  grep -E "registers|spill" "$a.ptxas" || true
done
# A kernel cache filled here ahead of the device run (NVRTC runs without a GPU; on the device
# host it is the bottleneck): RNNCC_KERNEL_CACHE=$PWD/build-gpu/kernel-cache build/bench/gpu_eval
# --nvrtc-only 1 compiles the compiled section's kernels and prints their compile times.
if [ -d build-gpu/kernel-cache ]; then cp -r build-gpu/kernel-cache "$run"/; fi
du -sh "$run"
