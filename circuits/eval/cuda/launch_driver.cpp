// The GPU evaluators' launch driver; the design is in launch_driver.hpp.
#include "circuits/eval/cuda/launch_driver.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace rnncc::gpu::detail {

DeviceInfo launch_device(const Program& p, const RunOptions& o, std::uint32_t threads) {
  DeviceInfo d = probe();
  if (!d.available) throw GpuError(d.why_not);
  if (threads == 0 || threads % 32 != 0 || threads > 1024)
    throw GpuError("threads per block must be a multiple of 32 up to 1024, got " +
                   std::to_string(threads));
  if (p.boolean && o.patterns.first % 64 != 0)
    throw GpuError("boolean runs start at a multiple of 64 patterns");
  if (!p.boolean && o.primes.empty()) throw GpuError("arithmetic programs need at least one prime");
  return d;
}

std::vector<mont31::Field> prime_fields(const std::vector<std::uint32_t>& primes) {
  std::vector<mont31::Field> fields;
  fields.reserve(primes.size());
  for (std::uint32_t q : primes) fields.push_back(mont31::make_field(q));
  return fields;
}

std::vector<std::uint32_t> montgomery_constants(const Program& p,
                                                const std::vector<mont31::Field>& fields) {
  std::vector<std::uint32_t> out;
  out.reserve(fields.size() * p.constants.size());
  for (const mont31::Field& f : fields)
    for (const Rational& c : p.constants) {
      try {
        out.push_back(montgomery_constant(c, f));  // program.hpp, shared with the CPU twin
      } catch (const std::invalid_argument&) {
        throw GpuError("prime " + std::to_string(f.p) + " divides a constant's denominator");
      }
    }
  return out;
}

LaunchDriver::LaunchDriver(const Program& p, const RunOptions& o)
    : p_(p),
      o_(o),
      primes_(p.boolean ? 1 : static_cast<std::uint32_t>(o.primes.size())),
      digest_(p.pairs, o.max_first_mismatches),
      counts_(p.boolean ? std::max<std::uint32_t>(p.outputs, 1) : 0, "output counts"),
      sums_(p.boolean ? 0 : std::max<std::size_t>(std::size_t{primes_} * p.outputs, 1),
            "output sums") {
  counts_.fill(0, "output counts");
  sums_.fill(0, "output sums");
}

kernels::Digest LaunchDriver::kernel_digest() const {
  return kernels::Digest{digest_.mismatches.p,
                         digest_.first.p,
                         digest_.samples.p,
                         digest_.nsamples.p,
                         static_cast<unsigned>(o_.max_first_mismatches),
                         p_.outputs};
}

std::uint64_t store_limit(const Program& p, const RunOptions& o) {
  if (!o.store || p.outputs == 0) return std::numeric_limits<std::uint64_t>::max();
  if (p.boolean) return 64 * std::max<std::uint64_t>(kStoreBytes / (8ull * p.outputs), 1);
  return std::max<std::uint64_t>(kStoreBytes / (4ull * p.outputs * o.primes.size()), 1);
}

void LaunchDriver::run(std::uint64_t chunk_patterns, const std::string& what,
                       const Enqueue& enqueue) {
  if (chunk_patterns == 0 || (p_.boolean && chunk_patterns % 64 != 0))
    throw GpuError("a chunk of " + std::to_string(chunk_patterns) + " patterns" +
                   (p_.boolean ? " (boolean: a positive multiple of 64)" : " (must be positive)"));
  const std::uint64_t count = o_.patterns.count;
  const std::uint64_t most = std::min(chunk_patterns, count);
  // Per chunk: words × outputs 64-bit words, or patterns × primes × outputs residues.
  Buffer<std::uint64_t> words(o_.store && p_.boolean ? (most + 63) / 64 * p_.outputs : 0,
                              "stored outputs");
  Buffer<std::uint32_t> residues(o_.store && !p_.boolean ? most * primes_ * p_.outputs : 0,
                                 "stored outputs");
  if (o_.store)
    stored_.reserve(p_.boolean ? (count + 63) / 64 * p_.outputs : count * primes_ * p_.outputs);
  for (std::uint64_t done = 0; done < count; done += chunk_patterns) {
    Chunk k;
    k.spec = o_.patterns;
    k.spec.first = o_.patterns.first + done;
    k.spec.count = std::min(chunk_patterns, count - done);
    if (o_.store) k.store = p_.boolean ? static_cast<void*>(words.p) : residues.p;
    kernel_seconds_ += timed_launches(what, [&] { launches_ += enqueue(k); });
    if (!o_.store) continue;
    if (p_.boolean) {
      const auto part = words.download((k.spec.count + 63) / 64 * p_.outputs, "stored outputs");
      stored_.insert(stored_.end(), part.begin(), part.end());
    } else {
      const auto part = residues.download(k.spec.count * primes_ * p_.outputs, "stored outputs");
      stored_.insert(stored_.end(), part.begin(), part.end());
    }
  }
}

ProgramResult LaunchDriver::result(const std::vector<mont31::Field>& fields) const {
  ProgramResult r;
  r.patterns = o_.patterns.count;
  r.stored = stored_;
  if (p_.boolean) {
    const auto ones = counts_.download("output counts");
    r.ones.assign(ones.begin(), ones.begin() + p_.outputs);
  } else {
    if (fields.size() < primes_)
      throw GpuError("reading the output sums: " + std::to_string(fields.size()) + " fields for " +
                     std::to_string(primes_) + " primes");
    // Σ of terms each < p, reduced mod p once here, then out of Montgomery form.
    const auto sums = sums_.download("output sums");
    r.sums.assign(primes_, std::vector<std::uint64_t>(p_.outputs));
    for (std::uint32_t j = 0; j < primes_; ++j)
      for (std::uint32_t k = 0; k < p_.outputs; ++k)
        r.sums[j][k] = mont31::from_mont(
            static_cast<std::uint32_t>(sums[std::size_t{j} * p_.outputs + k] % o_.primes[j]),
            fields[j]);
  }
  digest_.read(r);  // sorted, unique samples
  return r;
}

}  // namespace rnncc::gpu::detail
