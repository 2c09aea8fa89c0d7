// Work split into numbered blocks, run over the ranks of a run (algebra/ranks.hpp), reduced in
// block order, and resumable from a checkpoint file. `rnncc verify --exhaustive L` and
// `rnncc eval --batch N` use it under mpirun or with --checkpoint (docs/performance.md, "Past one
// machine").
//
// Determinism: blocks are fixed by the job, never by the number of ranks R; a block's result
// (its payload) depends on its number only; every rank receives every payload, and the caller
// folds them in block order. So counts, digests and the first failure are the same bytes for any
// R, and for a run resumed from its checkpoint.
//
// Schedule: the blocks not yet in the checkpoint, in ascending order, go out in rounds: in round
// k rank r runs the (kR + r)-th of them; after each round every rank gathers the round's
// payloads. A block whose result is `last` (a failure was found: nothing after it is needed)
// ends the run after its round; every block before it ran in that round or an earlier one, so
// the fold sees every block up to the first failure.
//
// Checkpoint file (text, one line each; docs/formats.md, "Checkpoints"):
//   rnncc-checkpoint 1
//   job <16 hex digits: hash of the job text> blocks <N>
//   # <the job text>
//   <block> <L or -> <payload bytes> <payload> <16 hex digits: checksum of the line so far>
// Rank 0 writes it: created under a temporary name and renamed, entries appended after each
// round and fsynced at most once a second (and at the end). A run killed at any instant leaves
// a prefix of whole lines plus at most one torn last line; the next run drops the torn line
// (rewriting the file without it) and runs only the missing blocks. A checkpoint of another job,
// or a damaged line before the last, is refused (InputError: FILE:LINE).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "algebra/progress.hpp"
#include "algebra/ranks.hpp"

namespace rnncc {

struct BlockResult {
  std::string payload;  // the block's result, as bytes (any content)
  bool last = false;    // no later block is needed (a failure was found in this one)
};

struct ShardedRunOptions {
  std::uint64_t blocks = 0;
  // What is computed, in words precise enough that equal texts mean equal block results (the
  // command, its inputs' fingerprints, the block size): a checkpoint of another job is refused.
  std::string job;
  std::optional<std::string> checkpoint;  // file; nullopt: none
  Progress* progress = nullptr;           // rank 0 reports blocks done
  std::string progress_label = "blocks";
  double fsync_interval_seconds = 1.0;
};

struct ShardedRunResult {
  std::vector<std::string> payloads;  // blocks 0 .. k in order: k the first `last` one, or N − 1
  std::uint64_t resumed = 0;          // blocks read from the checkpoint instead of run
  std::uint64_t ran = 0;              // blocks run by all ranks in this run
  int ranks = 1;
};

// Collective over `ranks`. An exception in block() on any rank is raised on every rank after the
// round (the lowest rank's first): InputError, DomainError and std::bad_alloc keep their type,
// anything else becomes std::runtime_error with the rank named. Completed blocks of that round
// are kept in the checkpoint.
ShardedRunResult run_sharded(Ranks& ranks, const ShardedRunOptions& options,
                             const std::function<BlockResult(std::uint64_t block)>& block);

// The checksum and job hash of the file format (FNV-1a, 64 bits).
std::uint64_t checkpoint_hash(std::string_view bytes);

}  // namespace rnncc
