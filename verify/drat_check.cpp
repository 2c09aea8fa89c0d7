#include "verify/drat_check.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <unordered_map>
#include <vector>

namespace rnncc::sat {

namespace {

class Checker {
 public:
  explicit Checker(int vars) { grow(vars); }

  // Adds a clause to the set (an original clause or a checked lemma).
  void add(std::vector<int> lits) {
    for (int l : lits) grow(std::abs(l));
    std::sort(lits.begin(), lits.end());
    lits.erase(std::unique(lits.begin(), lits.end()), lits.end());
    const auto id = static_cast<std::uint32_t>(clauses_.size());
    Clause c{static_cast<std::uint32_t>(arena_.size()), static_cast<std::uint32_t>(lits.size()),
             false};
    const std::uint64_t key = hash(lits);
    for (int l : lits) arena_.push_back(l);
    clauses_.push_back(c);
    by_hash_[key].push_back(id);
    for (std::size_t i = 0; i + 1 < lits.size(); ++i)
      if (lits[i] == -lits[i + 1]) return;  // a tautology: always satisfied, never watched
    if (inconsistent_) return;
    if (lits.empty()) {
      inconsistent_ = true;
      return;
    }
    int* l = &arena_[c.start];
    if (c.size == 1) {
      if (value(l[0]) < 0) inconsistent_ = true;
      if (value(l[0]) == 0) assign(l[0], id);
      if (!propagate()) inconsistent_ = true;
      return;
    }
    // Watch two literals that are not false if there are (the invariant at the top level).
    for (int k = 0; k < 2; ++k)
      for (std::uint32_t j = static_cast<std::uint32_t>(k); j < c.size; ++j)
        if (value(l[j]) >= 0) {
          std::swap(l[k], l[j]);
          break;
        }
    watches_[index(l[0])].push_back(id);
    watches_[index(l[1])].push_back(id);
    if (value(l[0]) < 0) {
      inconsistent_ = true;  // every literal false
    } else if (value(l[1]) < 0 && value(l[0]) == 0) {
      assign(l[0], id);
      if (!propagate()) inconsistent_ = true;
    }
  }

  // Deletes one copy of the clause; false when it is not there. Sets `ignored` when the clause
  // is the reason of a top-level assignment (then it stays).
  bool remove(std::vector<int> lits, bool& ignored) {
    std::sort(lits.begin(), lits.end());
    lits.erase(std::unique(lits.begin(), lits.end()), lits.end());
    const auto it = by_hash_.find(hash(lits));
    ignored = false;
    if (it == by_hash_.end()) return false;
    auto& ids = it->second;
    for (std::size_t k = 0; k < ids.size(); ++k) {
      Clause& c = clauses_[ids[k]];
      if (c.deleted || c.size != lits.size()) continue;
      std::vector<int> content(arena_.begin() + c.start, arena_.begin() + c.start + c.size);
      std::sort(content.begin(), content.end());
      if (content != lits) continue;
      for (int l : lits)
        if (value(l) > 0 && reason_[static_cast<std::size_t>(std::abs(l))] == ids[k]) {
          ignored = true;
          return true;
        }
      c.deleted = true;
      ids.erase(ids.begin() + static_cast<std::ptrdiff_t>(k));
      return true;
    }
    return false;
  }

  // RUP: the negation of the clause propagates to a conflict.
  bool rup(const std::vector<int>& lits) {
    if (inconsistent_) return true;
    const std::size_t mark = trail_.size();
    bool conflict = false;
    for (int l : lits) {
      grow(std::abs(l));
      if (value(l) > 0) {
        conflict = true;
        break;
      }
      if (value(l) == 0) assign(-l, kNoReason);
    }
    if (!conflict) conflict = !propagate();
    backtrack(mark);
    return conflict;
  }

  // RAT on lits[0]: every resolvent with a current clause containing ¬lits[0] is RUP.
  bool rat(const std::vector<int>& lits) {
    if (lits.empty()) return false;
    const int p = lits[0];
    for (std::uint32_t id = 0; id < clauses_.size(); ++id) {
      const Clause& c = clauses_[id];
      if (c.deleted) continue;
      const int* l = &arena_[c.start];
      if (std::find(l, l + c.size, -p) == l + c.size) continue;
      std::vector<int> resolvent = lits;
      for (std::uint32_t j = 0; j < c.size; ++j)
        if (l[j] != -p) resolvent.push_back(l[j]);
      std::sort(resolvent.begin(), resolvent.end());
      bool tautology = false;
      for (std::size_t j = 0; j + 1 < resolvent.size(); ++j)
        tautology = tautology || resolvent[j] == -resolvent[j + 1];
      if (!tautology && !rup(resolvent)) return false;
    }
    return true;
  }

  bool inconsistent() const { return inconsistent_; }

 private:
  static constexpr std::uint32_t kNoReason = 0xffffffffu;
  struct Clause {
    std::uint32_t start, size;
    bool deleted;
  };

  static std::uint64_t hash(const std::vector<int>& sorted) {
    std::uint64_t h = 1469598103934665603ull;
    for (int l : sorted) h = (h ^ static_cast<std::uint32_t>(l)) * 1099511628211ull;
    return h;
  }
  static std::size_t index(int lit) {
    return 2 * static_cast<std::size_t>(std::abs(lit)) + (lit < 0);
  }
  int value(int lit) const {
    const int v = value_[static_cast<std::size_t>(std::abs(lit))];
    return lit < 0 ? -v : v;
  }
  void grow(int var) {
    if (static_cast<std::size_t>(var) < value_.size()) return;
    value_.resize(static_cast<std::size_t>(var) + 1, 0);
    reason_.resize(static_cast<std::size_t>(var) + 1, kNoReason);
    watches_.resize(2 * (static_cast<std::size_t>(var) + 1));
  }
  void assign(int lit, std::uint32_t reason) {
    const auto v = static_cast<std::size_t>(std::abs(lit));
    value_[v] = lit > 0 ? 1 : -1;
    reason_[v] = reason;
    trail_.push_back(lit);
  }
  void backtrack(std::size_t mark) {
    while (trail_.size() > mark) {
      const auto v = static_cast<std::size_t>(std::abs(trail_.back()));
      value_[v] = 0;
      reason_[v] = kNoReason;
      trail_.pop_back();
    }
    head_ = std::min(head_, mark);
  }
  // Unit propagation from head_; false on a conflict.
  bool propagate() {
    while (head_ < trail_.size()) {
      const int falsified = -trail_[head_++];
      auto& ws = watches_[index(falsified)];
      std::size_t i = 0, j = 0;
      for (; i < ws.size(); ++i) {
        const std::uint32_t id = ws[i];
        const Clause& c = clauses_[id];
        if (c.deleted) continue;  // dropped from the list
        int* l = &arena_[c.start];
        if (l[0] == falsified) std::swap(l[0], l[1]);
        if (value(l[0]) > 0) {
          ws[j++] = id;
          continue;
        }
        bool moved = false;
        for (std::uint32_t k = 2; k < c.size; ++k)
          if (value(l[k]) >= 0) {
            std::swap(l[1], l[k]);
            watches_[index(l[1])].push_back(id);
            moved = true;
            break;
          }
        if (moved) continue;
        ws[j++] = id;
        if (value(l[0]) < 0) {
          for (++i; i < ws.size(); ++i) ws[j++] = ws[i];
          ws.resize(j);
          return false;
        }
        assign(l[0], id);
      }
      ws.resize(j);
    }
    return true;
  }

  std::vector<int> arena_;
  std::vector<Clause> clauses_;
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> by_hash_;
  std::vector<std::vector<std::uint32_t>> watches_;
  std::vector<int> value_;
  std::vector<std::uint32_t> reason_;
  std::vector<int> trail_;
  std::size_t head_ = 0;
  bool inconsistent_ = false;
};

}  // namespace

DratCheck check_drat(const Cnf& formula, std::string_view proof) {
  DratCheck r;
  Checker checker(formula.vars);
  for (const auto& c : formula.clauses) checker.add(c);
  std::size_t pos = 0, line_no = 0;
  std::vector<int> clause;
  bool derived_empty = false;
  while (pos < proof.size() && !derived_empty) {
    std::size_t end = proof.find('\n', pos);
    if (end == std::string_view::npos) end = proof.size();
    const std::string line(proof.substr(pos, end - pos));
    pos = end + 1;
    ++line_no;
    const char* p = line.c_str();
    while (*p == ' ' || *p == '\t' || *p == '\r') ++p;
    if (!*p || *p == 'c') continue;
    bool deletion = false;
    if (*p == 'd') {
      deletion = true;
      ++p;
    }
    clause.clear();
    bool closed = false;
    while (*p) {
      while (*p == ' ' || *p == '\t' || *p == '\r') ++p;
      if (!*p) break;
      char* after = nullptr;
      const long l = std::strtol(p, &after, 10);
      if (after == p || l > (1L << 30) || l < -(1L << 30)) {
        r.reason = "proof line " + std::to_string(line_no) + ": expected a literal";
        return r;
      }
      p = after;
      if (l == 0) {
        closed = true;
        break;
      }
      clause.push_back(static_cast<int>(l));
    }
    if (!closed) {
      r.reason = "proof line " + std::to_string(line_no) + ": the clause has no closing 0";
      return r;
    }
    if (deletion) {
      bool ignored = false;
      if (!checker.remove(clause, ignored)) {
        r.reason = "proof line " + std::to_string(line_no) + ": deletes a clause not present";
        return r;
      }
      ++r.deletions;
      r.ignored_deletions += ignored;
      continue;
    }
    ++r.lemmas;
    if (!checker.rup(clause)) {
      if (!checker.rat(clause)) {
        r.reason = "proof line " + std::to_string(line_no) + ": the lemma is neither RUP nor RAT";
        return r;
      }
      ++r.rat_lemmas;
    }
    derived_empty = clause.empty();
    checker.add(clause);
  }
  if (!derived_empty && !checker.inconsistent()) {
    r.reason = "the proof ends without deriving the empty clause";
    return r;
  }
  r.valid = true;
  return r;
}

}  // namespace rnncc::sat
