#include "algebra/sharded_run.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <new>
#include <sstream>
#include <stdexcept>

#include "algebra/error.hpp"

namespace rnncc {

std::uint64_t checkpoint_hash(std::string_view bytes) {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a, 64 bits
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

namespace {

constexpr std::string_view kMagic = "rnncc-checkpoint 1";

std::string hex16(std::uint64_t x) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

struct Entry {
  bool last = false;
  std::string payload;
};
using Entries = std::map<std::uint64_t, Entry>;

// "<block> <L|-> <length> <payload>" and its checksum: one entry line without the newline.
std::string entry_line(std::uint64_t block, const Entry& e) {
  std::string s = std::to_string(block) + (e.last ? " L " : " - ") +
                  std::to_string(e.payload.size()) + " " + e.payload;
  return s + " " + hex16(checkpoint_hash(s));
}

std::string header(const ShardedRunOptions& o) {
  std::string one_line = o.job;
  for (char& c : one_line)
    if (c == '\n' || c == '\r') c = ' ';
  return std::string(kMagic) + "\njob " + hex16(checkpoint_hash(o.job)) + " blocks " +
         std::to_string(o.blocks) + "\n# " + one_line + "\n";
}

[[noreturn]] void io_failure(const std::string& path, const std::string& what) {
  throw InputError(path, what + ": " + std::strerror(errno));
}

void write_all(int fd, std::string_view s, const std::string& path) {
  while (!s.empty()) {
    const ssize_t n = ::write(fd, s.data(), s.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      io_failure(path, "cannot write the checkpoint");
    }
    s.remove_prefix(static_cast<std::size_t>(n));
  }
}

void fsync_directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash ? slash : 1);
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    (void)::fsync(fd);
    ::close(fd);
  }
}

// The whole file as `text`, under a temporary name, fsynced, renamed over `path`.
void replace_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".rnncc-tmp-" + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) io_failure(path, "cannot create the checkpoint");
  try {
    write_all(fd, text, path);
    if (::fsync(fd) != 0) io_failure(path, "cannot sync the checkpoint");
  } catch (...) {
    ::close(fd);
    ::unlink(tmp.c_str());
    throw;
  }
  ::close(fd);
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    io_failure(path, "cannot rename the checkpoint into place");
  }
  fsync_directory_of(path);
}

bool parse_u64(std::string_view s, std::uint64_t& out) {
  if (s.empty() || s.size() > 19) return false;
  out = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    out = out * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return true;
}

// Reads the checkpoint at `path` for this job (rank 0). A missing file: no entries, and the file
// is created. A torn last line is dropped and the file rewritten without it.
Entries load_checkpoint(const std::string& path, const ShardedRunOptions& o) {
  if (::access(path.c_str(), F_OK) != 0) {
    if (errno != ENOENT) io_failure(path, "cannot read the checkpoint");
    replace_file(path, header(o));
    return {};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) io_failure(path, "cannot read the checkpoint");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  const std::string expected = header(o);
  std::size_t pos = 0, line_no = 0;
  auto next_line = [&](std::string_view& line) {
    const std::size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) {
      line = std::string_view(text).substr(pos);
      pos = text.size();
      return false;  // no newline: torn (or empty at the end)
    }
    line = std::string_view(text).substr(pos, nl - pos);
    pos = nl + 1;
    return true;
  };
  std::string_view line;
  ++line_no;
  if (!next_line(line) || line != kMagic)
    throw InputError(path + ":1", "not an rnncc checkpoint (expected \"" + std::string(kMagic) +
                                      "\" on its first line)");
  ++line_no;
  const bool job_line = next_line(line);
  std::string_view comment;
  const bool comment_line = next_line(comment);
  const std::string ours = expected.substr(kMagic.size() + 1);
  if (!job_line || !comment_line ||
      std::string(line) + "\n" + std::string(comment) + "\n" != ours) {
    const std::string theirs =
        comment.size() > 2 && comment.substr(0, 2) == "# " ? std::string(comment.substr(2)) : "?";
    throw InputError(path + ":2", "a checkpoint of another job (\"" + theirs +
                                      "\"; this run is \"" + o.job +
                                      "\"): remove the file or name another --checkpoint");
  }
  line_no = 3;
  Entries entries;
  std::size_t good_end = pos;
  bool torn = false;
  while (pos < text.size()) {
    ++line_no;
    const bool whole = next_line(line);
    auto damaged = [&](const std::string& why) {
      throw InputError(path + ":" + std::to_string(line_no), "damaged checkpoint entry: " + why);
    };
    // "<block> <L|-> <length> <payload> <checksum>"
    bool ok = line.size() > 17 && line[line.size() - 17] == ' ';
    std::uint64_t block = 0, length = 0;
    std::string_view body, payload;
    if (ok) {
      body = line.substr(0, line.size() - 17);
      ok = hex16(checkpoint_hash(body)) == line.substr(line.size() - 16);
    }
    if (ok) {
      const std::size_t a = body.find(' ');
      ok = a != std::string_view::npos && parse_u64(body.substr(0, a), block) &&
           body.size() > a + 3 && (body[a + 1] == 'L' || body[a + 1] == '-') && body[a + 2] == ' ';
      if (ok) {
        const std::size_t b = body.find(' ', a + 3);
        ok = b != std::string_view::npos && parse_u64(body.substr(a + 3, b - a - 3), length) &&
             body.size() - b - 1 == length;
        if (ok) payload = body.substr(b + 1);
      }
    }
    if (!whole) {  // the last line, cut by a kill: dropped whatever it holds
      torn = !line.empty();
      break;
    }
    if (!ok)
      damaged(
          "expected \"<block> <L|-> <bytes> <payload> <checksum>\" with a matching "
          "checksum");
    if (block >= o.blocks)
      damaged("block " + std::to_string(block) + " of a job of " + std::to_string(o.blocks));
    const Entry e{body[body.find(' ') + 1] == 'L', std::string(payload)};
    const auto [it, fresh] = entries.emplace(block, e);
    if (!fresh && (it->second.payload != e.payload || it->second.last != e.last))
      damaged("block " + std::to_string(block) + " recorded twice with different results");
    good_end = pos;
  }
  if (torn) replace_file(path, text.substr(0, good_end));
  return entries;
}

std::string serialize(const Entries& entries) {
  std::string s;
  for (const auto& [b, e] : entries) s += entry_line(b, e) + "\n";
  return s;
}

Entries deserialize(const std::string& s) {
  Entries entries;
  std::size_t pos = 0;
  while (pos < s.size()) {
    const std::size_t nl = s.find('\n', pos);
    const std::string_view line = std::string_view(s).substr(pos, nl - pos);
    pos = nl + 1;
    const std::string_view body = line.substr(0, line.size() - 17);
    const std::size_t a = body.find(' '), b = body.find(' ', a + 3);
    std::uint64_t block = 0;
    parse_u64(body.substr(0, a), block);
    entries[block] = {body[a + 1] == 'L', std::string(body.substr(b + 1))};
  }
  return entries;
}

// A block's outcome as gathered: "K" flag payload, "N" (no block), "E" kind where \n what.
std::string encode_error(char kind, const std::string& where, const std::string& what) {
  return std::string("E") + kind + where + "\n" + what;
}

[[noreturn]] void raise(const std::string& e, int rank) {
  const std::size_t nl = e.find('\n');
  const std::string where = e.substr(2, nl - 2), what = e.substr(nl + 1);
  switch (e[1]) {
    case 'i': {
      // InputError's message is "where: what"; rebuild it from its parts.
      const std::string prefix = where.empty() ? "" : where + ": ";
      throw InputError(where, what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what);
    }
    case 'd':
      throw DomainError(what);
    case 'm':
      throw std::bad_alloc();
    default:
      throw std::runtime_error("rank " + std::to_string(rank) + ": " + what);
  }
}

class Appender {
 public:
  Appender(const std::optional<std::string>& path, double interval)
      : path_(path.value_or("")), interval_(interval) {
    if (!path) return;
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd_ < 0) io_failure(path_, "cannot append to the checkpoint");
  }
  ~Appender() {
    if (fd_ >= 0) {
      sync();
      ::close(fd_);
    }
  }
  Appender(const Appender&) = delete;
  Appender& operator=(const Appender&) = delete;
  void add(std::uint64_t block, const Entry& e) {
    if (fd_ >= 0) pending_ += entry_line(block, e) + "\n";
  }
  void end_round() {
    if (fd_ < 0 || pending_.empty()) return;
    write_all(fd_, pending_, path_);
    pending_.clear();
    dirty_ = true;
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - synced_).count() >= interval_) sync();
  }
  void sync() {
    if (fd_ >= 0 && dirty_) {
      (void)::fsync(fd_);
      dirty_ = false;
      synced_ = std::chrono::steady_clock::now();
    }
  }

 private:
  std::string path_;
  double interval_;
  int fd_ = -1;
  std::string pending_;
  bool dirty_ = false;
  std::chrono::steady_clock::time_point synced_ = std::chrono::steady_clock::now();
};

}  // namespace

ShardedRunResult run_sharded(Ranks& ranks, const ShardedRunOptions& o,
                             const std::function<BlockResult(std::uint64_t)>& block) {
  const int R = ranks.size(), me = ranks.rank();
  ShardedRunResult result;
  result.ranks = R;

  // The checkpoint, read by rank 0 and sent to all (an error there is raised on every rank).
  Entries done;
  if (o.checkpoint) {
    std::string message;
    if (me == 0) {
      try {
        message = "K" + serialize(load_checkpoint(*o.checkpoint, o));
      } catch (const InputError& e) {
        message = encode_error('i', e.where(), e.what());
      }
    }
    message = ranks.broadcast(message);
    if (message[0] == 'E') raise(message, 0);
    done = deserialize(message.substr(1));
  }
  std::uint64_t limit = o.blocks;  // the first `last` block + 1
  for (const auto& [b, e] : done)
    if (e.last) limit = std::min(limit, b + 1);
  std::vector<std::uint64_t> todo;
  for (std::uint64_t b = 0; b < limit; ++b)
    if (!done.count(b)) todo.push_back(b);
  result.resumed = limit - todo.size();

  std::optional<Appender> out;
  if (me == 0 && o.checkpoint) out.emplace(o.checkpoint, o.fsync_interval_seconds);
  Progress& progress = me == 0 && o.progress ? *o.progress : no_progress();
  ProgressTask task(progress, o.progress_label, limit, "blocks");
  task.set(result.resumed);
  const std::uint64_t rounds = (todo.size() + static_cast<std::uint64_t>(R) - 1) / R;
  for (std::uint64_t k = 0; k < rounds; ++k) {
    const std::uint64_t mine = k * static_cast<std::uint64_t>(R) + static_cast<std::uint64_t>(me);
    std::string outcome = "N";
    if (mine < todo.size()) {
      try {
        BlockResult br = block(todo[mine]);
        if (br.payload.find('\n') != std::string::npos)
          throw std::logic_error("run_sharded: a block's payload holds a newline");
        outcome = std::string("K") + (br.last ? "L" : "-") + br.payload;
      } catch (const InputError& e) {
        outcome = encode_error('i', e.where(), e.what());
      } catch (const DomainError& e) {
        outcome = encode_error('d', "", e.what());
      } catch (const std::bad_alloc&) {
        outcome = encode_error('m', "", "out of memory");
      } catch (const std::exception& e) {
        outcome = encode_error('o', "", e.what());
      }
    }
    const std::vector<std::string> all = ranks.all_gather(outcome);
    const std::string* error = nullptr;
    int error_rank = 0;
    bool stop = false;
    for (int q = 0; q < R; ++q) {
      const std::string& s = all[static_cast<std::size_t>(q)];
      if (s[0] == 'E') {
        if (!error) error = &s, error_rank = q;
        continue;
      }
      if (s[0] != 'K') continue;
      const std::uint64_t b =
          todo[k * static_cast<std::uint64_t>(R) + static_cast<std::uint64_t>(q)];
      const Entry e{s[1] == 'L', s.substr(2)};
      if (out) out->add(b, e);
      done[b] = e;
      ++result.ran;
      if (e.last) {
        stop = true;
        limit = std::min(limit, b + 1);
      }
    }
    if (out) out->end_round();
    task.set(result.resumed + result.ran);
    if (error) {
      if (out) out->sync();
      raise(*error, error_rank);
    }
    if (stop) break;
  }
  if (out) out->sync();
  result.payloads.reserve(limit);
  for (std::uint64_t b = 0; b < limit; ++b) {
    const auto it = done.find(b);
    if (it == done.end())
      throw std::logic_error("run_sharded: block " + std::to_string(b) + " missing");
    result.payloads.push_back(std::move(it->second.payload));
  }
  return result;
}

}  // namespace rnncc
