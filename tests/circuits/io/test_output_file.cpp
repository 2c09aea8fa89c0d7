// Atomic output files (circuits/io/output_file.hpp): unnamed and named temporary files, what a
// process killed mid-write leaves and who removes it, the mode and the symbolic links of an
// existing target, a read-only target, write errors (the file size limit) and long names.
// Processes that die are forked children: the test process itself never gets a signal.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "circuits/io/output_file.hpp"
#include "tests/support.hpp"

namespace rnncc {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void put(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// A fresh directory that any user may write (the unprivileged children below write there).
fs::path fresh_dir(const std::string& name) {
  const auto dir =
      fs::temp_directory_path() / ("rnncc-output-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  ::chmod(dir.c_str(), 0777);
  return dir;
}

std::set<std::string> entries(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

unsigned mode_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

// Whether the file system under `dir` makes unnamed files (else OutputFile falls back).
bool has_tmpfile(const fs::path& dir) {
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY, 0600);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

// Runs `body` in a forked child and returns its wait status. The child ends with _exit, never
// returning into Catch: 0 when body returned true, 1 when false or it threw.
int in_child(const std::function<bool()>& body) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    bool ok = false;
    try {
      ok = body();
    } catch (...) {
    }
    ::_exit(ok ? 0 : 1);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return status;
}

// The diagnostic of OutputFile(path) for an unprivileged user (nobody, when the tests run as
// root), in a forked child: its what(), or "(no error)".
std::string refusal_for_user(const std::string& path) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const int status = in_child([&] {
    ::close(fds[0]);
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) return false;
    std::string what = "(no error)";
    try {
      OutputFile f(path);
    } catch (const InputError& e) {
      what = e.what();
    }
    return ::write(fds[1], what.data(), what.size()) == static_cast<ssize_t>(what.size());
  });
  ::close(fds[1]);
  std::string what;
  char buf[512];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;)
    what.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  return what;
}

// Both methods: unnamed where the file system has O_TMPFILE, and the named fallback.
struct Method {
  bool unnamed_wanted;
  const char* name;
};
const Method kMethods[] = {{true, "unnamed"}, {false, "named"}};

struct Use {
  explicit Use(bool unnamed) { use_unnamed_temporaries(unnamed); }
  ~Use() { use_unnamed_temporaries(true); }
};

// Runs body(dir, unnamed) once per method, each in a fresh directory removed afterwards;
// `unnamed`: the method in use is O_TMPFILE.
void for_each_method(const std::string& name,
                     const std::function<void(const fs::path&, bool)>& body) {
  for (const Method& m : kMethods) {
    INFO(m.name);
    const Use use(m.unnamed_wanted);
    const auto dir = fresh_dir(name + "-" + m.name);
    body(dir, m.unnamed_wanted && has_tmpfile(dir));
    fs::remove_all(dir);
  }
}

TEST_CASE("output files: unnamed where possible, named on request, nothing left either way") {
  for_each_method("methods", [](const fs::path& dir, bool unnamed) {
    const std::string target = (dir / "out.txt").string();
    {
      OutputFile a(target), b(target);
      CHECK(a.method() == (unnamed ? OutputMethod::unnamed : OutputMethod::named));
      CHECK(a.destination() == target);
      if (unnamed) {
        CHECK(a.temporary_path().empty());
        CHECK(entries(dir).empty());  // nothing has a name before the commit
      } else {
        CHECK(a.temporary_path() != b.temporary_path());
        CHECK(a.temporary_path().rfind(target + ".rnncc-tmp-" + std::to_string(::getpid()) + "-",
                                       0) == 0);
        CHECK(fs::exists(a.temporary_path()));
        CHECK(entries(dir).size() == 2);
      }
      a.write("hello ");
      a.write("world\n");
      CHECK_FALSE(fs::exists(target));
      a.commit();
      CHECK(read_all(target) == "hello world\n");
    }  // b is dropped without commit
    CHECK(entries(dir) == std::set<std::string>{"out.txt"});
    {  // over an existing target: a fresh name, then renamed over it
      OutputFile c(target);
      c.write("second\n");
      CHECK(read_all(target) == "hello world\n");
      c.commit();
    }
    CHECK(read_all(target) == "second\n");
    CHECK(entries(dir) == std::set<std::string>{"out.txt"});
  });
}

TEST_CASE("output files: a process killed mid-write leaves the old target, the next run cleans") {
  for_each_method("kill", [](const fs::path& dir, bool unnamed) {
    const std::string target = (dir / "out.txt").string();
    put(target, "old\n");
    const int status = in_child([&] {
      OutputFile f(target);
      f.write(std::string(1 << 20, 'x'));
      ::raise(SIGKILL);  // no destructor, no handler: as `kill -9` mid-write
      return true;
    });
    CHECK(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGKILL);
    CHECK(read_all(target) == "old\n");
    // Unnamed: the kernel freed the file with the process. Named: it stays until the next run.
    CHECK(entries(dir).size() == (unnamed ? 1u : 2u));
    {
      OutputFile next(target);                            // removes the dead process's file
      CHECK(entries(dir).size() == (unnamed ? 1u : 2u));  // 2: its own named file
      next.write("new\n");
      next.commit();
    }
    CHECK(entries(dir) == std::set<std::string>{"out.txt"});
    CHECK(read_all(target) == "new\n");
  });
}

TEST_CASE("output files: stale temporary files go only when their pid is dead and unlocked") {
  const auto dir = fresh_dir("stale");
  const std::string target = (dir / "out.json").string();
  const pid_t dead = [] {
    const pid_t pid = ::fork();
    if (pid == 0) ::_exit(0);
    ::waitpid(pid, nullptr, 0);
    return pid;
  }();
  REQUIRE(::kill(dead, 0) != 0);
  const std::string d = std::to_string(dead), live = std::to_string(::getppid());
  const std::vector<std::string> stale = {"out.json.rnncc-tmp-" + d + "-0",
                                          "out.json.rnncc-tmp-" + d + "-17"};
  const std::vector<std::string> kept = {
      "out.json.rnncc-tmp-" + live + "-0",  // a live process (pid reuse: kept, never wrong)
      "out.json.rnncc-tmp-" + d + "-3",     // dead pid, but locked (another pid namespace)
      "out.json.rnncc-tmp-" + d,            // not the pattern: no counter
      "out.json.rnncc-tmp-" + d + "-1x",    // not decimal
      "out.json.rnncc-tmp--0",              // no pid
      "out.json.rnncc-tmp-0-0",             // pid 0 is no process
      "other.json.rnncc-tmp-" + d + "-0",   // another target's
      "out.json"};
  for (const auto& name : stale) put(dir / name, "partial");
  for (const auto& name : kept) put(dir / name, "partial");
  const int held = ::open((dir / kept[1]).c_str(), O_RDONLY);
  REQUIRE(held >= 0);
  REQUIRE(::flock(held, LOCK_EX) == 0);
  CHECK(remove_stale_temporary_outputs(target) == stale.size());
  CHECK(entries(dir) == std::set<std::string>(kept.begin(), kept.end()));
  ::close(held);  // the lock goes: now it is stale too
  {
    const Use use(false);  // by the constructor, in either method
    OutputFile f(target);
    std::set<std::string> left(kept.begin(), kept.end());
    left.erase(kept[1]);
    left.insert(fs::path(f.temporary_path()).filename().string());
    CHECK(entries(dir) == left);
  }
  fs::remove_all(dir);
}

TEST_CASE("output files: remove_pending_outputs unlinks the named files of this process") {
  const Use use(false);
  const auto dir = fresh_dir("pending");
  const std::string target = (dir / "out.txt").string();
  {
    OutputFile a(target), b((dir / "other.txt").string());
    a.write("partial");
    CHECK(entries(dir).size() == 2);
    remove_pending_outputs();  // what the signal handlers and the terminate handler do
    CHECK(entries(dir).empty());
  }
  CHECK(entries(dir).empty());
  fs::remove_all(dir);
}

TEST_CASE("output files: an existing target keeps its mode, a new one gets 0666 less umask") {
  for_each_method("mode", [](const fs::path& dir, bool /*unnamed*/) {
    const fs::path target = dir / "out.txt";
    for (unsigned mode : {0600u, 0640u, 0755u, 0604u, 02755u, 04700u, 0200u}) {
      INFO("mode " << std::oct << mode);
      put(target, "old\n");
      REQUIRE(::chmod(target.c_str(), mode) == 0);
      write_file_atomically(target.string(), "new\n");
      CHECK(mode_of(target) == mode);
      REQUIRE(::chmod(target.c_str(), 0600) == 0);
      CHECK(read_all(target) == "new\n");
    }
    fs::remove(target);
    const mode_t old_mask = ::umask(027);
    write_file_atomically(target.string(), "fresh\n");
    ::umask(old_mask);
    CHECK(mode_of(target) == 0640);
    CHECK(entries(dir) == std::set<std::string>{"out.txt"});
  });
}

// A read-only target is refused before any work, as `cp` refuses it; root replaces it and keeps
// its mode, as `cp` does.
TEST_CASE("output files: a read-only target is refused for a user, kept read-only for root") {
  for_each_method("readonly", [](const fs::path& dir, bool /*unnamed*/) {
    const fs::path target = dir / "out.txt";
    put(target, "protected\n");
    const uid_t user = ::geteuid() == 0 ? 65534 : ::geteuid();
    REQUIRE(::chown(target.c_str(), user, static_cast<gid_t>(-1)) == 0);
    REQUIRE(::chmod(target.c_str(), 0444) == 0);
    CHECK(refusal_for_user(target.string()) ==
          target.string() +
              ": cannot write the output file: it is read-only (mode 0444); make it writable "
              "(chmod u+w) or remove it first");
    CHECK(read_all(target) == "protected\n");
    CHECK(entries(dir) == std::set<std::string>{"out.txt"});
    if (::geteuid() != 0) return;
    write_file_atomically(target.string(), "replaced by root\n");
    CHECK(read_all(target) == "replaced by root\n");
    CHECK(mode_of(target) == 0444);
    struct stat st {};
    REQUIRE(::stat(target.c_str(), &st) == 0);
    CHECK(st.st_uid == 65534);  // root may keep the owner
    // Another user's file that this user may not write.
    const fs::path theirs = dir / "theirs.txt";
    put(theirs, "root's\n");
    REQUIRE(::chmod(theirs.c_str(), 0644) == 0);
    CHECK(refusal_for_user(theirs.string()) ==
          theirs.string() +
              ": cannot write the output file: this user may not write it (mode 0644, owner uid "
              "0); remove it first or write elsewhere");
    CHECK(read_all(theirs) == "root's\n");
  });
}

TEST_CASE("output files: a directory the user cannot write is refused up front, naming it") {
  const auto dir = fresh_dir("nowrite");
  const fs::path sub = dir / "locked";
  fs::create_directories(sub);
  REQUIRE(::chmod(sub.c_str(), 0555) == 0);
  CHECK(refusal_for_user((sub / "out.txt").string()) ==
        (sub / "out.txt").string() + ": cannot write the output file: cannot create a file in " +
            sub.string() + ": Permission denied");
  CHECK(fs::is_empty(sub));
  fs::remove_all(dir);
}

TEST_CASE("output files: written through symbolic links, which stay links") {
  for_each_method("links", [](const fs::path& dir, bool /*unnamed*/) {
    fs::create_directories(dir / "real");
    fs::create_directories(dir / "links");
    put(dir / "real/data.json", "old\n");
    REQUIRE(::chmod((dir / "real/data.json").c_str(), 0600) == 0);
    // links/a -> ../real/data.json (relative, resolved against links/); links/b -> a (a chain)
    fs::create_symlink("../real/data.json", dir / "links/a");
    fs::create_symlink("a", dir / "links/b");
    {
      OutputFile f((dir / "links/b").string());
      CHECK(f.destination() == (dir / "links/../real/data.json").string());
      f.write("new\n");
      f.commit();
    }
    CHECK(fs::is_symlink(dir / "links/a"));
    CHECK(fs::is_symlink(dir / "links/b"));
    CHECK(fs::read_symlink(dir / "links/b") == "a");
    CHECK(read_all(dir / "real/data.json") == "new\n");
    CHECK(mode_of(dir / "real/data.json") == 0600);
    CHECK(entries(dir / "real") == std::set<std::string>{"data.json"});
    CHECK(entries(dir / "links") == std::set<std::string>{"a", "b"});
    // A dangling link: its end is created, as the shell's `>` creates it.
    fs::create_symlink(dir / "real/new.json", dir / "links/dangling");
    write_file_atomically((dir / "links/dangling").string(), "created\n");
    CHECK(fs::is_symlink(dir / "links/dangling"));
    CHECK(read_all(dir / "real/new.json") == "created\n");
    // A loop is refused.
    fs::create_symlink("loop2", dir / "links/loop1");
    fs::create_symlink("loop1", dir / "links/loop2");
    test::expect_input_error([&] { OutputFile f((dir / "links/loop1").string()); },
                             (dir / "links/loop1").string(),
                             "cannot write the output file: Too many levels of symbolic links");
  });
}

TEST_CASE("output files: devices and descriptors of this process are written in place") {
  {
    OutputFile f("/dev/null");
    CHECK(f.method() == OutputMethod::in_place);
    CHECK(f.temporary_path().empty());
    f.write("discarded\n");
    f.commit();
  }
  CHECK(fs::is_character_file("/dev/null"));
  // `-o /dev/stdout > out.txt`: a regular file reached through /proc is appended to.
  const auto dir = fresh_dir("proc");
  const int fd = ::open((dir / "out.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  REQUIRE(fd >= 0);
  REQUIRE(::write(fd, "first\n", 6) == 6);
  {
    OutputFile f("/dev/fd/" + std::to_string(fd));
    CHECK(f.method() == OutputMethod::in_place);
    f.write("then this\n");
    f.commit();
  }
  ::close(fd);
  CHECK(read_all(dir / "out.txt") == "first\nthen this\n");
  CHECK(entries(dir) == std::set<std::string>{"out.txt"});
  fs::remove_all(dir);
}

TEST_CASE("output files: a write beyond the file size limit is an error, nothing is left") {
  for_each_method("fsize", [](const fs::path& dir, bool /*unnamed*/) {
    const std::string target = (dir / "out.txt").string();
    put(target, "old\n");
    const int status = in_child([&] {
      std::signal(SIGXFSZ, SIG_IGN);  // as install_output_cleanup_handlers does
      const struct rlimit lim = {4096, RLIM_INFINITY};
      if (::setrlimit(RLIMIT_FSIZE, &lim) != 0) return false;
      OutputFile f(target);
      try {
        f.write(std::string(10000, 'x'));
      } catch (const InputError& e) {
        return std::string(e.what()) ==
               target +
                   ": writing the output file failed: File too large (this process may write "
                   "files of at most 4096 bytes: `ulimit -f`)";
      }
      return false;
    });
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(read_all(target) == "old\n");
    CHECK(entries(dir) == std::set<std::string>{"out.txt"});
  });
}

TEST_CASE("output files: a target name of 250 bytes still fits its temporary name") {
  for_each_method("long", [](const fs::path& dir, bool /*unnamed*/) {
    const std::string name(250, 'n');
    put(dir / name, "old\n");
    {
      OutputFile f((dir / name).string());
      if (f.method() == OutputMethod::named)
        CHECK(fs::path(f.temporary_path()).filename().string().size() <= 255);
      f.write("new\n");
      f.commit();
    }
    CHECK(read_all(dir / name) == "new\n");
    CHECK(entries(dir) == std::set<std::string>{name});
  });
}

}  // namespace
}  // namespace rnncc
