// The progress reporter (algebra/progress.hpp) on a fake clock and sink: the text (count, percent,
// rate, time left), the delay before the first draw, throttling, erasure, and the no-op default.
#include <catch2/catch.hpp>

#include <string>
#include <thread>
#include <vector>

#include "algebra/progress.hpp"

using namespace rnncc;

namespace {

struct Fake {
  double now = 0;
  std::vector<std::string> writes;
  ProgressLine line{[this] { return now; }, [this](std::string_view s) { writes.emplace_back(s); },
                    1.0, 0.1};
};

}  // namespace

TEST_CASE("counts and durations are formatted for a glance", "[algebra][progress]") {
  CHECK(format_count_rate(0) == "0.00");
  CHECK(format_count_rate(5.634) == "5.63");
  CHECK(format_count_rate(45.66) == "45.7");
  CHECK(format_count_rate(999.4) == "999");
  CHECK(format_count_rate(999.6) == "1.00k");
  CHECK(format_count_rate(1234) == "1.23k");
  CHECK(format_count_rate(3.4e6) == "3.40M");
  CHECK(format_duration(0) == "0 s");
  CHECK(format_duration(42.4) == "42 s");
  CHECK(format_duration(185) == "3 min 05 s");
  CHECK(format_duration(7625) == "2 h 07 min");
  CHECK(format_duration(-1) == "?");
}

TEST_CASE("the line says done/total, percent, rate and time left", "[algebra][progress]") {
  Fake f;
  f.line.begin("random", 1000, "strings");
  f.now = 2;
  f.line.update(250);  // 125 strings/s; 750 left: 6 s
  REQUIRE(f.writes.size() == 1);
  CHECK(f.writes[0] == "\rrandom: 250/1000 strings (25%), 125 strings/s, 6 s left\x1b[K");
  f.line.detail("n = 40");
  f.now = 2.5;
  f.line.update(500);  // 200 strings/s, 2.5 s left → "2 s" (rounded to nearest: 3 s)
  CHECK(f.writes.back() ==
        "\rrandom (n = 40): 500/1000 strings (50%), 200 strings/s, 3 s left\x1b[K");
  f.line.end();
  CHECK(f.writes.back() == "\r\x1b[K");
}

TEST_CASE("an unknown total shows the count and the elapsed time", "[algebra][progress]") {
  Fake f;
  f.line.begin("compiling m.json", 0, "");
  f.now = 65;
  f.line.tick();
  CHECK(f.writes.back() == "\rcompiling m.json: 1 min 05 s elapsed\x1b[K");
  f.line.begin("steps", 0, "steps");  // a new task erases the old line first
  CHECK(f.writes.back() == "\r\x1b[K");
  f.now = 67;
  f.line.update(10);
  CHECK(f.writes.back() == "\rsteps: 10 steps, 5.00 steps/s, 2 s elapsed\x1b[K");
}

TEST_CASE("nothing is drawn before the delay, then at most every interval", "[algebra][progress]") {
  Fake f;
  f.line.begin("exhaustive", 100, "strings");
  for (int i = 1; i <= 9; ++i) {
    f.now = 0.1 * i;
    f.line.update(static_cast<std::uint64_t>(i));
  }
  CHECK(f.writes.empty());  // a run shorter than the delay stays silent
  f.line.end();
  CHECK(f.writes.empty());  // and erases nothing
  f.now = 0;
  f.line.begin("exhaustive", 100000, "strings");
  // 1000 updates a second for 3 seconds: from t = 1 s, one draw per 0.1 s
  for (int i = 1; i <= 3000; ++i) {
    f.now = 0.001 * i;
    f.line.update(static_cast<std::uint64_t>(i));
  }
  CHECK(f.writes.size() >= 20);
  CHECK(f.writes.size() <= 21);
  f.line.clear();  // before the caller prints
  CHECK(f.writes.back() == "\r\x1b[K");
  const std::size_t k = f.writes.size();
  f.line.clear();  // nothing drawn: nothing erased
  CHECK(f.writes.size() == k);
  f.now += 0.01;
  f.line.update(3001);  // drawn again at once after a clear, then throttled again
  f.now += 0.05;
  f.line.update(3002);
  CHECK(f.writes.size() == k + 1);
  f.line.end();
  CHECK(f.writes.back() == "\r\x1b[K");
  f.line.update(5);  // after end: nothing
  f.line.tick();
  CHECK(f.writes.back() == "\r\x1b[K");
}

TEST_CASE("the default reporter and ProgressTask", "[algebra][progress]") {
  {
    ProgressTask t(no_progress(), "x", 3, "u");  // reports nothing, does not fail
    t.add();
    t.set(3);
  }
  Fake f;
  {
    ProgressTask t(f.line, "work", 4, "items");
    t.add();  // before the delay: not drawn
    f.now = 2;
    t.add();
    CHECK(f.writes.back() == "\rwork: 2/4 items (50%), 1.00 items/s, 2 s left\x1b[K");
  }
  CHECK(f.writes.back() == "\r\x1b[K");  // the task's end erased the line
}

TEST_CASE("updates from several threads", "[algebra][progress]") {
  Fake f;
  f.now = 5;
  f.line.begin("parallel", 4000, "units");
  f.now = 10;
  std::vector<std::thread> ts;
  for (int k = 0; k < 4; ++k)
    ts.emplace_back([&, k] {
      for (int i = 0; i < 1000; ++i) f.line.update(static_cast<std::uint64_t>(k * 1000 + i));
    });
  for (auto& t : ts) t.join();
  f.line.end();
  CHECK(f.writes.size() == 2);  // one draw (the clock stands still), one erase
}
