// Progress of long work, shared by every layer (like errors): library code says what it does and
// how many units of how many are done; it never knows about terminals. The default reporter does
// nothing; the CLI passes a ProgressLine drawing on stderr when stderr is a terminal and --quiet is
// not given (docs/cli.md, "Progress").
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

namespace rnncc {

class Progress {
 public:
  virtual ~Progress() = default;
  // A task starts: `what` ("measuring depth"), `total` units of `unit` ("circuits"; total 0:
  // unknown). Tasks do not nest: a begin ends the task before it.
  virtual void begin(std::string_view what, std::uint64_t total, std::string_view unit) {
    (void)what, (void)total, (void)unit;
  }
  // `done` units of the current task are done (a count, not an increment). May be called from any
  // thread.
  virtual void update(std::uint64_t done) { (void)done; }
  // Changes the description of the current task, keeping its count ("n = 512").
  virtual void detail(std::string_view text) { (void)text; }
  virtual void end() {}
  // Erases the line, if one is drawn, before the caller prints to the terminal; the next update
  // draws it again.
  virtual void clear() {}
};

// The reporter that reports nothing: the default of every library entry point.
Progress& no_progress();

// begin … end as a scope; update by count or by increments.
class ProgressTask {
 public:
  ProgressTask(Progress& p, std::string_view what, std::uint64_t total, std::string_view unit)
      : p_(p) {
    p_.begin(what, total, unit);
  }
  ~ProgressTask() { p_.end(); }
  ProgressTask(const ProgressTask&) = delete;
  ProgressTask& operator=(const ProgressTask&) = delete;
  void set(std::uint64_t done) {
    done_ = done;
    p_.update(done_);
  }
  void add(std::uint64_t n = 1) { set(done_ + n); }
  void detail(std::string_view text) { p_.detail(text); }

 private:
  Progress& p_;
  std::uint64_t done_ = 0;
};

// "1.23k", "45.6", "3.40M": three significant digits with an SI suffix.
std::string format_count_rate(double per_second);
// "0 s", "42 s", "3 min 05 s", "2 h 07 min".
std::string format_duration(double seconds);

// The one-line renderer: "\r<what>: <done>/<total> <unit> (p%), <rate> <unit>/s, <eta> left\x1b[K"
// (unknown total: "<what>: <done> <unit>, <rate> <unit>/s, <elapsed>"). Nothing is drawn until
// `delay` seconds after begin (short runs stay silent); then a redraw at most every `interval`
// seconds; end (or a new begin) erases the line ("\r\x1b[K") if one was drawn. The clock
// (seconds) and the sink are given, so tests drive both. Thread-safe.
class ProgressLine final : public Progress {
 public:
  using Clock = std::function<double()>;
  using Sink = std::function<void(std::string_view)>;
  ProgressLine(Clock clock, Sink sink, double delay = 1.0, double interval = 0.1);
  ~ProgressLine() override;
  void begin(std::string_view what, std::uint64_t total, std::string_view unit) override;
  void update(std::uint64_t done) override;
  void detail(std::string_view text) override;
  void end() override;
  void clear() override;
  // Redraws if due (the elapsed time of a task that reports rarely); the CLI calls it from a
  // ticker thread.
  void tick();
  // The text of the line now, without "\r" and the erase sequence (for tests).
  std::string text() const;

 private:
  std::string text_locked(double now) const;
  void draw_locked(bool force);
  void erase_locked();

  Clock clock_;
  Sink sink_;
  double delay_, interval_;
  mutable std::mutex mutex_;
  bool active_ = false, drawn_ = false;
  std::string what_, unit_, detail_;
  std::uint64_t total_ = 0, done_ = 0;
  double start_ = 0, last_draw_ = 0;
};

}  // namespace rnncc
