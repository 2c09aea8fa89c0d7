// Memory facts of the machine, for the --max-memory limits (docs/reliability.md, "Limits"): a
// command estimates its peak memory before it starts and refuses above the limit, whose default
// is half the machine's physical memory (what the OS reports; a container's cgroup limit when
// that is lower), so that a small input never takes the whole machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace rnncc {

// Physical memory in MiB: sysconf(_SC_PHYS_PAGES) × page size, lowered to the cgroup's
// memory.max (v2) or memory.limit_in_bytes (v1) when one is set and smaller; 0 when unknown.
std::size_t physical_memory_mib();

// The default of every --max-memory: half of physical_memory_mib() — or of the address-space
// limit (ulimit -v) when that is lower —, at least 256 MiB; 8192 when the OS reports nothing.
std::size_t default_max_memory_mib();

// Throws InputError(option, "<what> about X MiB (<detail>), more than the limit of M MiB (raise
// <option> to run it anyway)") when estimate_bytes rounded up to MiB passes limit_mib; `what`
// ends in its verb ("compiling would take"). Saturated estimates read "more than 2^64 bytes".
void check_memory(const std::string& option, std::uint64_t estimate_bytes, std::size_t limit_mib,
                  const std::string& what, const std::string& detail);

// What one exact rational of a dense matrix holds: the 32-byte mpq_t and the one-limb
// allocation of its denominator (GMP allocates it even for 0 = 0/1), as malloc rounds it; larger
// numbers hold more. The unit of the memory estimates of dense exact matrices (WFA models,
// traces); measured by tests/algebra/test_memory.cpp.
inline constexpr std::uint64_t kRationalEntryBytes = 64;

}  // namespace rnncc
