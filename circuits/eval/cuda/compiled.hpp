// Compiled GPU kernels: a device program lowered to CUDA C++ (circuits/eval/kernel_source.hpp),
// compiled at run time by NVRTC to a cubin for the device's architecture, loaded through the CUDA
// runtime's library API (cudaLibraryLoadData) and launched like the interpreter
// (circuits/eval/cuda/gpu.hpp), with the same digests bit for bit.
//
// The disk cache. A cubin is stored under a key that hashes (source, NVRTC version,
// architecture, options) — two 64-bit FNV-1a hashes with different bases, 32 hex digits — in
// $RNNCC_KERNEL_CACHE (the value `off` disables it), else $XDG_CACHE_HOME/rnncc/kernels, else
// ~/.cache/rnncc/kernels. An entry is a header line "rnncc-kernel 1 <key> <length> <checksum>"
// (checksum: FNV-1a of the image) then the image; an entry whose header, key, length or checksum
// disagrees is recompiled and rewritten (written to a temporary name, then renamed: readers never
// see half an entry). A cache directory that cannot be created or written means no cache, with a
// one-line notice on stderr (once per process).
//
// Only when rnncc is built with CUDA (RNNCC_HAVE_CUDA); NVRTC runs without a device, so
// compile() and the cache are testable on a machine without a GPU.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "circuits/eval/cuda/gpu.hpp"
#include "circuits/eval/kernel_source.hpp"
#include "circuits/eval/ptx_source.hpp"

namespace rnncc::gpu::compiled {

// NVRTC rejected a source: what() holds its log.
class CompileError : public GpuError {
  using GpuError::GpuError;
};

std::string nvrtc_version();                       // "13.0"
std::vector<std::string> nvrtc_options(int arch);  // arch: 90 for sm_90
std::string cache_key(const std::string& source, const std::string& version, int arch,
                      const std::vector<std::string>& options);
std::uint64_t checksum(const char* data, std::size_t n);  // FNV-1a 64

// The cache directory (created), or nullopt with *why set (unwritable, disabled).
std::optional<std::filesystem::path> cache_dir(std::string* why = nullptr);
// The image of a valid entry, or nullopt (absent, or *why says what was wrong with it).
std::optional<std::vector<char>> read_entry(const std::filesystem::path& file,
                                            const std::string& key, std::string* why = nullptr);
bool write_entry(const std::filesystem::path& file, const std::string& key,
                 const std::vector<char>& image);

struct Cubin {
  std::vector<char> image;
  bool cached = false;  // read from the disk cache
  double seconds = 0;   // NVRTC's time (0 when cached)
  std::string log;      // NVRTC's log (warnings)
};
// One translation unit: the cache, else NVRTC (then the cache is written). Throws CompileError.
Cubin compile(const std::string& source, int arch);

// PTX (circuits/eval/ptx_source.hpp) assembled by nvJitLink (ptxas alone, no C++ front end),
// through the same disk cache (the key names nvJitLink and its version). Throws CompileError with
// nvJitLink's error log.
std::string nvjitlink_version();  // "13.0"
// arch: 90 for sm_90; ptxas_level: ptxas's -O level, 0 to 3 (GpuError otherwise), passed as
// -Xptxas=-O<level> when it is not ptxas's default 3.
std::vector<std::string> nvjitlink_options(int arch, std::uint32_t ptxas_level = 3);
Cubin compile_ptx(const std::string& ptx, int arch, std::uint32_t ptxas_level = 3);

// Test hook: edits every source (CUDA C++ or PTX) before it is compiled (nullptr: none).
void set_source_hook(std::function<void(std::string&)> hook);

// A program's kernels compiled on the host (no device call: it may run on another thread while
// the device interprets), ready to load: the PTX path's LUT program or the CUDA C++ sources, and
// one cubin per partition.
struct Compiled {
  bool ptx = false;
  kernels::PtxProgram lut;       // ptx
  kernels::KernelSource source;  // !ptx
  std::vector<Cubin> cubins;
  double seconds = 0;  // wall time of compile_program
};

// Raised by compile_program when *cancel was set before every partition was compiled.
class CompileCancelled : public GpuError {
  using GpuError::GpuError;
};

// Compiles every partition in parallel on the host's cores (through the disk cache). With a
// cancel flag: once it is set, no further partition is started and CompileCancelled is thrown
// (the partitions in flight finish). Throws CompileError.
Compiled compile_program(const Program& p, const RunOptions& options, const LaunchConfig& config,
                         int arch, const std::atomic<bool>* cancel = nullptr);

// The device's compute capability as 10·major + minor (90 for sm_90).
int device_arch();

// The compiled path of run_program_gpu (arithmetic: no float shadow, at most kMaxPrimes primes),
// with the kernels of `ready` (from compile_program with the same program, options' mode and
// config) or compiled now. Throws CompileError (run_program_gpu falls back to the interpreter)
// and GpuError.
ProgramResult run(const Program& p, const RunOptions& options, const LaunchConfig& config,
                  Timing* timing, const Compiled* ready = nullptr);

// The PTX path of run() for boolean programs (LaunchConfig::boolean_kernels = ptx): the LUT
// kernels run in order, then a sink kernel reduces the outputs and pairs
// (circuits/eval/cuda/lut_kernels.cu).
ProgramResult run_lut(const Program& p, const RunOptions& options, const LaunchConfig& config,
                      Timing* timing, const Compiled& kernels);
kernels::PtxOptions ptx_options(const LaunchConfig& config, int arch, patterns::Mode mode);

// Whether every kernel of this program is in the disk cache (run() would not compile), for the
// automatic choice; generates the sources (milliseconds per 10k instructions) and reads the
// entries.
bool cached(const Program& p, const RunOptions& options, const LaunchConfig& config);

// Whether run() can evaluate this program and run (and why not).
bool supported(const Program& p, const RunOptions& options, std::string* why = nullptr);

}  // namespace rnncc::gpu::compiled
