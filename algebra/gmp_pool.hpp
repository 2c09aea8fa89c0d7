// A pool for GMP's small allocations: the limbs of small integers and rationals.
//
// Every mpz_t keeps its limbs in memory from GMP's allocation functions (mp_set_memory_functions),
// and an mpq_t two such blocks even for 0 (numerator) and 1 (denominator): each rational of a
// dense d×d matrix costs two mallocs and two frees. A d = 1024 LRNN layer that a 4.5 kB model
// file describes has 2·1024² of them, and glibc's malloc spent most of `rnncc run`'s time there
// (and in malloc_consolidate, which walks every freed small chunk when a large one is freed;
// docs/reliability.md, "Work estimates"). The pool serves blocks of at most kPoolBytes (four
// 64-bit limbs) from 64 KiB slabs: one size class per 8 bytes, one free list per class and
// thread (no lock: a block freed by another thread joins that thread's list), slabs never given
// back (a global list keeps them reachable, for LeakSanitizer). Larger blocks are malloc's.
//
// install() routes GMP's functions through the pool; the CLI calls it first in main. The Python
// module does not: another extension in the same interpreter may hold GMP memory from malloc.
// A block GMP allocated before install() (a static Rational) may be freed into the pool: a
// malloc chunk of the size GMP names is a valid block of that class. The sanitizer build skips
// install() (cli/main.cpp), so AddressSanitizer still checks every GMP buffer there; the pool's
// own functions are tested directly in both builds (tests/algebra/test_gmp_pool.cpp).
#pragma once

#include <cstddef>

namespace rnncc::gmp_pool {

inline constexpr std::size_t kPoolBytes = 32;

// GMP's three functions (gmp.h, "Custom Allocation"): sizes in bytes; `old_bytes` and `bytes`
// are the sizes the block was allocated with. Out of memory: std::bad_alloc (GMP's own functions
// abort), which the CLI reports as "out of memory while …", exit 3.
void* allocate(std::size_t bytes);
void* reallocate(void* block, std::size_t old_bytes, std::size_t new_bytes);
void release(void* block, std::size_t bytes);

// mp_set_memory_functions(allocate, reallocate, release). Call before any other thread runs.
void install();

}  // namespace rnncc::gmp_pool
