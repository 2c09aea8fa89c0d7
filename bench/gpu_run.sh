#!/usr/bin/env bash
# Runs on the device machine, from the repository root, after bench/gpu_stage.sh staged gpu-run/:
#   bash gpu-run/run.sh [tests] [compiled-tests] [prefix-tests] [sanitize] [bench] [compiled] [peers] [cli] [mpi] [headline] [model-walk] [profile]
# `model-walk` runs bench_model_walk (the hybrids' exhaustive checks; MODEL_WALK_ARGS adds options);
# GPU_EVAL_ARGS adds options to `compiled`'s gpu_eval (e.g. --ptxas-levels 3,2,1).
# Logs and JSON go to $OUT (the device tool brings them back); a short table prints last.
# `sanitize` runs NVIDIA's compute-sanitizer over the GPU tests that drive each kernel family —
# the interpreter (gpu_tests), the NVRTC-compiled kernels (gpu_compiled_tests) and the prefix
# walk (prefix_gpu_tests) — with each tool of $SAN_TOOLS (default: memcheck racecheck initcheck),
# each case under a limit of $SAN_TIMEOUT seconds (default 60); one row per tool and case:
# the sanitizer's error count, the test's verdict and the time. SAN_CASES="bin|test name;…" runs
# those cases only (e.g. a racecheck of two long cases under a larger SAN_TIMEOUT).
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
      summary+=("tests: $(grep -E '^(Passed|Failed)|test cases' "$OUT/gpu_tests.log" | tail -1)")
      ;;
    compiled-tests)
      ./kernel_source_tests -r compact 2>&1 | tail -3
      ./gpu_compiled_tests -r compact 2>&1 | tee "$OUT/gpu_compiled_tests.log" | tail -15
      summary+=("compiled tests: $(grep -E '^(Passed|Failed)|test cases' "$OUT/gpu_compiled_tests.log" | tail -1)")
      ;;
    prefix-tests)
      ./prefix_gpu_tests -r compact 2>&1 | tee "$OUT/prefix_gpu_tests.log" | tail -5
      summary+=("prefix tests: $(grep -E '^(Passed|Failed)|test cases' "$OUT/prefix_gpu_tests.log" | tail -1)")
      ;;
    sanitize)
      cases=(
        "gpu_tests|GPU boolean kernel equals the CPU twin on random circuits of every kind"
        "gpu_tests|GPU arithmetic kernel equals the CPU twin mod several primes, shadow included"
        "gpu_tests|GPU chunked launches equal one launch"
        "gpu_compiled_tests|compiled boolean kernels equal the CPU twin on random circuits"
        "gpu_compiled_tests|compiled arithmetic kernels equal the CPU twin mod 1 and 4 primes"
        "prefix_gpu_tests|GPU prefix sharing on 3 symbols and a planted bug equals the CPU walk"
        "prefix_gpu_tests|GPU prefix sharing equals the CPU walk on the WFA families")
      # SAN_SUITES=1: each whole suite as well (every test case of the binary);
      # SAN_SUITES=cases: instead, every test case of the three binaries, one run each.
      if [ -n "${SAN_CASES:-}" ]; then
        IFS=';' read -r -a cases <<<"$SAN_CASES"
      elif [ "${SAN_SUITES:-}" = cases ]; then
        cases=()
        for bin in gpu_tests gpu_compiled_tests prefix_gpu_tests; do
          while IFS= read -r name; do [ -n "$name" ] && cases+=("$bin|$name"); done \
            < <("./$bin" --list-test-names-only)
        done
      elif [ -n "${SAN_SUITES:-}" ]; then
        cases+=("gpu_tests|" "gpu_compiled_tests|" "prefix_gpu_tests|")
      fi
      for tool in ${SAN_TOOLS:-memcheck racecheck initcheck}; do
        for c in "${cases[@]}"; do
          bin=${c%%|*} name=${c#*|}
          spec=${name//,/\\,}   # Catch2 reads a bare comma as "or"
          filter=("$spec"); [ -z "$name" ] && filter=() name="(every test case)"
          log="$OUT/sanitize_${tool}_${bin}_$(echo "$name" | tr -c 'A-Za-z0-9' _ | cut -c1-40).log"
          start=$(date +%s.%N)
          timeout "${SAN_TIMEOUT:-60}" compute-sanitizer --tool "$tool" --error-exitcode 99 \
            --print-limit 20 "./$bin" -r compact "${filter[@]}" >"$log" 2>&1
          rc=$? secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
          errors=$(grep -Eo '(ERROR|RACECHECK) SUMMARY: [0-9]+ (error|hazard)s?' "$log" | tail -1)
          verdict=$(grep -E '^(Passed|Failed)|test cases' "$log" | tail -1)
          summary+=("$(printf '%-9s %-18s rc=%-3s %6.1fs  %s | %s | %s' "$tool" "$bin" "$rc" "$secs" \
            "${errors:-no summary}" "${verdict:-no verdict}" "$name")")
          echo "${summary[-1]}" >>"$OUT/sanitize.txt"
        done
      done
      ;;
    compiled)
      # A fresh kernel cache, so the first run of each kernel reports NVRTC's compile time.
      # (or the cache staged from the build machine, whose compile times --nvrtc-only printed).
      # CUDA_CACHE_DISABLE: nvJitLink's PTX assembly otherwise hits the driver's JIT cache (~/.nv)
      # when the same PTX was assembled before on this machine (docs/performance.md, "PTX kernels").
      export RNNCC_KERNEL_CACHE=$(mktemp -d) CUDA_CACHE_DISABLE=1
      if [ -d kernel-cache ]; then cp kernel-cache/* "$RNNCC_KERNEL_CACHE"/; fi
      ./gpu_eval --sections compiled --epfl epfl --anchor-dir . --dplr "$root/examples/dplr_d3.json" \
        --arith-log2-patterns 22 --json "$OUT/gpu_compiled.json" ${GPU_EVAL_ARGS:-} 2>&1 | tee "$OUT/gpu_compiled.log" | tail -20
      for f in anchor_*.ptxas; do echo "$f: $(grep -E 'registers|spill' "$f" | tr -s ' ' | tr '\n' ' ')"; done
      ;;
    peers)
      # The CPU peers of the compiled table: the wide evaluator on every core and 16 ABC processes.
      ./cpu_eval --epfl epfl --abc ./abc 2>&1 | tee "$OUT/cpu_eval.log" | grep -E "^[a-z]+:|16 processes"
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
    mpi)
      # Sharded runs on the GPU (docs/performance.md, "Past one machine"): one process, one
      # process with --checkpoint (the block path), and mpirun with 1 and 2 ranks on this GPU;
      # wall time of the whole command, and whether the result equals one process's. Needs the
      # CLI and Open MPI staged (GPU_RUN_MPI=1 bench/gpu_stage.sh).
      source openmpi/env.sh
      jobs_=("eval epfl/multiplier.aig --batch 4294967296 --max-work 100000000000000000 --device gpu --json"
             "verify wfa $root/examples/wfa_count_ab.att --family dplr --no-proof --exhaustive 32 --random 0 --seed 1 --no-timing --device gpu --json")
      digest() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j.get("fingerprint") or (j["verdict"], j["checked"]))' "$1"; }
      for j in 0 1; do
        read -r -a job <<<"${jobs_[$j]}"
        name=${job[0]}
        for how in one checkpoint np1 np2; do
          rm -f "$OUT/mpi.ckpt"
          # A fresh kernel cache for each run: its first block compiles, the others read the cache.
          export RNNCC_KERNEL_CACHE=$(mktemp -d)
          case $how in
            one) cmd=(./rnncc "${job[@]}") ;;
            checkpoint) cmd=(./rnncc "${job[@]}" --checkpoint "$OUT/mpi.ckpt") ;;
            np1) cmd=(mpirun --bind-to none -np 1 ./rnncc "${job[@]}") ;;
            np2) cmd=(mpirun --bind-to none -np 2 ./rnncc "${job[@]}") ;;
          esac
          start=$(date +%s.%N)
          "${cmd[@]}" >"$OUT/mpi_${name}_$how.json" 2>"$OUT/mpi_${name}_$how.err"
          rc=$? secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
          d=$(digest "$OUT/mpi_${name}_$how.json" 2>/dev/null || echo "no result")
          [ "$how" = one ] && ref=$d
          same=$([ "$d" = "$ref" ] && echo same || echo DIFFERENT)
          summary+=("$(printf 'mpi %-6s %-10s rc=%-2s %7.2f s  %s  %s' "$name" "$how" "$rc" "$secs" "$same" "$(tail -1 "$OUT/mpi_${name}_$how.err" | cut -c1-80)")")
        done
      done
      ;;
    model-walk)
      ./bench_model_walk ${MODEL_WALK_ARGS:-} 2>&1 | tee "$OUT/model_walk.log" | tail -25
      summary+=("model walk: $(grep -c '^| ' "$OUT/model_walk.log") table rows in model_walk.log")
      ;;
    profile)
      # Nsight Compute's counters on the kernels of the compiled table (what bounds them, issue 26
      # items 1-2): the multiplier's 7 covered PTX kernels, 4 of hyp's from the middle, 4 of the
      # DPLR program's compiled arithmetic kernels (1 prime, 1 pattern a thread). Each from the
      # first variant gpu_eval runs (the default); --kill on ends gpu_eval once they are profiled.
      # --clock-control none leaves the clocks as they are. Reports: $OUT/ncu_*.{ncu-rep,txt}.
      export CUDA_CACHE_DISABLE=1
      mkdir -p /tmp/prof-m /tmp/prof-h /tmp/prof-none
      cp epfl/multiplier.aig /tmp/prof-m/; cp epfl/hyp.aig /tmp/prof-h/
      ncu_=(ncu --clock-control none --kill on --section SpeedOfLight --section SchedulerStats
            --section WarpStateStats --section ComputeWorkloadAnalysis --section Occupancy
            --section LaunchStats --section MemoryWorkloadAnalysis)
      for job in "mult|-k regex:rnncc_lut_kernel -c 7|--epfl /tmp/prof-m --dplr none" \
                 "hyp|-k regex:rnncc_lut_kernel -s 24 -c 4|--epfl /tmp/prof-h --dplr none" \
                 "dplr|-k regex:^rnncc_kernel$ -s 4 -c 4|--epfl /tmp/prof-none --dplr $root/examples/dplr_d3.json --arith-log2-patterns 22 --patterns-per-thread 1"; do
        IFS='|' read -r tag sel args <<<"$job"
        start=$(date +%s.%N)
        RNNCC_KERNEL_CACHE=$(mktemp -d) timeout "${PROFILE_TIMEOUT:-150}" "${ncu_[@]}" $sel -f -o "$OUT/ncu_$tag" \
          ./gpu_eval --sections compiled --auto-log2-patterns 0 $args >"$OUT/ncu_$tag.log" 2>&1
        rc=$? secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
        ncu --import "$OUT/ncu_$tag.ncu-rep" --page details >"$OUT/ncu_$tag.txt" 2>&1
        summary+=("$(printf 'profile %-5s rc=%-3s %6.1fs  %s' "$tag" "$rc" "$secs" \
          "$(grep -E 'Compute \(SM\) Throughput|Issue Slots Busy|No Eligible' "$OUT/ncu_$tag.txt" | awk '{print $NF}' | tr '\n' ' ')")")
      done
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
