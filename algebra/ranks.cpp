#include "algebra/ranks.hpp"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

#include "algebra/error.hpp"

#if RNNCC_HAVE_MPI
#include <mpi.h>
#endif

namespace rnncc {

namespace {

class SingleRank final : public Ranks {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::vector<std::string> all_gather(const std::string& mine) override { return {mine}; }
  std::string broadcast(const std::string& from_rank_0) override { return from_rank_0; }
};

int env_int(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return -1;
  char* end = nullptr;
  const long x = std::strtol(v, &end, 10);
  return *end == '\0' && x >= 0 && x < (1L << 30) ? static_cast<int>(x) : -1;
}

#if RNNCC_HAVE_MPI
// MPI_COMM_WORLD. Byte strings travel as MPI_BYTE with their lengths gathered first; a payload
// over 2^31 − 1 bytes is a bug of the caller (blocks are summaries), checked.
class MpiRanks final : public Ranks {
 public:
  MpiRanks() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::vector<std::string> all_gather(const std::string& mine) override {
    if (mine.size() > INT32_MAX) throw std::length_error("all_gather: payload over 2 GiB");
    int n = static_cast<int>(mine.size());
    std::vector<int> lengths(static_cast<std::size_t>(size_));
    MPI_Allgather(&n, 1, MPI_INT, lengths.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::vector<int> offsets(lengths.size());
    std::int64_t total = 0;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
      offsets[r] = static_cast<int>(total);
      total += lengths[r];
      if (total > INT32_MAX) throw std::length_error("all_gather: payloads over 2 GiB");
    }
    std::string all(static_cast<std::size_t>(total), '\0');
    MPI_Allgatherv(mine.data(), n, MPI_BYTE, all.data(), lengths.data(), offsets.data(), MPI_BYTE,
                   MPI_COMM_WORLD);
    std::vector<std::string> out(lengths.size());
    for (std::size_t r = 0; r < lengths.size(); ++r)
      out[r] =
          all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r]));
    return out;
  }
  std::string broadcast(const std::string& from_rank_0) override {
    std::uint64_t n = from_rank_0.size();
    MPI_Bcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    if (n > INT32_MAX) throw std::length_error("broadcast: payload over 2 GiB");
    std::string s = rank_ == 0 ? from_rank_0 : std::string(n, '\0');
    MPI_Bcast(s.data(), static_cast<int>(n), MPI_BYTE, 0, MPI_COMM_WORLD);
    return s;
  }

 private:
  int rank_ = 0, size_ = 1;
};

MpiRanks* mpi_world = nullptr;

// One GPU per rank on a node with several: CUDA then numbers the visible one 0 (docs/cli.md).
void one_gpu_per_rank() {
  if (std::getenv("CUDA_VISIBLE_DEVICES")) return;  // the user's (or SLURM's) choice stands
  std::error_code ec;
  std::filesystem::directory_iterator it("/proc/driver/nvidia/gpus", ec);
  if (ec) return;
  int gpus = 0;
  for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
    if (ec) return;
    ++gpus;
  }
  if (gpus > 1) setenv("CUDA_VISIBLE_DEVICES", std::to_string(local_rank() % gpus).c_str(), 1);
}
#endif

}  // namespace

Ranks& single_rank() {
  static SingleRank one;
  return one;
}

Ranks& world_ranks() {
#if RNNCC_HAVE_MPI
  if (mpi_world) return *mpi_world;
#endif
  return single_rank();
}

int launcher_ranks() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    const int n = env_int(name);
    if (n > 0) return n;
  }
  // PMIx alone (srun --mpi=pmix) names the rank, not the size: at least one rank.
  return env_int("PMIX_RANK") >= 0 ? 1 : 0;
}

bool start_ranks(int* argc, char*** argv) {
  const int launched = launcher_ranks();
  if (launched == 0) return false;
#if RNNCC_HAVE_MPI
  if (mpi_world) return true;
  one_gpu_per_rank();
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) MPI_Init(argc, argv);
  mpi_world = new MpiRanks();
  return true;
#else
  (void)argc, (void)argv;
  if (launched > 1)
    throw InputError("mpirun",
                     "started as one of " + std::to_string(launched) +
                         " ranks, but this rnncc was built without MPI (install Open MPI's "
                         "libopenmpi-dev and rebuild; docs/performance.md, \"Past one machine\")");
  return false;
#endif
}

void stop_ranks() {
#if RNNCC_HAVE_MPI
  if (!mpi_world) return;
  delete mpi_world;
  mpi_world = nullptr;
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
#endif
}

std::string describe(const Ranks& r) {
  if (r.size() == 1 && &r == &single_rank()) return "one process";
  return std::to_string(r.size()) + (r.size() == 1 ? " MPI rank" : " MPI ranks");
}

int local_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"}) {
    const int n = env_int(name);
    if (n >= 0) return n;
  }
  return 0;
}

}  // namespace rnncc
