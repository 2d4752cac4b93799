#!/usr/bin/env bash
# Install time and size of the packed package (BENCHMARKS.md, "Install"): `npm install -g` into a
# fresh prefix with a fresh npm cache, (a) with the prebuilt linux-x64-gnu core (no compile), and
# (b) from source (the main tarball alone: the install script compiles the core with cargo, its
# dependencies from cargo's local registry cache). Prints one line per measurement.
# Usage: bench/install-time.sh [--prebuilt-only]   (needs native/recall.node and dist/)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
platform="linux-x64-gnu"
work="$(mktemp -d "${TMPDIR:-/tmp}/recall-install-time-XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tarballs"
cp -R "$repo/npm/$platform" "$work/$platform"
cp "$repo/native/recall.node" "$work/$platform/recall.$platform.node"
platform_tgz="$work/tarballs/$(npm pack "$work/$platform" --pack-destination "$work/tarballs" --silent | tail -n 1)"
main_tgz="$work/tarballs/$(cd "$repo" && npm pack --ignore-scripts --pack-destination "$work/tarballs" --silent | tail -n 1)"
size() { echo "$(( $(stat -c %s "$1") / 1024 )) KB packed"; }
echo "main package: $(size "$main_tgz"); $platform package: $(size "$platform_tgz")"

rustup_home="${RUSTUP_HOME:-$HOME/.rustup}" cargo_home="${CARGO_HOME:-$HOME/.cargo}"
install() {
  local name="$1"; shift
  local started
  started=$(date +%s%N)
  # A fresh HOME, keeping the Rust toolchain rustup installed under the real one.
  HOME="$work/$name-home" RUSTUP_HOME="$rustup_home" CARGO_HOME="$cargo_home" npm_config_cache="$work/$name-cache" npm_config_prefix="$work/$name" npm_config_update_notifier=false \
    npm install -g --no-audit --no-fund --loglevel=error "$@" >/dev/null 2>"$work/$name.log" || { cat "$work/$name.log" >&2; exit 1; }
  echo "$name: $(( ($(date +%s%N) - started) / 1000000 )) ms; installed: $(du -sk "$work/$name/lib/node_modules" | cut -f1) KB"
}
install prebuilt "$main_tgz" "$platform_tgz"
[ "${1:-}" = "--prebuilt-only" ] || install source "$main_tgz"
