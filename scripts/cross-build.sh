#!/usr/bin/env bash
# Cross-builds the native core for linux-arm64-gnu and linux-x64-musl with cargo-zigbuild (through
# napi-rs's `napi build --cross-compile`), then checks each binary: its ELF machine and C library
# (readelf), that it is a Node-API addon (it exports napi_register_module_v1), and, where
# qemu-aarch64-static is installed, runs the arm64 one (scripts/arm64-qemu-check.sh). Not part of CI: it
# builds the dependency tree twice more (tens of minutes on a loaded 2-core machine).
#
# Usage: scripts/cross-build.sh [linux-arm64-gnu] [linux-x64-musl]   (default: both)
# Needs: `pip install ziglang cargo-zigbuild` (rustup adds the Rust targets). Binaries land in
# native/target/cross/recall.<platform>.node.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$repo/native/target/cross"
# A target folder of its own: the cross builds neither wait for nor block the checkout's builds.
export CARGO_TARGET_DIR="$repo/native/target/cross-build"
mkdir -p "$out"
cd "$repo"
fail() { echo "cross-build: FAIL: $*" >&2; exit 1; }

command -v cargo-zigbuild >/dev/null || fail "cargo-zigbuild is not installed (pip install ziglang cargo-zigbuild)"
# pip's ziglang ships zig as a Python module; give napi-rs and cargo-zigbuild a zig on PATH.
if ! command -v zig >/dev/null; then
  mkdir -p "$out/bin"
  printf '#!/bin/sh\nexec python3 -m ziglang "$@"\n' >"$out/bin/zig"
  chmod +x "$out/bin/zig"
  export PATH="$out/bin:$PATH"
fi

# A Node addon is a shared library; musl's Rust target links its C library statically by
# default, which a shared library cannot (napi-rs builds musl addons this way too).
export CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_RUSTFLAGS="-C target-feature=-crt-static"

build() {
  local target="$1" platform="$2"
  rustup target list --installed | grep -qx "$target" || rustup target add "$target"
  echo "cross-build: $platform ($target)" >&2
  npx --no-install napi build --platform --release --cross-compile --target "$target" \
    --manifest-path native/Cargo.toml --output-dir "$out" --no-js >&2
}

check() {
  local platform="$1" machine="$2" libc="$3" file="$out/recall.$1.node" header
  [ -s "$file" ] || fail "$platform: no $file"
  header="$(readelf -h "$file")"
  grep -q "Machine:.*$machine" <<<"$header" || fail "$platform: not an $machine binary: $(grep Machine <<<"$header")"
  grep -q "Type:.*DYN" <<<"$header" || fail "$platform: not a shared library"
  readelf --dyn-syms --wide "$file" | grep -q " napi_register_module_v1$" || fail "$platform: does not export napi_register_module_v1"
  if [ -n "$libc" ]; then
    readelf -d "$file" | grep NEEDED | grep -qF "[$libc]" || fail "$platform: does not link $libc: $(readelf -d "$file" | grep NEEDED)"
  fi
  echo "cross-build: ok: $platform: $(file -b "$file" | cut -d, -f1-2); needs $(readelf -d "$file" | grep NEEDED | sed 's/.*\[\(.*\)\]/\1/' | tr '\n' ' ')" >&2
}

platforms=("$@")
[ ${#platforms[@]} -gt 0 ] || platforms=(linux-arm64-gnu linux-x64-musl)
for platform in "${platforms[@]}"; do
  case "$platform" in
    linux-arm64-gnu)
      build aarch64-unknown-linux-gnu linux-arm64-gnu
      check linux-arm64-gnu AArch64 libc.so.6
      if command -v qemu-aarch64-static >/dev/null && [ -d /usr/aarch64-linux-gnu ]; then
        "$repo/scripts/arm64-qemu-check.sh"
      else
        echo "cross-build: skipped running the arm64 binary (scripts/arm64-qemu-check.sh needs qemu-user-static and the arm64 cross libraries)" >&2
      fi ;;
    linux-x64-musl)
      build x86_64-unknown-linux-musl linux-x64-musl
      # musl's C library is libc.so; glibc's is libc.so.6.
      check linux-x64-musl "X86-64" libc.so ;;
    *) fail "no cross build for $platform (linux-arm64-gnu or linux-x64-musl)" ;;
  esac
done
