// The processes of one run: a single process, or the R ranks that `mpirun -np R` (Open MPI,
// MPICH) or `srun` started. Shared by every layer, like errors and progress: library code that
// shards its work (algebra/sharded_run.hpp) asks a Ranks for its rank, the number of ranks and
// two collective operations, and never includes MPI itself. MPI is optional at build time
// (RNNCC_HAVE_MPI, CMake option RNNCC_WITH_MPI); without it, or when the process was not
// launched by an MPI launcher, world_ranks() is the single-process twin (docs/performance.md,
// "Past one machine").
#pragma once

#include <string>
#include <vector>

namespace rnncc {

class Ranks {
 public:
  virtual ~Ranks() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // Collective: every rank passes its bytes and gets every rank's, in rank order.
  virtual std::vector<std::string> all_gather(const std::string& mine) = 0;
  // Collective: rank 0's bytes on every rank (the others' argument is ignored).
  virtual std::string broadcast(const std::string& from_rank_0) = 0;
};

// One process: rank 0 of 1; all_gather returns {mine}, broadcast its argument.
Ranks& single_rank();

// MPI's world after start_ranks() started MPI, else single_rank().
Ranks& world_ranks();

// Whether the environment says an MPI launcher started this process (Open MPI's
// OMPI_COMM_WORLD_SIZE, MPICH/Hydra's PMI_SIZE, PMIx's PMIX_RANK), and as how many ranks (0: not
// launched by one).
int launcher_ranks();

// Starts MPI when built with it and launcher_ranks() > 0; returns whether it did. Built without
// MPI but launched as one of R > 1 ranks: throws InputError (every rank would otherwise run the
// whole job alone). Under MPI, on a node with GPUs (/proc/driver/nvidia/gpus) and no
// CUDA_VISIBLE_DEVICES set by the user, each rank sees one GPU: its local rank modulo their count.
bool start_ranks(int* argc, char*** argv);
// Ends MPI if start_ranks started it (idempotent).
void stop_ranks();

// "3 MPI ranks" or "one process".
std::string describe(const Ranks& r);

// The rank on this node (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID, SLURM_LOCALID), else 0.
int local_rank();

}  // namespace rnncc
