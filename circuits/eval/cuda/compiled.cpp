// NVRTC compilation, the kernel cache and the launches of compiled kernels; the design is in
// compiled.hpp, the kernels' text in circuits/eval/kernel_source.hpp.
#include "circuits/eval/cuda/compiled.hpp"
#include "circuits/eval/cuda/cuda_buffer.hpp"
#include "circuits/eval/cuda/launch_driver.hpp"

#include <cuda_runtime.h>
#include <nvJitLink.h>
#include <nvrtc.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <limits>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "circuits/eval/kernel_abi.hpp"

namespace rnncc::gpu::compiled {

namespace {

using detail::Buffer;

using ull = unsigned long long;
using Clock = std::chrono::steady_clock;

void check_nvrtc(nvrtcResult r, const char* call) {
  if (r != NVRTC_SUCCESS)
    throw CompileError(std::string(call) + " failed: " + nvrtcGetErrorString(r));
}
#define RNNCC_NVRTC(call) check_nvrtc((call), #call)

std::uint64_t fnv1a(const char* data, std::size_t n, std::uint64_t h) {
  for (std::size_t i = 0; i < n; ++i) {
    h ^= static_cast<unsigned char>(data[i]);
    h *= 0x100000001B3ull;
  }
  return h;
}

std::string hex(std::uint64_t v) {
  char b[17];
  std::snprintf(b, sizeof b, "%016llx", static_cast<ull>(v));
  return b;
}

std::mutex hook_mutex;
std::function<void(std::string&)> source_hook;

}  // namespace

std::string nvrtc_version() {
  int major = 0, minor = 0;
  nvrtcVersion(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<std::string> nvrtc_options(int arch) {
  // sm_XX (not compute_XX): NVRTC runs ptxas and returns a cubin for exactly this device.
  return {"--gpu-architecture=sm_" + std::to_string(arch), "--std=c++17", "-default-device"};
}

std::uint64_t checksum(const char* data, std::size_t n) {
  return fnv1a(data, n, 0xCBF29CE484222325ull);
}

std::string cache_key(const std::string& source, const std::string& version, int arch,
                      const std::vector<std::string>& options) {
  std::string all = source;
  all += '\0';
  all += version;
  all += '\0';
  all += std::to_string(arch);
  for (const std::string& o : options) {
    all += '\0';
    all += o;
  }
  return hex(fnv1a(all.data(), all.size(), 0xCBF29CE484222325ull)) +
         hex(fnv1a(all.data(), all.size(), 0x84222325CBF29CE4ull));
}

std::optional<std::filesystem::path> cache_dir(std::string* why) {
  namespace fs = std::filesystem;
  fs::path dir;
  if (const char* e = std::getenv("RNNCC_KERNEL_CACHE"); e && *e) {
    if (std::string(e) == "off") {
      if (why) *why = "disabled by RNNCC_KERNEL_CACHE=off";
      return std::nullopt;
    }
    dir = e;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    dir = fs::path(x) / "rnncc" / "kernels";
  } else if (const char* h = std::getenv("HOME"); h && *h) {
    dir = fs::path(h) / ".cache" / "rnncc" / "kernels";
  } else {
    if (why) *why = "neither RNNCC_KERNEL_CACHE, XDG_CACHE_HOME nor HOME is set";
    return std::nullopt;
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  // Writable: a probe file can be created there.
  const fs::path probe = dir / (".probe." + std::to_string(::getpid()));
  {
    std::ofstream f(probe, std::ios::binary);
    if (!f || !(f << 'x') || !f.flush()) {
      if (why)
        *why = "kernel cache " + dir.string() + " is not writable" +
               (ec ? " (" + ec.message() + ")" : std::string());
      return std::nullopt;
    }
  }
  fs::remove(probe, ec);
  return dir;
}

std::optional<std::vector<char>> read_entry(const std::filesystem::path& file,
                                            const std::string& key, std::string* why) {
  std::ifstream f(file, std::ios::binary);
  if (!f) return std::nullopt;
  std::string line;
  if (!std::getline(f, line)) {
    if (why) *why = "empty entry";
    return std::nullopt;
  }
  std::istringstream h(line);
  std::string magic, version, k;
  std::uint64_t length = 0;
  std::string sum;
  if (!(h >> magic >> version >> k >> length >> sum) || magic != "rnncc-kernel" || version != "1") {
    if (why) *why = "bad header";
    return std::nullopt;
  }
  if (k != key) {
    if (why) *why = "key mismatch";
    return std::nullopt;
  }
  std::vector<char> image(length);
  if (length > (std::uint64_t{1} << 32) ||
      !f.read(image.data(), static_cast<std::streamsize>(length)) || f.peek() != EOF) {
    if (why) *why = "length mismatch";
    return std::nullopt;
  }
  if (hex(checksum(image.data(), image.size())) != sum) {
    if (why) *why = "checksum mismatch";
    return std::nullopt;
  }
  return image;
}

bool write_entry(const std::filesystem::path& file, const std::string& key,
                 const std::vector<char>& image) {
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path tmp =
      file.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
  {
    std::ofstream f(tmp, std::ios::binary);
    f << "rnncc-kernel 1 " << key << ' ' << image.size() << ' '
      << hex(checksum(image.data(), image.size())) << '\n';
    f.write(image.data(), static_cast<std::streamsize>(image.size()));
    if (!f.flush()) {
      std::error_code ec;
      std::filesystem::remove(tmp, ec);
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, file, ec);
  if (ec) std::filesystem::remove(tmp, ec);
  return !ec;
}

void set_source_hook(std::function<void(std::string&)> hook) {
  std::lock_guard<std::mutex> lock(hook_mutex);
  source_hook = std::move(hook);
}

namespace {

// The cache directory, resolved once per value of RNNCC_KERNEL_CACHE (the tests point it at
// several directories); an unusable one is announced once.
std::optional<std::filesystem::path> resolved_cache_dir() {
  static std::optional<std::filesystem::path> dir;
  static std::string env_at_resolve;
  static bool resolved = false;
  static std::mutex dir_mutex;
  std::lock_guard<std::mutex> lock(dir_mutex);
  const char* e = std::getenv("RNNCC_KERNEL_CACHE");
  const std::string env = e ? e : "";
  if (!resolved || env != env_at_resolve) {
    std::string why;
    dir = cache_dir(&why);
    if (!dir && why.find("disabled") == std::string::npos)
      std::fprintf(stderr, "rnncc: %s; compiling kernels without a cache\n", why.c_str());
    env_at_resolve = env;
    resolved = true;
  }
  return dir;
}

// The image under `key` from the cache, else build() (timed) written to the cache.
Cubin cached_or_built(const std::string& key, const std::function<void(Cubin&)>& build) {
  const std::optional<std::filesystem::path> d = resolved_cache_dir();
  Cubin c;
  std::filesystem::path file;
  if (d) {
    file = *d / (key + ".cubin");
    if (auto image = read_entry(file, key)) {
      c.image = std::move(*image);
      c.cached = true;
      return c;
    }
  }
  const auto t0 = Clock::now();
  build(c);
  c.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (d && !write_entry(file, key, c.image))
    std::fprintf(stderr, "rnncc: could not write kernel cache entry %s\n", file.c_str());
  return c;
}

}  // namespace

Cubin compile(const std::string& original, int arch) {
  std::string source = original;
  {
    std::lock_guard<std::mutex> lock(hook_mutex);
    if (source_hook) source_hook(source);
  }
  const std::vector<std::string> options = nvrtc_options(arch);
  const std::string key = cache_key(source, nvrtc_version(), arch, options);
  return cached_or_built(key, [&](Cubin& c) {
    nvrtcProgram prog = nullptr;
    RNNCC_NVRTC(nvrtcCreateProgram(&prog, source.c_str(), "rnncc_kernel.cu", 0, nullptr, nullptr));
    std::unique_ptr<nvrtcProgram, void (*)(nvrtcProgram*)> guard(
        &prog, [](nvrtcProgram* q) { nvrtcDestroyProgram(q); });
    std::vector<const char*> opts;
    for (const std::string& o : options) opts.push_back(o.c_str());
    const nvrtcResult r = nvrtcCompileProgram(prog, static_cast<int>(opts.size()), opts.data());
    std::size_t log_size = 0;
    nvrtcGetProgramLogSize(prog, &log_size);
    c.log.assign(log_size, '\0');
    if (log_size) nvrtcGetProgramLog(prog, c.log.data());
    while (!c.log.empty() && (c.log.back() == '\0' || c.log.back() == '\n')) c.log.pop_back();
    if (r != NVRTC_SUCCESS)
      throw CompileError(std::string("NVRTC could not compile the kernel (") +
                         nvrtcGetErrorString(r) + "): " + c.log.substr(0, 4000));
    std::size_t n = 0;
    RNNCC_NVRTC(nvrtcGetCUBINSize(prog, &n));
    c.image.resize(n);
    RNNCC_NVRTC(nvrtcGetCUBIN(prog, c.image.data()));
  });
}

std::string nvjitlink_version() {
  unsigned major = 0, minor = 0;
  nvJitLinkVersion(&major, &minor);
  return std::to_string(major) + "." + std::to_string(minor);
}

std::vector<std::string> nvjitlink_options(int arch, std::uint32_t ptxas_level) {
  if (ptxas_level > 3)
    throw GpuError("ptxas optimization level must be 0 to 3, got " + std::to_string(ptxas_level));
  std::vector<std::string> options = {"-arch=sm_" + std::to_string(arch), "-O3"};
  // ptxas's own default is -O3; a lower level is named (and so keyed in the cache) only then.
  if (ptxas_level != 3) options.push_back("-Xptxas=-O" + std::to_string(ptxas_level));
  return options;
}

Cubin compile_ptx(const std::string& original, int arch, std::uint32_t ptxas_level) {
  std::string ptx = original;
  {
    std::lock_guard<std::mutex> lock(hook_mutex);
    if (source_hook) source_hook(ptx);
  }
  const std::vector<std::string> options = nvjitlink_options(arch, ptxas_level);
  const std::string key = cache_key(ptx, "nvJitLink " + nvjitlink_version(), arch, options);
  return cached_or_built(key, [&](Cubin& c) {
    std::vector<const char*> opts;
    for (const std::string& o : options) opts.push_back(o.c_str());
    nvJitLinkHandle h = nullptr;
    if (nvJitLinkCreate(&h, static_cast<std::uint32_t>(opts.size()), opts.data()) !=
        NVJITLINK_SUCCESS)
      throw CompileError("nvJitLinkCreate failed (options: -arch=sm_" + std::to_string(arch) + ")");
    std::unique_ptr<nvJitLinkHandle, void (*)(nvJitLinkHandle*)> guard(
        &h, [](nvJitLinkHandle* q) { nvJitLinkDestroy(q); });
    nvJitLinkResult r =
        nvJitLinkAddData(h, NVJITLINK_INPUT_PTX, ptx.data(), ptx.size(), "rnncc_lut_kernel.ptx");
    if (r == NVJITLINK_SUCCESS) r = nvJitLinkComplete(h);
    if (r != NVJITLINK_SUCCESS) {
      std::size_t n = 0;
      nvJitLinkGetErrorLogSize(h, &n);
      std::string log(n, '\0');
      if (n) nvJitLinkGetErrorLog(h, log.data());
      while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
      throw CompileError("nvJitLink could not assemble the PTX kernel (error " +
                         std::to_string(static_cast<int>(r)) + "): " + log.substr(0, 4000));
    }
    std::size_t n = 0;
    if (nvJitLinkGetLinkedCubinSize(h, &n) != NVJITLINK_SUCCESS)
      throw CompileError("nvJitLinkGetLinkedCubinSize failed");
    c.image.resize(n);
    if (nvJitLinkGetLinkedCubin(h, c.image.data()) != NVJITLINK_SUCCESS)
      throw CompileError("nvJitLinkGetLinkedCubin failed");
    std::size_t info = 0;
    nvJitLinkGetInfoLogSize(h, &info);
    c.log.assign(info, '\0');
    if (info) nvJitLinkGetInfoLog(h, c.log.data());
    while (!c.log.empty() && (c.log.back() == '\0' || c.log.back() == '\n')) c.log.pop_back();
  });
}

int device_arch() {
  int major = 0, minor = 0;
  RNNCC_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0),
             "reading the compute capability");
  RNNCC_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, 0),
             "reading the compute capability");
  return major * 10 + minor;
}

Compiled compile_program(const Program& p, const RunOptions& o, const LaunchConfig& config,
                         int arch, const std::atomic<bool>* cancel) {
  const auto t0 = Clock::now();
  Compiled c;
  c.ptx = p.boolean && config.boolean_kernels == BooleanKernels::ptx;
  std::vector<const std::string*> texts;
  if (c.ptx) {
    c.lut = kernels::ptx_program(p, ptx_options(config, arch, o.patterns.mode));
    for (const auto& part : c.lut.parts) texts.push_back(&part.ptx);
  } else {
    kernels::SourceOptions so;
    so.max_gate_instructions = config.max_gate_instructions;
    so.threads = config.threads;
    so.patterns_per_thread = config.patterns_per_thread;
    so.partition = config.partition;
    c.source =
        kernels::kernel_source(p, p.boolean ? 1 : static_cast<std::uint32_t>(o.primes.size()), so);
    for (const auto& part : c.source.parts) texts.push_back(&part.source);
  }
  // Every partition in parallel (NVRTC programs and nvJitLink handles are independent).
  const std::size_t nk = texts.size();
  c.cubins.resize(nk);
  std::vector<std::exception_ptr> errors(nk);
  std::atomic<bool> cancelled{false};
  {
    std::atomic<std::size_t> next{0};
    const std::size_t workers =
        std::min<std::size_t>(nk, std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (std::size_t t = 0; t < workers; ++t)
      pool.emplace_back([&] {
        for (std::size_t i; (i = next++) < nk;) {
          if (cancel && cancel->load()) {
            cancelled = true;
            return;
          }
          try {
            c.cubins[i] = c.ptx ? compile_ptx(*texts[i], arch, config.ptxas_optimization)
                                : compile(*texts[i], arch);
          } catch (...) {
            errors[i] = std::current_exception();
          }
        }
      });
    for (std::thread& t : pool) t.join();
  }
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  if (cancelled) throw CompileCancelled("compiling the kernels was cancelled");
  c.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return c;
}

bool cached(const Program& p, const RunOptions& o, const LaunchConfig& config) {
  if (!supported(p, o)) return false;
  const auto dir = cache_dir();
  if (!dir) return false;
  if (p.boolean && config.boolean_kernels == BooleanKernels::ptx) {
    const int arch = device_arch();
    for (const auto& part :
         kernels::ptx_program(p, ptx_options(config, arch, o.patterns.mode)).parts) {
      std::string ptx = part.ptx;
      {
        std::lock_guard<std::mutex> lock(hook_mutex);
        if (source_hook) source_hook(ptx);
      }
      const std::string key = cache_key(ptx, "nvJitLink " + nvjitlink_version(), arch,
                                        nvjitlink_options(arch, config.ptxas_optimization));
      if (!read_entry(*dir / (key + ".cubin"), key)) return false;
    }
    return true;
  }
  kernels::SourceOptions so;
  so.max_gate_instructions = config.max_gate_instructions;
  so.threads = config.threads;
  so.patterns_per_thread = config.patterns_per_thread;
  so.partition = config.partition;
  const int arch = device_arch();
  const auto ks =
      kernels::kernel_source(p, p.boolean ? 1 : static_cast<std::uint32_t>(o.primes.size()), so);
  std::string source;
  for (const auto& part : ks.parts) {
    source = part.source;
    {
      std::lock_guard<std::mutex> lock(hook_mutex);
      if (source_hook) source_hook(source);
    }
    const std::string key = cache_key(source, nvrtc_version(), arch, nvrtc_options(arch));
    if (!read_entry(*dir / (key + ".cubin"), key)) return false;
  }
  return true;
}

bool supported(const Program& p, const RunOptions& o, std::string* why) {
  auto no = [&](const std::string& w) {
    if (why) *why = w;
    return false;
  };
  if (p.boolean) return true;
  if (o.magnitude) return no("the float shadow runs in the interpreter only");
  if (o.primes.empty() || o.primes.size() > kernels::kMaxPrimes)
    return no("compiled arithmetic kernels take 1 to " + std::to_string(kernels::kMaxPrimes) +
              " primes");
  return true;
}

ProgramResult run(const Program& p, const RunOptions& o, const LaunchConfig& config, Timing* timing,
                  const Compiled* ready) {
  const auto t0 = Clock::now();
  std::string why;
  if (!supported(p, o, &why)) throw GpuError("compiled kernels: " + why);
  const std::uint32_t T = config.threads;
  const DeviceInfo dev = detail::launch_device(p, o, T);
  const int arch = device_arch();
  const std::uint32_t np = p.boolean ? 1 : static_cast<std::uint32_t>(o.primes.size());

  std::optional<Compiled> now;
  if (!ready) now = compile_program(p, o, config, arch);
  const Compiled& kc = ready ? *ready : *now;
  if (kc.ptx) return run_lut(p, o, config, timing, kc);
  const kernels::KernelSource& ks = kc.source;
  const std::vector<Cubin>& cubins = kc.cubins;
  const std::size_t nk = ks.parts.size();
  std::vector<const std::vector<char>*> images;
  for (const Cubin& c : cubins) images.push_back(&c.image);
  const detail::LoadedKernels loaded(images, kernels::kEntry, T, dev, "compiled kernel");
  const auto& libs = loaded.libs;
  const auto& blocks_of = loaded.resident_blocks;
  const bool all_cached =
      std::all_of(cubins.begin(), cubins.end(), [](const Cubin& c) { return c.cached; });
  const double compile_seconds =
      ready ? ready->seconds : std::chrono::duration<double>(Clock::now() - t0).count();
  const auto t1 = Clock::now();
  detail::LaunchDriver driver(p, o);

  // Chunks: a unit is a word (boolean) or a pattern (arithmetic); the cross buffer holds every
  // crossing value of every unit of a chunk, so the chunk is bounded by half the free memory
  // (out of memory: the chunk halves), the stored outputs by the driver, a launch by
  // chunk_patterns.
  const std::uint64_t unit_patterns = p.boolean ? 64 : 1;
  const std::uint64_t units_total = (o.patterns.count + unit_patterns - 1) / unit_patterns;
  const std::uint64_t cross_per_unit =
      static_cast<std::uint64_t>(ks.cross_values) * np * (p.boolean ? 8 : 4);
  std::size_t free_bytes = 0, total_bytes = 0;
  RNNCC_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes), "reading free device memory");
  std::uint64_t chunk = std::max<std::uint64_t>(config.chunk_patterns / unit_patterns, 1);
  chunk = std::min(chunk, units_total);
  if (cross_per_unit) chunk = std::min<std::uint64_t>(chunk, free_bytes / 2 / cross_per_unit);
  chunk = std::min<std::uint64_t>(chunk, driver.store_limit() / unit_patterns);
  chunk = std::max<std::uint64_t>(chunk, 1);
  std::unique_ptr<Buffer<char>> cross;
  while (true) {
    try {
      cross = std::make_unique<Buffer<char>>(std::max<std::uint64_t>(cross_per_unit * chunk, 8),
                                             "values crossing kernels");
      break;
    } catch (const GpuError&) {
      cudaGetLastError();
      if (chunk <= 1024) throw;
      chunk /= 2;
    }
  }

  // Units a block covers in one pass: T, or T·K patterns for arithmetic with K per thread.
  const std::uint64_t TK = static_cast<std::uint64_t>(T) *
                           (p.boolean ? 1 : std::max<std::uint32_t>(config.patterns_per_thread, 1));
  // The partitions in order, each with the blocks its units need (at most those resident).
  auto launch_all = [&](void* args, std::uint64_t units) -> std::uint64_t {
    for (std::size_t i = 0; i < nk; ++i) {
      void* argv[] = {args};
      const std::uint32_t blocks =
          static_cast<std::uint32_t>(std::min<std::uint64_t>(blocks_of[i], (units + TK - 1) / TK));
      RNNCC_CUDA(cudaLaunchKernel(reinterpret_cast<const void*>(libs[i]->kernel), dim3(blocks),
                                  dim3(T), argv, 0, nullptr),
                 "launching compiled kernel " + std::to_string(i + 1) + " of " +
                     std::to_string(nk) + " (" + std::to_string(blocks) + " blocks × " +
                     std::to_string(T) + " threads)");
    }
    return nk;
  };

  ProgramResult r;
  const std::uint64_t chunk_patterns = chunk * unit_patterns;
  if (p.boolean) {
    driver.run(chunk_patterns, "the compiled kernels", [&](const detail::Chunk& k) {
      kernels::BoolArgs a{
          k.spec, driver.kernel_digest(), reinterpret_cast<std::uint64_t*>(cross->p),
          chunk,  driver.output_counts(), static_cast<std::uint64_t*>(k.store)};
      return launch_all(&a, 2 * ((k.spec.count + 63) / 64));  // half words
    });
    r = driver.result();
  } else {
    kernels::ModArgs a{};
    a.d = driver.kernel_digest();
    const std::vector<mont31::Field> fields = detail::prime_fields(o.primes);
    for (std::uint32_t j = 0; j < np; ++j) {
      a.f[j] = fields[j];
      a.one[j] = mont31::to_mont(1, a.f[j]);
    }
    const std::vector<std::uint32_t> constants = detail::montgomery_constants(p, fields);
    Buffer<std::uint32_t> dconst(std::max<std::size_t>(constants.size(), 1), "constants");
    if (!constants.empty()) dconst.upload(constants.data(), "constants");
    a.constants = dconst.p;
    a.sums = driver.output_sums();
    a.cross = reinterpret_cast<std::uint32_t*>(cross->p);
    a.cross_stride = chunk;
    driver.run(chunk_patterns, "the compiled kernels", [&](const detail::Chunk& k) {
      a.spec = k.spec;
      a.store = static_cast<std::uint32_t*>(k.store);
      return launch_all(&a, k.spec.count);
    });
    r = driver.result(fields);
    r.max_difference_bound.assign(p.pairs, 0.0);
  }
  if (timing) {
    timing->kernel_seconds = driver.kernel_seconds();
    timing->total_seconds = std::chrono::duration<double>(Clock::now() - t1).count();
    timing->compile_seconds = compile_seconds;
    timing->path = all_cached ? "compiled (cached)" : "compiled";
    timing->compiler = "CUDA C++ (NVRTC)";
    timing->blocks = blocks_of.empty() ? 0 : blocks_of[0];
    timing->threads = T;
    timing->slots = 0;
    timing->launches = driver.launches();
    timing->kernels = static_cast<std::uint32_t>(nk);
    timing->registers = loaded.registers;
    timing->local_bytes = loaded.local_bytes;
    timing->cross_values = ks.cross_values;
  }
  return r;
}

}  // namespace rnncc::gpu::compiled
