#!/usr/bin/env bash
# `cmake --install` works for a C++ user (issue 17, item 2), run by ctest in the Release tree:
#   check_install.sh BUILD_DIR SOURCE_DIR
# installs BUILD_DIR into a temporary prefix; checks the binary, headers, libraries,
# rnnccConfig.cmake and rnncc.pc are there; configures and builds tests/install/consumer with
# find_package(rnncc) against that prefix, and the same main.cpp with `pkg-config --cflags --libs
# rnncc`; both programs must print the size and depth the installed `rnncc compile` prints.
set -euo pipefail
build=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
for f in bin/rnncc include/rnncc/circuits/circuit.hpp include/rnncc/algebra/rational.hpp \
         lib/librnncc_circuits.a lib/cmake/rnncc/rnnccConfig.cmake lib/pkgconfig/rnncc.pc; do
  [ -e "$tmp/prefix/$f" ] || { echo "FAIL: not installed: $f"; exit 1; }
done
if find "$tmp/prefix/include" -name '*.cpp' | grep -q .; then echo "FAIL: sources installed"; exit 1; fi
model="$src/examples/parity_deltanet.json" n=8
# What the installed tool says: "size  47 gates (28 operations, 16 inputs, 3 constants), 2 outputs".
tool=$("$tmp/prefix/bin/rnncc" compile "$model" -n $n)
want_size=$(sed -n 's/^size *\([0-9]*\) gates (\([0-9]*\) operations, \([0-9]*\) inputs.*, \([0-9]*\) outputs*$/size \1 operations \2 inputs \3 outputs \4/p' <<<"$tool")
want_depth=$(sed -n 's/^depth *\([0-9]*\) (unbounded.*/depth \1/p' <<<"$tool")
want="$want_size $want_depth"
[ -n "$want_size" ] && [ -n "$want_depth" ] || { echo "FAIL: cannot read the tool's figures:"; echo "$tool"; exit 1; }
# 1. CMake: find_package(rnncc) → rnncc::rnncc.
cmake -S "$src/tests/install/consumer" -B "$tmp/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" >"$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/consumer" >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
got=$("$tmp/consumer/consumer" "$model" $n)
[ "$got" = "$want" ] || { echo "FAIL: find_package consumer printed '$got', rnncc compile '$want'"; exit 1; }
# 2. pkg-config.
PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" ${CXX:-c++} -O1 "$src/tests/install/consumer/main.cpp" \
  -o "$tmp/pc-consumer" $(PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" pkg-config --cflags --libs rnncc)
got=$("$tmp/pc-consumer" "$model" $n)
[ "$got" = "$want" ] || { echo "FAIL: pkg-config consumer printed '$got', rnncc compile '$want'"; exit 1; }
echo "installed tree OK: find_package(rnncc) and pkg-config consumers print '$want', as rnncc compile"
