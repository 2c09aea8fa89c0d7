// Output files written atomically: every file a command writes goes to a temporary file beside
// its target and is renamed over the target only after every byte was written, so a failure, an
// exception or a signal never leaves a half-written file and never touches an existing target.
//
// The temporary file is "<target>.rnncc-tmp-<pid>-<counter>" (unique per process and file, so
// two commands writing one target, or one command writing two, do not collide). It is created
// when the OutputFile is (so a command can open its output before long work: an unwritable
// target is refused before the work, not after), removed by the destructor unless committed,
// and listed in a fixed table that the handlers of install_output_cleanup_handlers() read: on
// SIGINT, SIGTERM or SIGHUP they unlink every listed temporary file and re-raise the signal with
// its default action (the process still dies by the signal). The table holds up to
// kMaxPendingOutputs paths of up to 4095 bytes; a temporary file beyond that is still removed on
// errors, only not on signals. A target that exists and is neither a regular file nor a
// directory (/dev/null, /dev/stdout, a FIFO) is written in place: there is nothing to rename.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace rnncc {

inline constexpr std::size_t kMaxPendingOutputs = 32;

class OutputFile {
 public:
  // Creates the temporary file beside `path` (exclusively). InputError(path, why) when it
  // cannot: no such directory, permission denied, `path` is a directory, …
  explicit OutputFile(std::string path);
  ~OutputFile();  // removes the temporary file unless committed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Appends bytes to the temporary file; InputError(path, why) on a write error (disk full).
  void write(std::string_view bytes);
  // Flushes, closes and renames the temporary file over the target. InputError on failure
  // (the temporary file is removed, the target untouched).
  void commit();

  const std::string& path() const { return path_; }
  const std::string& temporary_path() const { return tmp_; }  // "" when written in place

 private:
  void discard() noexcept;
  std::string path_, tmp_;
  int fd_ = -1;
  int slot_ = -1;  // index in the signal handlers' table, or −1
  bool committed_ = false;
};

// OutputFile(path), write(contents), commit().
void write_file_atomically(const std::string& path, std::string_view contents);

// Installs SIGINT, SIGTERM and SIGHUP handlers that remove the pending temporary files and then
// die by the signal (a signal the process ignores stays ignored). For executables (the CLI);
// a library embedding rnncc (Python) keeps its own handlers, and then only errors and
// exceptions clean up.
void install_output_cleanup_handlers();

// Unlinks every pending temporary file (async-signal-safe): what the handlers do before they
// re-raise, and what a last-resort exit (the CLI's terminate handler) does before it exits.
void remove_pending_outputs() noexcept;

}  // namespace rnncc
