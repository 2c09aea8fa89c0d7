#include "circuits/io/output_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>

#include "algebra/error.hpp"

namespace rnncc {

namespace {

// The table the signal handlers read. A slot is free (0), being filled or emptied (1), or holds
// the path of a pending temporary file (2); the handler unlinks only the paths of full slots.
// Fixed storage and lock-free atomics: the handler neither allocates nor locks.
enum : int { kFree = 0, kBusy = 1, kFull = 2 };
constexpr std::size_t kSlotPathBytes = 4096;
struct Slot {
  std::atomic<int> state{kFree};
  char path[kSlotPathBytes] = {};
};
Slot g_slots[kMaxPendingOutputs];
static_assert(std::atomic<int>::is_always_lock_free);

int claim_slot(const std::string& tmp) {
  if (tmp.size() >= kSlotPathBytes) return -1;
  for (std::size_t i = 0; i < kMaxPendingOutputs; ++i) {
    int expected = kFree;
    if (g_slots[i].state.compare_exchange_strong(expected, kBusy)) {
      std::memcpy(g_slots[i].path, tmp.c_str(), tmp.size() + 1);
      g_slots[i].state.store(kFull);
      return static_cast<int>(i);
    }
  }
  return -1;
}

void release_slot(int slot) {
  if (slot < 0) return;
  g_slots[slot].state.store(kBusy);
  g_slots[slot].path[0] = '\0';
  g_slots[slot].state.store(kFree);
}

// Async-signal-safe: atomics, unlink, signal, raise.
extern "C" void remove_pending_outputs_and_die(int sig) {
  const int saved = errno;
  remove_pending_outputs();
  std::signal(sig, SIG_DFL);
  errno = saved;
  std::raise(sig);  // delivered with the default action once this handler returns
}

std::atomic<unsigned long> g_counter{0};

std::string why(int err) {
  return std::strerror(err);
}

}  // namespace

void remove_pending_outputs() noexcept {
  for (Slot& s : g_slots)
    if (s.state.load() == kFull) ::unlink(s.path);
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_.empty()) throw InputError("output", "the output file name is empty");
  std::error_code ec;
  const auto status = std::filesystem::status(path_, ec);
  if (std::filesystem::is_directory(status))
    throw InputError(path_, "cannot write the output file: it is a directory");
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) {
    // A device or a pipe (/dev/null, /dev/stdout, a FIFO): written in place, since renaming a
    // file over it would replace the device rather than write to it.
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd_ < 0) throw InputError(path_, "cannot write the output file: " + why(errno));
    return;
  }
  tmp_ = path_ + ".rnncc-tmp-" + std::to_string(::getpid()) + "-" +
         std::to_string(g_counter.fetch_add(1));
  // Listed before it exists, so a signal between open and listing cannot leave it behind.
  slot_ = claim_slot(tmp_);
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd_ < 0) {
    const int err = errno;
    release_slot(slot_);
    slot_ = -1;
    const auto dir = std::filesystem::path(path_).parent_path();
    if (err == ENOENT && !dir.empty() && !std::filesystem::exists(dir, ec))
      throw InputError(path_, "cannot write the output file: no directory " + dir.string());
    throw InputError(path_, "cannot write the output file: " + why(err));
  }
}

OutputFile::~OutputFile() {
  if (!committed_) discard();
}

void OutputFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
  release_slot(slot_);
  slot_ = -1;
}

void OutputFile::write(std::string_view bytes) {
  if (fd_ < 0) throw InputError(path_, "the output file is closed");
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      discard();
      throw InputError(path_, "writing the output file failed: " + why(err));
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

void OutputFile::commit() {
  if (fd_ < 0) throw InputError(path_, "the output file is closed");
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    const int err = errno;
    discard();
    throw InputError(path_, "writing the output file failed: " + why(err));
  }
  if (!tmp_.empty() && ::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    discard();
    throw InputError(path_, "cannot write the output file: " + why(err));
  }
  committed_ = true;
  release_slot(slot_);  // after the rename: a signal in between unlinks a name that is gone
  slot_ = -1;
}

void write_file_atomically(const std::string& path, std::string_view contents) {
  OutputFile out(path);
  out.write(contents);
  out.commit();
}

void install_output_cleanup_handlers() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    struct sigaction sa {};
    sa.sa_handler = remove_pending_outputs_and_die;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

}  // namespace rnncc
