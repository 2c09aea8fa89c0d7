// Where the file writers put their bytes: a buffer handed on in chunks of about `chunk` bytes to
// a consumer (an OutputFile's write, so that writing a circuit holds one chunk, not the whole
// file: peak memory O(gates), not O(file)), or, without a consumer, kept whole for take() (the
// writers' std::string forms, for tests and small outputs). Bytes are the same either way.
#pragma once

#include <charconv>
#include <concepts>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace rnncc {

class TextSink {
 public:
  using Consumer = std::function<void(std::string_view)>;
  static constexpr std::size_t kDefaultChunk = std::size_t{1} << 20;

  TextSink() = default;  // keeps everything: take()
  explicit TextSink(Consumer consumer, std::size_t chunk = kDefaultChunk)
      : consumer_(std::move(consumer)), chunk_(chunk) {
    buffer_.reserve(chunk_ + 64);
  }

  TextSink& operator<<(std::string_view s) {
    buffer_.append(s);
    return spill();
  }
  TextSink& operator<<(const char* s) { return *this << std::string_view(s); }
  TextSink& operator<<(const std::string& s) { return *this << std::string_view(s); }
  TextSink& operator<<(char c) {
    buffer_.push_back(c);
    return spill();
  }
  // Integers in decimal (what std::to_string writes).
  template <std::integral T>
  requires(!std::is_same_v<T, char> && !std::is_same_v<T, bool>) TextSink& operator<<(T v) {
    char digits[24];
    const auto r = std::to_chars(digits, digits + sizeof digits, v);
    buffer_.append(digits, r.ptr);
    return spill();
  }

  // Hands what is buffered to the consumer (nothing without one).
  void flush() {
    if (!consumer_ || buffer_.empty()) return;
    consumer_(buffer_);
    buffer_.clear();
  }
  // Everything written (the form without a consumer).
  std::string take() { return std::exchange(buffer_, {}); }

 private:
  TextSink& spill() {
    if (consumer_ && buffer_.size() >= chunk_) flush();
    return *this;
  }
  Consumer consumer_;
  std::size_t chunk_ = kDefaultChunk;
  std::string buffer_;
};

}  // namespace rnncc
