// UTF-8 validity of names read from files (symbols, labels, state names): a name that is not
// UTF-8 is refused where it is read, with its position, instead of aborting whatever later
// writes it as JSON (nlohmann::json::dump throws on invalid UTF-8).
#pragma once

#include <cstddef>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace rnncc {

// Byte offset of the first byte of `s` that does not belong to a well-formed UTF-8 sequence
// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF); nullopt when valid.
inline std::optional<std::size_t> first_invalid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto b = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
    if (b < 0x80) {
      ++i;
      continue;
    } else if (b >= 0xC2 && b <= 0xDF) {
      n = 1;
    } else if (b >= 0xE0 && b <= 0xEF) {
      n = 2;
      if (b == 0xE0) lo = 0xA0;
      if (b == 0xED) hi = 0x9F;
    } else if (b >= 0xF0 && b <= 0xF4) {
      n = 3;
      if (b == 0xF0) lo = 0x90;
      if (b == 0xF4) hi = 0x8F;
    } else {
      return i;
    }
    for (std::size_t k = 1; k <= n; ++k) {
      if (i + k >= s.size()) return i;
      const auto c = static_cast<unsigned char>(s[i + k]);
      if (c < (k == 1 ? lo : 0x80) || c > (k == 1 ? hi : 0xBF)) return i;
    }
    i += n + 1;
  }
  return std::nullopt;
}

// "byte 0xFF": how a diagnostic names a byte it cannot print.
inline std::string byte_name(char c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "byte 0x%02X",
                static_cast<unsigned>(static_cast<unsigned char>(c)));
  return buf;
}

}  // namespace rnncc
