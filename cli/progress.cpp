#include "cli/progress.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <thread>

namespace rnncc::cli {

namespace {

bool quiet = false;

double now_seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// A number of seconds from the environment variable `name`, in [0, 3600], else `fallback`.
double seconds_from_env(const char* name, double fallback) {
  if (const char* e = std::getenv(name)) {
    char* end = nullptr;
    const double d = std::strtod(e, &end);
    if (end != e && *end == '\0' && d >= 0 && d <= 3600) return d;
  }
  return fallback;
}

// Seconds before the first draw: 1, or $RNNCC_PROGRESS_DELAY; seconds between redraws: 0.1, or
// $RNNCC_PROGRESS_INTERVAL. The tests set both to 0, so a run shorter than a redraw interval still
// shows its intermediate lines however fast the machine is.
double delay() {
  return seconds_from_env("RNNCC_PROGRESS_DELAY", 1.0);
}
double interval() {
  return seconds_from_env("RNNCC_PROGRESS_INTERVAL", 0.1);
}

// The line and a ticker redrawing it (elapsed time of tasks that report rarely).
class Terminal {
 public:
  Terminal()
      : line_(
            now_seconds,
            [](std::string_view s) {
              std::cerr << s;
              std::cerr.flush();
            },
            delay(), interval()),
        ticker_([this] {
          std::unique_lock lock(m_);
          while (!cv_.wait_for(lock, std::chrono::milliseconds(100), [this] { return stop_; }))
            line_.tick();
        }) {}
  ~Terminal() {
    {
      std::lock_guard lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    ticker_.join();
  }
  ProgressLine& line() { return line_; }

 private:
  ProgressLine line_;
  std::mutex m_;
  std::condition_variable cv_;
  bool stop_ = false;
  std::thread ticker_;
};

void add_quiet(CLI::App& app) {
  app.add_flag("-q,--quiet", quiet,
               "no progress line on stderr (there is none unless stderr is a terminal)");
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) add_quiet(*sub);
}

}  // namespace

void add_quiet_flag(CLI::App& app) {
  add_quiet(app);
}

Progress& progress() {
  if (quiet || !isatty(STDERR_FILENO)) return no_progress();
  static Terminal terminal;
  return terminal.line();
}

}  // namespace rnncc::cli
