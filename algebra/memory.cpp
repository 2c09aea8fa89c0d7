#include "algebra/memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>

#include "algebra/error.hpp"

namespace rnncc {

namespace {

// The first number in a cgroup file ("max" and unreadable files: none).
std::uint64_t cgroup_limit_bytes(const char* path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word.empty() || word.find_first_not_of("0123456789") != std::string::npos)
    return 0;
  try {
    return std::stoull(word);
  } catch (...) {
    return 0;
  }
}

}  // namespace

std::size_t physical_memory_mib() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  std::uint64_t bytes = pages > 0 && page > 0
                            ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page)
                            : 0;
  for (const char* path :
       {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    const std::uint64_t limit = cgroup_limit_bytes(path);
    if (limit != 0 && (bytes == 0 || limit < bytes)) bytes = limit;
  }
  return static_cast<std::size_t>(bytes >> 20);
}

std::size_t default_max_memory_mib() {
  std::size_t mib = physical_memory_mib();
  // An address-space limit (ulimit -v) lower than the memory: what this process can have.
  struct rlimit as {};
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    const std::size_t limit = static_cast<std::size_t>(as.rlim_cur >> 20);
    if (mib == 0 || limit < mib) mib = limit;
  }
  return mib == 0 ? 8192 : std::max<std::size_t>(256, mib / 2);
}

void check_memory(const std::string& option, std::uint64_t estimate_bytes, std::size_t limit_mib,
                  const std::string& what, const std::string& detail) {
  constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
  const std::uint64_t need = estimate_bytes / kMiB + (estimate_bytes % kMiB != 0);
  if (need <= limit_mib) return;
  const std::string amount = estimate_bytes == std::numeric_limits<std::uint64_t>::max()
                                 ? "more than 2^64 bytes"
                                 : "about " + std::to_string(need) + " MiB";
  throw InputError(option, what + " " + amount + (detail.empty() ? "" : " (" + detail + ")") +
                               ", more than the limit of " + std::to_string(limit_mib) +
                               " MiB (raise " + option + " to run it anyway)");
}

}  // namespace rnncc
