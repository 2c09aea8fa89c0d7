#include "circuits/io/output_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "algebra/error.hpp"

namespace rnncc {

namespace {

// The table the signal handlers read. A slot is free (0), being filled or emptied (1), or holds
// a pending named temporary file (2): the descriptor of its directory and its name. The handler
// unlinks only the files of full slots. Fixed storage and lock-free atomics: the handler
// neither allocates nor locks.
enum : int { kFree = 0, kBusy = 1, kFull = 2 };
constexpr std::size_t kNameBytes = NAME_MAX + 1;
struct Slot {
  std::atomic<int> state{kFree};
  int dir_fd = -1;
  char name[kNameBytes] = {};
};
Slot g_slots[kMaxPendingOutputs];
static_assert(std::atomic<int>::is_always_lock_free);

int claim_slot(int dir_fd, const std::string& name) {
  if (name.size() >= kNameBytes) return -1;
  for (std::size_t i = 0; i < kMaxPendingOutputs; ++i) {
    int expected = kFree;
    if (g_slots[i].state.compare_exchange_strong(expected, kBusy)) {
      g_slots[i].dir_fd = dir_fd;
      std::memcpy(g_slots[i].name, name.c_str(), name.size() + 1);
      g_slots[i].state.store(kFull);
      return static_cast<int>(i);
    }
  }
  return -1;
}

void release_slot(int slot) {
  if (slot < 0) return;
  g_slots[slot].state.store(kBusy);
  g_slots[slot].name[0] = '\0';
  g_slots[slot].dir_fd = -1;
  g_slots[slot].state.store(kFree);
}

// Async-signal-safe: atomics, unlinkat, sigaction, raise.
extern "C" void remove_pending_outputs_and_die(int sig) {
  const int saved = errno;
  remove_pending_outputs();
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  errno = saved;
  ::raise(sig);  // blocked while this handler runs: delivered, with the default action, on return
}

std::atomic<unsigned long> g_counter{0};
std::atomic<bool> g_unnamed{true};

std::string why(int err) {
  return std::strerror(err);
}

// Where a file name starts in a path, and the directory before it ("" for none, "/" for root).
std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return "";
  return slash == 0 ? "/" : path.substr(0, slash);
}
std::string name_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "<name>.rnncc-tmp-": the name keeps at most 212 bytes of the destination's, so that with
// ".rnncc-tmp-" (11), a pid (≤ 10 digits), '-' and a counter (≤ 20 digits) it fits NAME_MAX.
std::string temporary_prefix(const std::string& name) {
  return name.substr(0, std::min<std::size_t>(name.size(), NAME_MAX - 43)) + ".rnncc-tmp-";
}

std::string temporary_name(const std::string& prefix) {
  return prefix + std::to_string(::getpid()) + "-" + std::to_string(g_counter.fetch_add(1));
}

// Digits only, at most `max`; false for anything else.
bool parse_decimal(std::string_view s, std::uint64_t max, std::uint64_t& out) {
  if (s.empty() || s.size() > 20) return false;
  out = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    const std::uint64_t d = static_cast<std::uint64_t>(c - '0');
    if (out > (max - d) / 10) return false;
    out = out * 10 + d;
  }
  return true;
}

// The rule of output_file.hpp: the pid names no live process and nobody holds the file's lock.
std::size_t remove_stale(int dir_fd, const std::string& prefix) {
  const int list_fd = ::openat(dir_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (list_fd < 0) return 0;  // an unreadable directory: nothing can be told
  DIR* dir = ::fdopendir(list_fd);
  if (dir == nullptr) {
    ::close(list_fd);
    return 0;
  }
  std::size_t removed = 0;
  while (const dirent* e = ::readdir(dir)) {
    const std::string_view name = e->d_name;
    if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) continue;
    const std::string_view rest = name.substr(prefix.size());
    const auto dash = rest.find('-');
    std::uint64_t pid = 0, n = 0;
    if (dash == std::string_view::npos || !parse_decimal(rest.substr(0, dash), INT_MAX, pid) ||
        pid == 0 || !parse_decimal(rest.substr(dash + 1), UINT64_MAX, n))
      continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // alive (or EPERM)
    const std::string file(name);
    const int fd = ::openat(dir_fd, file.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat held {
    }, now{};
    if (::fstat(fd, &held) == 0 && S_ISREG(held.st_mode) && ::flock(fd, LOCK_EX | LOCK_NB) == 0 &&
        ::fstatat(dir_fd, file.c_str(), &now, AT_SYMLINK_NOFOLLOW) == 0 &&
        now.st_ino == held.st_ino && now.st_dev == held.st_dev &&
        ::unlinkat(dir_fd, file.c_str(), 0) == 0)
      ++removed;
    ::close(fd);
  }
  ::closedir(dir);
  return removed;
}

// Linking an O_TMPFILE inode needs /proc/self/fd (or CAP_DAC_READ_SEARCH for AT_EMPTY_PATH).
bool unnamed_possible() {
  static const bool proc = ::access("/proc/self/fd", X_OK) == 0;
  if (!proc || !g_unnamed.load()) return false;
  const char* env = std::getenv("RNNCC_OUTPUT_NO_TMPFILE");
  return env == nullptr || env[0] == '\0' || std::strcmp(env, "0") == 0;
}

// The file a chain of symbolic links ends at, and whether the chain passes through /proc (a
// descriptor of this process: /dev/stdout, /dev/fd/1), which is then written in place.
struct Resolved {
  std::string path;
  bool through_proc = false;
};

Resolved follow_links(const std::string& where, const std::string& start) {
  Resolved r{start, false};
  for (int hops = 0;; ++hops) {
    struct stat st {};
    if (::lstat(r.path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return r;
    if (hops == 40) throw InputError(where, "cannot write the output file: " + why(ELOOP));
    const std::string dir = directory_of(r.path);
    if (char* real = ::realpath(dir.empty() ? "." : dir.c_str(), nullptr)) {
      const bool proc = std::strncmp(real, "/proc/", 6) == 0;
      std::free(real);
      if (proc) {
        r.through_proc = true;
        return r;
      }
    }
    std::array<char, PATH_MAX> buf{};
    const ssize_t n = ::readlink(r.path.c_str(), buf.data(), buf.size() - 1);
    if (n < 0) throw InputError(where, "cannot write the output file: " + why(errno));
    const std::string target(buf.data(), static_cast<std::size_t>(n));
    if (target.rfind("/proc/", 0) == 0) {
      r.through_proc = true;
      return r;
    }
    r.path = target[0] == '/' || dir.empty() ? target : dir + "/" + target;
  }
}

}  // namespace

void remove_pending_outputs() noexcept {
  for (Slot& s : g_slots)
    if (s.state.load() == kFull) ::unlinkat(s.dir_fd, s.name, 0);
}

std::size_t remove_stale_temporary_outputs(const std::string& destination) {
  const std::string dir = directory_of(destination);
  const int dir_fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd < 0) return 0;
  const std::size_t removed = remove_stale(dir_fd, temporary_prefix(name_of(destination)));
  ::close(dir_fd);
  return removed;
}

void use_unnamed_temporaries(bool on) {
  g_unnamed.store(on);
}

OutputFile::OutputFile(std::string path) : path_(std::move(path)) {
  if (path_.empty()) throw InputError("output", "the output file name is empty");
  struct stat st {};
  bool existing = false;
  if (::stat(path_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode))
      throw InputError(path_, "cannot write the output file: it is a directory");
    existing = true;
  } else if (errno != ENOENT) {
    throw InputError(path_, "cannot write the output file: " + why(errno));
  }
  const Resolved r = follow_links(path_, path_);
  dest_ = r.path;
  if (r.through_proc || (existing && !S_ISREG(st.st_mode))) {
    // A device, a pipe, a descriptor of this process: written in place, since renaming a file
    // over it would replace the device rather than write to it. A regular file reached through
    // /proc (`-o /dev/stdout > out.txt`) is appended to, after what the shell's `>` or `>>` left.
    const int append = existing && S_ISREG(st.st_mode) ? O_APPEND : 0;
    fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC | append);
    if (fd_ < 0) throw InputError(path_, "cannot write the output file: " + why(errno));
    return;
  }
  dir_ = directory_of(dest_);
  name_ = name_of(dest_);
  const char* dir = dir_.empty() ? "." : dir_.c_str();
  dir_fd_ = ::open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  dir_syncable_ = dir_fd_ >= 0;
  if (dir_fd_ < 0 && errno == EACCES)  // write and search permission without read
    dir_fd_ = ::open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd_ < 0) {
    const int err = errno;
    if (err == ENOENT)
      throw InputError(path_, "cannot write the output file: no directory " + dir_);
    throw InputError(path_, "cannot write the output file: " + dir_ + ": " + why(err));
  }
  if (name_.empty() || name_ == "." || name_ == "..") {
    ::close(dir_fd_);
    throw InputError(path_, "cannot write the output file: it is a directory");
  }
  if (existing && ::faccessat(AT_FDCWD, dest_.c_str(), W_OK, AT_EACCESS) != 0) {
    // Refused where opening it for writing would be (`cp`, `>`): for root, a read-only file is
    // replaced (keeping its mode), as `cp` replaces it.
    const int err = errno;
    ::close(dir_fd_);
    if (err == EACCES) {
      char mode[8];
      std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
      if (st.st_uid == ::geteuid())
        throw InputError(
            path_, std::string("cannot write the output file: it is read-only (mode ") + mode +
                       "); make it writable (chmod u+w) or remove it first");
      throw InputError(path_, std::string("cannot write the output file: this user may not write "
                                          "it (mode ") +
                                  mode + ", owner uid " + std::to_string(st.st_uid) +
                                  "); remove it first or write elsewhere");
    }
    throw InputError(path_, "cannot write the output file: " + why(err));
  }
  if (existing) {
    keep_ = true;
    keep_mode_ = st.st_mode & 07777;
    keep_uid_ = st.st_uid;
    keep_gid_ = st.st_gid;
  }
  remove_stale(dir_fd_, temporary_prefix(name_));
  create_temporary(existing);
}

void OutputFile::create_temporary(bool existing) {
  // A secret target (0600) must not be readable while being written: an existing target's
  // replacement starts private and takes the target's mode at commit (after the last write,
  // which would clear setuid and setgid bits).
  const mode_t mode = existing ? 0600 : 0666;
  if (unnamed_possible()) {
    fd_ = ::openat(dir_fd_, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
    if (fd_ >= 0) {
      method_ = OutputMethod::unnamed;
    } else if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) {
      const int err = errno;
      ::close(dir_fd_);
      dir_fd_ = -1;
      throw InputError(path_, "cannot write the output file: cannot create a file in " +
                                  (dir_.empty() ? std::string(".") : dir_) + ": " + why(err));
    }
  }
  if (fd_ < 0) {
    const std::string prefix = temporary_prefix(name_);
    int err = EEXIST;
    for (int attempt = 0; attempt < 100 && fd_ < 0 && err == EEXIST; ++attempt) {
      tmp_name_ = temporary_name(prefix);
      // Listed before it exists, so a signal between open and listing cannot leave it behind.
      slot_ = claim_slot(dir_fd_, tmp_name_);
      fd_ = ::openat(dir_fd_, tmp_name_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
      if (fd_ < 0) {
        err = errno;  // EEXIST: a name left by a dead process whose pid this one reuses
        release_slot(slot_);
        slot_ = -1;
      }
    }
    if (fd_ < 0) {
      ::close(dir_fd_);
      dir_fd_ = -1;
      throw InputError(path_, "cannot write the output file: cannot create a file in " +
                                  (dir_.empty() ? std::string(".") : dir_) + ": " + why(err));
    }
    method_ = OutputMethod::named;
    tmp_ = dir_.empty() ? tmp_name_ : dir_ == "/" ? "/" + tmp_name_ : dir_ + "/" + tmp_name_;
  }
  ::flock(fd_, LOCK_EX | LOCK_NB);  // held to the end: the file is not stale (never fails here)
}

OutputFile::~OutputFile() {
  if (!committed_) discard();
}

void OutputFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);  // an unnamed temporary file is freed here
  fd_ = -1;
  if (!tmp_name_.empty()) ::unlinkat(dir_fd_, tmp_name_.c_str(), 0);
  tmp_name_.clear();
  release_slot(slot_);
  slot_ = -1;
  if (dir_fd_ >= 0) ::close(dir_fd_);
  dir_fd_ = -1;
}

void OutputFile::fail(const std::string& what, int err) {
  discard();
  std::string text = what + why(err);
  if (err == EFBIG) {
    struct rlimit lim {};
    if (::getrlimit(RLIMIT_FSIZE, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY)
      text += " (this process may write files of at most " + std::to_string(lim.rlim_cur) +
              " bytes: `ulimit -f`)";
  }
  throw InputError(path_, text);
}

void OutputFile::write(std::string_view bytes) {
  if (fd_ < 0) throw InputError(path_, "the output file is closed");
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("writing the output file failed: ", n < 0 ? errno : EIO);
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

// The unnamed file gets a name: the destination's when it has none (linkat refuses to replace,
// so nothing is lost if one appeared meanwhile), else a fresh temporary name to rename from.
void OutputFile::link_unnamed() {
  char proc[64];
  std::snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd_);
  const auto link_to = [&](const std::string& name) {
    if (::linkat(AT_FDCWD, proc, dir_fd_, name.c_str(), AT_SYMLINK_FOLLOW) == 0) return 0;
    const int err = errno;
    if (err != ENOENT) return err;
    return ::linkat(fd_, "", dir_fd_, name.c_str(), AT_EMPTY_PATH) == 0 ? 0 : errno;
  };
  int err = link_to(name_);
  if (err == 0) {
    tmp_name_.clear();  // already in place: nothing to rename
    return;
  }
  for (int attempt = 0; attempt < 100 && err != 0; ++attempt) {
    if (err != EEXIST) fail("cannot write the output file: ", err);
    tmp_name_ = temporary_name(temporary_prefix(name_));
    slot_ = claim_slot(dir_fd_, tmp_name_);  // before the link: a signal after it removes it
    err = link_to(tmp_name_);
    if (err != 0) {
      release_slot(slot_);
      slot_ = -1;
      tmp_name_.clear();
    }
  }
  if (err != 0) fail("cannot write the output file: ", err);
}

void OutputFile::commit() {
  if (fd_ < 0) throw InputError(path_, "the output file is closed");
  if (method_ == OutputMethod::in_place) {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("writing the output file failed: ", errno);
    committed_ = true;
    return;
  }
  // The destination's mode and owner as they are now, else as they were when opened.
  struct stat now {};
  if (::fstatat(dir_fd_, name_.c_str(), &now, 0) == 0 && S_ISREG(now.st_mode)) {
    keep_ = true;
    keep_mode_ = now.st_mode & 07777;
    keep_uid_ = now.st_uid;
    keep_gid_ = now.st_gid;
  }
  if (keep_) {
    // The owner first (where permitted: changing it clears setuid bits), then the mode.
    struct stat mine {};
    if (::fstat(fd_, &mine) == 0 && (mine.st_uid != keep_uid_ || mine.st_gid != keep_gid_) &&
        ::fchown(fd_, keep_uid_, keep_gid_) != 0)
      (void)!::fchown(fd_, static_cast<uid_t>(-1), keep_gid_);
    (void)::fchmod(fd_, keep_mode_);  // best effort: a file system without modes
  }
  if (::fsync(fd_) != 0 && errno != EINVAL) fail("writing the output file failed: ", errno);
  if (method_ == OutputMethod::unnamed) link_unnamed();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) fail("writing the output file failed: ", errno);
  if (!tmp_name_.empty() && ::renameat(dir_fd_, tmp_name_.c_str(), dir_fd_, name_.c_str()) != 0)
    fail("cannot write the output file: ", errno);
  committed_ = true;
  tmp_name_.clear();
  release_slot(slot_);  // after the rename: a signal in between unlinks a name that is gone
  slot_ = -1;
  const int sync = dir_syncable_ && ::fsync(dir_fd_) != 0 && errno != EINVAL ? errno : 0;
  ::close(dir_fd_);
  dir_fd_ = -1;
  if (sync != 0)
    throw InputError(path_,
                     "the output file was written, but syncing its directory failed: " + why(sync));
}

void write_file_atomically(const std::string& path, std::string_view contents) {
  OutputFile out(path);
  out.write(contents);
  out.commit();
}

void install_output_cleanup_handlers() {
  for (int sig :
       {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    struct sigaction sa {};
    sa.sa_handler = remove_pending_outputs_and_die;
    sigfillset(&sa.sa_mask);  // one handler at a time: the table is read by one of them
    ::sigaction(sig, &sa, nullptr);
  }
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGXFSZ, &ignore, nullptr);  // a write beyond `ulimit -f` fails with EFBIG instead
}

}  // namespace rnncc
