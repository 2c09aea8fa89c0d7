#include "algebra/gmp_pool.hpp"

#include <gmp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <vector>

namespace rnncc::gmp_pool {

namespace {

constexpr std::size_t kClasses = kPoolBytes / 8;  // blocks of 8, 16, 24, 32 bytes
constexpr std::size_t kSlabBytes = std::size_t{64} << 10;

struct FreeBlock {
  FreeBlock* next;
};

// One thread's free lists and the unused rest of its current slab. Plain data: nothing to run
// at thread exit (its blocks stay in the slabs, reachable).
struct ThreadPool {
  FreeBlock* free[kClasses];
  char* cursor;
  char* end;
};
thread_local ThreadPool local{};

std::mutex slabs_mutex;
std::vector<void*>* const slabs = new std::vector<void*>;  // never destroyed: reachable at exit

// GMP's default allocator aborts; a std::bad_alloc reaches the CLI's error boundary instead
// ("out of memory while …", exit 3; cli/error_boundary.hpp), through GMP's frames (x86-64 C code
// carries unwind tables) or, where it cannot, through the terminate handler, which says the same.
[[noreturn]] void out_of_memory(std::size_t) {
  throw std::bad_alloc();
}

std::size_t class_of(std::size_t bytes) {
  return (bytes + 7) / 8 - 1;  // 1..8 → 0, 9..16 → 1, …
}

void* from_slab(std::size_t block_bytes) {
  if (static_cast<std::size_t>(local.end - local.cursor) < block_bytes) {
    void* slab = std::malloc(kSlabBytes);
    if (!slab) out_of_memory(kSlabBytes);
    {
      const std::lock_guard<std::mutex> lock(slabs_mutex);
      slabs->push_back(slab);
    }
    local.cursor = static_cast<char*>(slab);
    local.end = local.cursor + kSlabBytes;
  }
  void* block = local.cursor;
  local.cursor += block_bytes;
  return block;
}

}  // namespace

void* allocate(std::size_t bytes) {
  if (bytes == 0 || bytes > kPoolBytes) {
    void* p = std::malloc(bytes ? bytes : 1);
    if (!p) out_of_memory(bytes);
    return p;
  }
  const std::size_t c = class_of(bytes);
  if (FreeBlock* b = local.free[c]) {
    local.free[c] = b->next;
    return b;
  }
  return from_slab((c + 1) * 8);
}

void release(void* block, std::size_t bytes) {
  if (!block) return;
  if (bytes == 0 || bytes > kPoolBytes) {
    std::free(block);
    return;
  }
  const std::size_t c = class_of(bytes);
  auto* b = static_cast<FreeBlock*>(block);
  b->next = local.free[c];
  local.free[c] = b;
}

void* reallocate(void* block, std::size_t old_bytes, std::size_t new_bytes) {
  const bool old_pooled = old_bytes > 0 && old_bytes <= kPoolBytes;
  const bool new_pooled = new_bytes > 0 && new_bytes <= kPoolBytes;
  if (!old_pooled && !new_pooled) {  // malloc's both ways
    void* p = std::realloc(block, new_bytes ? new_bytes : 1);
    if (!p) out_of_memory(new_bytes);
    return p;
  }
  if (old_pooled && new_pooled && class_of(old_bytes) == class_of(new_bytes)) return block;
  void* moved = allocate(new_bytes);
  std::memcpy(moved, block, old_bytes < new_bytes ? old_bytes : new_bytes);
  release(block, old_bytes);
  return moved;
}

void install() {
  mp_set_memory_functions(allocate, reallocate, release);
}

}  // namespace rnncc::gmp_pool
