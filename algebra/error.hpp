// Error types shared by every layer of rnncc.
//
// docs/architecture.md, "The command boundary": bad user input is an InputError (the CLI prints it
// and exits 2); an arithmetic fact that makes a requested semantics undefined (a denominator
// divisible by p, a fixed-point overflow under the `error` policy) is a DomainError, also reported
// to the user with exit code 2; a broken internal invariant is any other exception (a bug).
#pragma once

#include <stdexcept>
#include <string>

namespace rnncc {

// Bad user input. `where` names the place: "file:line:column", "file: /json/path", or a flag.
class InputError : public std::runtime_error {
 public:
  InputError(std::string where, const std::string& what)
      : std::runtime_error(where.empty() ? what : where + ": " + what), where_(std::move(where)) {}
  const std::string& where() const { return where_; }

 private:
  std::string where_;
};

// The requested number domain cannot represent a value (see docs/semantics.md).
class DomainError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace rnncc
