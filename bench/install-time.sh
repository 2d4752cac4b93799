#!/usr/bin/env bash
# Install time and size of the packed package (BENCHMARKS.md, "Install"): `npm install -g` into a
# fresh prefix with a fresh HOME and npm cache, (a) with the prebuilt linux-x64-gnu core (no
# compile), and (b) from source (the main tarball alone: its install script compiles the core with
# cargo, crates from cargo's local registry cache). Prints one line per measurement: wall time, CPU
# time (user + sys of npm and everything it ran, from /usr/bin/time) and the installed size. On a
# shared machine the CPU time is the comparable number.
# Usage: bench/install-time.sh [--prebuilt-only]   (needs native/recall.node and dist/)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
platform="linux-x64-gnu"
work="$(mktemp -d "${TMPDIR:-/tmp}/recall-install-time-XXXXXX")"
trap 'rm -rf "$work"' EXIT
tarballs="$("$repo/scripts/pack-release.sh" "$platform" "$repo/native/recall.node" "$work/tarballs")"
main_tgz="$(sed -n 1p <<<"$tarballs")" platform_tgz="$(sed -n 2p <<<"$tarballs")"
size() { echo "$(( $(stat -c %s "$1") / 1024 )) KB packed"; }
echo "main package: $(size "$main_tgz"); $platform package: $(size "$platform_tgz")"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

rustup_home="${RUSTUP_HOME:-$HOME/.rustup}" cargo_home="${CARGO_HOME:-$HOME/.cargo}"
install() {
  local name="$1"; shift
  # A fresh HOME, keeping the Rust toolchain rustup installed under the real one.
  HOME="$work/$name-home" RUSTUP_HOME="$rustup_home" CARGO_HOME="$cargo_home" npm_config_cache="$work/$name-cache" npm_config_prefix="$work/$name" npm_config_update_notifier=false \
    /usr/bin/time -f "%e %U %S" -o "$work/$name.time" npm install -g --no-audit --no-fund --loglevel=error "$@" >/dev/null 2>"$work/$name.log" || { cat "$work/$name.log" >&2; exit 1; }
  local wall user sys
  read -r wall user sys <"$work/$name.time"
  echo "$name: wall ${wall} s, CPU $(echo "$user + $sys" | bc) s (user $user, sys $sys); installed: $(du -sk "$work/$name/lib/node_modules" | cut -f1) KB; load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
}
install prebuilt "$main_tgz" "$platform_tgz"
[ "${1:-}" = "--prebuilt-only" ] || install source "$main_tgz"
