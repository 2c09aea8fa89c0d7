#!/usr/bin/env bash
# bench/fuzz_stage.sh [BUILD_DIR]: stages the libFuzzer targets of a fuzz build tree (built here,
# docs/reliability.md) with the shared libraries they need into fuzz-run/ (git-ignored), for a
# machine with more cores that has the repository but not the libraries (the device machine of
# bench/gpu_run.sh: Ubuntu 24.04, libgmp only). There, from the repository root:
#   bash fuzz-run/run.sh SECONDS [JOBS]        # unpacks, then bench/fuzz.sh SECONDS JOBS
# A second call continues from the corpora the first one grew (fuzz-run/grown.tar.xz, when the
# caller brings it back), so the time per target adds up over calls.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-fuzz}
rm -rf fuzz-run && mkdir -p fuzz-run/lib fuzz-run/bin
cp "$build"/tests/fuzz/fuzz_* fuzz-run/bin/
# Every library a target links, except those of the C runtime and libgmp (present there).
ldd fuzz-run/bin/* | awk '/=> \//{print $3}' | sort -u | while read -r l; do
  case $(basename "$l") in
    libc.so*|libm.so*|libgcc_s.so*|libstdc++.so*|ld-linux*|libgmp.so*|libpthread.so*|libdl.so*|librt.so*) ;;
    *) cp -L "$l" fuzz-run/lib/ ;;
  esac
done
tar -C fuzz-run -cJf fuzz-run/bin.tar.xz bin && rm -rf fuzz-run/bin
cat > fuzz-run/run.sh <<'RUN'
#!/usr/bin/env bash
# Unpacks the staged fuzz targets into build-fuzz-staged/tests/fuzz and runs bench/fuzz.sh there;
# the grown corpora and the findings go to $OUT (or fuzz-run/out).
set -uo pipefail
seconds=${1:-300} jobs=${2:-$(nproc)}
out=${OUT:-fuzz-run/out}; mkdir -p "$out"
mkdir -p build-fuzz-staged/tests/fuzz
tar -C build-fuzz-staged/tests/fuzz --strip-components=1 -xJf fuzz-run/bin.tar.xz
export LD_LIBRARY_PATH=$PWD/fuzz-run/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# Continue from the corpora an earlier call grew: they replace the checked-in seeds in this copy.
if [[ -f fuzz-run/grown.tar.xz ]]; then
  tar -C tests/fuzz -xJf fuzz-run/grown.tar.xz && echo "continuing from fuzz-run/grown.tar.xz"
fi
FUZZ_WORK=$PWD/fuzz-work bash bench/fuzz.sh "$seconds" "$jobs" build-fuzz-staged | tee "$out/table.txt"
rc=${PIPESTATUS[0]}
cp fuzz-work/summary.json "$out/" 2>/dev/null
# The grown corpora (as corpus/<name>/…) and every finding with its log, for the next call.
mkdir -p grown/corpus
for d in fuzz-work/*/corpus; do n=$(basename "$(dirname "$d")"); cp -r "$d" "grown/corpus/$n"; done
tar -C grown -cJf "$out/grown.tar.xz" corpus
for d in fuzz-work/*/; do
  n=$(basename "$d")
  if [[ -n $(ls -A "$d/artifacts" 2>/dev/null) ]]; then
    mkdir -p "$out/findings/$n"; cp "$d"/artifacts/* "$out/findings/$n/"; tail -n 80 "$d/log" >"$out/findings/$n/log.txt"
  fi
done
exit "$rc"
RUN
du -sh fuzz-run; ls fuzz-run/lib
