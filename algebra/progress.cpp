#include "algebra/progress.hpp"

#include <cmath>
#include <cstdio>

namespace rnncc {

Progress& no_progress() {
  static Progress none;
  return none;
}

std::string format_count_rate(double r) {
  if (!(r >= 0) || std::isinf(r)) return "?";
  static const char* suffix[] = {"", "k", "M", "G", "T", "P"};
  std::size_t i = 0;
  while (r >= 999.5 && i + 1 < std::size(suffix)) {
    r /= 1000;
    ++i;
  }
  char buf[32];
  const int digits = r >= 99.95 ? 0 : r >= 9.995 ? 1 : 2;
  std::snprintf(buf, sizeof buf, "%.*f%s", digits, r, suffix[i]);
  return buf;
}

std::string format_duration(double s) {
  if (!(s >= 0) || std::isinf(s) || s > 1e9) return "?";
  const auto t = static_cast<std::uint64_t>(std::llround(s));
  char buf[48];
  if (t < 60)
    std::snprintf(buf, sizeof buf, "%llu s", static_cast<unsigned long long>(t));
  else if (t < 3600)
    std::snprintf(buf, sizeof buf, "%llu min %02llu s", static_cast<unsigned long long>(t / 60),
                  static_cast<unsigned long long>(t % 60));
  else
    std::snprintf(buf, sizeof buf, "%llu h %02llu min", static_cast<unsigned long long>(t / 3600),
                  static_cast<unsigned long long>(t % 3600 / 60));
  return buf;
}

ProgressLine::ProgressLine(Clock clock, Sink sink, double delay, double interval)
    : clock_(std::move(clock)), sink_(std::move(sink)), delay_(delay), interval_(interval) {}

ProgressLine::~ProgressLine() {
  std::lock_guard lock(mutex_);
  erase_locked();
}

void ProgressLine::begin(std::string_view what, std::uint64_t total, std::string_view unit) {
  std::lock_guard lock(mutex_);
  erase_locked();
  active_ = true;
  what_ = what;
  unit_ = unit;
  detail_.clear();
  total_ = total;
  done_ = 0;
  start_ = clock_();
  last_draw_ = start_;
}

void ProgressLine::update(std::uint64_t done) {
  std::lock_guard lock(mutex_);
  if (!active_) return;
  done_ = done;
  draw_locked(false);
}

void ProgressLine::detail(std::string_view text) {
  std::lock_guard lock(mutex_);
  if (!active_) return;
  detail_ = text;
  draw_locked(false);
}

void ProgressLine::end() {
  std::lock_guard lock(mutex_);
  erase_locked();
  active_ = false;
}

void ProgressLine::clear() {
  std::lock_guard lock(mutex_);
  erase_locked();
}

void ProgressLine::tick() {
  std::lock_guard lock(mutex_);
  if (active_) draw_locked(false);
}

std::string ProgressLine::text() const {
  std::lock_guard lock(mutex_);
  return text_locked(clock_());
}

std::string ProgressLine::text_locked(double now) const {
  const double elapsed = now - start_;
  std::string t = what_;
  if (!detail_.empty()) t += " (" + detail_ + ")";
  if (total_ == 0 && done_ == 0) return t + ": " + format_duration(elapsed) + " elapsed";
  t += ": " + std::to_string(done_);
  if (total_ != 0) t += "/" + std::to_string(total_);
  t += " " + unit_;
  if (total_ != 0)
    t += " (" +
         std::to_string(static_cast<unsigned>(100.0 * static_cast<double>(done_) /
                                              static_cast<double>(total_))) +
         "%)";
  const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0;
  if (done_ > 0 && elapsed > 0) t += ", " + format_count_rate(rate) + " " + unit_ + "/s";
  if (total_ != 0 && done_ > 0 && done_ < total_)
    t += ", " + format_duration(static_cast<double>(total_ - done_) / rate) + " left";
  else
    t += ", " + format_duration(elapsed) + " elapsed";
  return t;
}

void ProgressLine::draw_locked(bool force) {
  const double now = clock_();
  if (!force && (now - start_ < delay_ || (drawn_ && now - last_draw_ < interval_))) return;
  sink_("\r" + text_locked(now) + "\x1b[K");
  drawn_ = true;
  last_draw_ = now;
}

void ProgressLine::erase_locked() {
  if (drawn_) sink_("\r\x1b[K");
  drawn_ = false;
}

}  // namespace rnncc
