#!/usr/bin/env bash
# Builds the GPU binaries here (sm_90, no Graphviz, no FLINT: the device machine has neither)
# and stages them with what they need into gpu-run/ (git-ignored), for the device tool's `carry`:
#   bench/gpu_stage.sh && device run --carry gpu-run 'bash gpu-run/run.sh'
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-gpu -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
  -DRNNCC_WITH_GRAPHVIZ=OFF -DRNNCC_WITH_FLINT=OFF >/dev/null
cmake --build build-gpu --target gpu_tests gpu_eval gpu_headline rnncc
rm -rf gpu-run && mkdir -p gpu-run/lib gpu-run/epfl
cp build-gpu/tests/gpu/gpu_tests build-gpu/bench/gpu_eval build-gpu/bench/gpu_headline \
   build-gpu/cli/rnncc gpu-run/
cp bench/gpu_run.sh gpu-run/run.sh
cp -L /usr/lib/x86_64-linux-gnu/libfmt.so.9 gpu-run/lib/
# ABC's simulator for the ratio (and the libraries Ubuntu may lack).
cp -L "$(command -v berkeley-abc)" gpu-run/abc
for l in libreadline.so.8 libtinfo.so.6 libbz2.so.1.0; do cp -L /lib/x86_64-linux-gnu/$l gpu-run/lib/; done
cp ../shared/benchmarks/epfl/*.aig gpu-run/epfl/
du -sh gpu-run
