// Output files written atomically: every file a command writes is built in a temporary file
// beside its target and takes the target's name only after every byte was written and synced,
// so a failure, an exception, a signal — SIGKILL and power loss included — never leaves a
// half-written file, never leaves a temporary file for good, and never touches an existing
// target. docs/reliability.md ("Outputs") has the table: what each instant of a crash leaves.
//
// Where the target is. `path` is followed through its symbolic links to the name they end at
// (the destination; a dangling link's missing end is created, as the shell's `>` does), and the
// file is written beside the destination, so a link stays a link and the file it names is
// replaced. A destination that exists and is neither a regular file nor a directory (/dev/null,
// a FIFO, a terminal), and a link through /proc (/dev/stdout, /dev/fd/N), is written in place:
// there is nothing to rename (a regular file reached through /proc is appended to).
//
// The temporary file. Unnamed where the file system allows it: open(dir, O_TMPFILE) makes an
// inode without a name, which the kernel frees when the process dies however it dies. Commit
// links it: to the destination's name straight away when there is none (linkat never replaces),
// else to a fresh name "<dest>.rnncc-tmp-<pid>-<n>" that rename() then moves over the
// destination — a name that exists only for the microseconds between the two calls. Where
// O_TMPFILE is refused (EOPNOTSUPP, EISDIR, EINVAL: an older kernel or a file system without
// it; or no /proc to link through), the temporary file is that named file from the start.
// (The environment variable RNNCC_OUTPUT_NO_TMPFILE=1, or use_unnamed_temporaries(false),
// forces named files: tests of that path.) "<n>" counts per process; the name keeps at most
// 212 bytes of the destination's name so that it fits NAME_MAX.
//
// A named temporary file left by a process that died (SIGKILL, a crash, power loss, a full
// signal table) is removed by the next OutputFile for the same destination: when opening it,
// every "<dest>.rnncc-tmp-<pid>-<n>" (pid and n decimal) in the destination's directory is
// unlinked when (1) kill(pid, 0) says no such process and (2) no process holds the flock()
// that every writer takes on its temporary file from its creation to its end. (1) alone would
// take a reused pid for the writer; (2) alone would race the instant between a writer's
// create and its lock; locks also die with their process, so a writer in another pid
// namespace keeps its file. A file that cannot be opened for reading is left alone.
//
// Every byte is on disk when commit() returns: the file is fsynced before it is named, the
// directory after the rename. An existing destination keeps its permission bits (setuid,
// setgid and sticky included) and, where the process may set them (root; a group the user is
// in), its owner and group; a destination the user could not open for writing — a 0444 file,
// another user's 0644 file — is refused up front (exit 2), as `cp` and the shell's `>` refuse
// it, instead of being replaced behind the user's protection (rename needs only the
// directory's permission). Hard links to the destination, its ACLs and extended attributes are
// not carried over (the new file is a new inode).
//
// The OutputFile is created before the long work (an unwritable target is refused before the
// work, not after) and abandoned by its destructor unless committed. A named temporary file is
// listed in a fixed table (kMaxPendingOutputs entries: directory descriptor and name) that the
// handlers of install_output_cleanup_handlers() and remove_pending_outputs() read.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rnncc {

inline constexpr std::size_t kMaxPendingOutputs = 32;

// How an OutputFile writes: through an unnamed temporary file, a named one, or into the
// target itself (a device, a FIFO, /dev/stdout).
enum class OutputMethod { unnamed, named, in_place };

class OutputFile {
 public:
  // Finds the destination, removes stale temporary files beside it and creates the temporary
  // file. InputError(path, why) when it cannot: no such directory, permission denied, `path` is
  // a directory, the destination is read-only, too many levels of symbolic links, …
  explicit OutputFile(std::string path);
  ~OutputFile();  // abandons the temporary file unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Appends bytes to the temporary file; InputError(path, why) on a write error (disk full,
  // the file size limit of `ulimit -f`, a closed pipe), after abandoning the temporary file.
  void write(std::string_view bytes);
  // Syncs, names and renames the temporary file over the destination, then syncs the
  // directory. InputError on failure (the temporary file is removed, the target untouched).
  void commit();

  const std::string& path() const { return path_; }  // as given
  // `path` with its symbolic links followed: the file that is replaced.
  const std::string& destination() const { return dest_; }
  OutputMethod method() const { return method_; }
  // The named temporary file, "" when there is none (unnamed until commit; in place).
  const std::string& temporary_path() const { return tmp_; }

 private:
  void discard() noexcept;
  [[noreturn]] void fail(const std::string& what, int err);
  void create_temporary(bool existing);
  void link_unnamed();
  std::string path_, dest_, dir_, name_, tmp_, tmp_name_;
  int dir_fd_ = -1;
  bool dir_syncable_ = false;  // dir_fd_ was opened for reading (not O_PATH)
  int fd_ = -1;
  int slot_ = -1;  // index in the signal handlers' table, or −1
  OutputMethod method_ = OutputMethod::in_place;
  bool committed_ = false;
  bool keep_ = false;  // an existing destination: its mode and owner are kept
  unsigned keep_mode_ = 0, keep_uid_ = 0, keep_gid_ = 0;
};

// OutputFile(path), write(contents), commit().
void write_file_atomically(const std::string& path, std::string_view contents);

// Installs handlers that remove the pending named temporary files and then die by the signal
// (a signal the process inherited ignored stays ignored), for every signal whose default
// action ends the process without a crash: SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE (a reader
// that closed the pipe: the conventional silent death, status 141), SIGALRM, SIGUSR1, SIGUSR2,
// SIGXCPU, SIGVTALRM; and ignores SIGXFSZ, so that exceeding `ulimit -f` is a write error
// (exit 2 with a message) instead of a death. For executables (the CLI); a library embedding
// rnncc (Python) keeps its own handlers, and then only errors and exceptions clean up — and
// the next OutputFile of the same target.
void install_output_cleanup_handlers();

// Unlinks every pending named temporary file (async-signal-safe): what the handlers do before
// they re-raise, and what a last-resort exit (the CLI's terminate handler) does before it
// exits. (An unnamed temporary file needs nothing: it dies with the process.)
void remove_pending_outputs() noexcept;

// Removes the stale temporary files of `destination` by the rule above (its symbolic links are
// not followed here: pass OutputFile::destination()); returns how many it removed.
std::size_t remove_stale_temporary_outputs(const std::string& destination);

// For tests: false forces named temporary files (as RNNCC_OUTPUT_NO_TMPFILE=1 does).
void use_unnamed_temporaries(bool on);

}  // namespace rnncc
