#!/usr/bin/env bash
# The install a user gets, tested: `npm pack` of the main package and of this platform's prebuilt
# core (linux-x64-gnu), `npm install -g` of both into a fresh prefix, with a fresh HOME and npm
# cache and with cargo, rustc and the C compilers hidden from PATH; then `recall --version`,
# `recall search`, `recall tag` and `recall tags` on a temporary ~/.pi/agent, and `recall-mcp` over
# stdio (scripts/install-test-mcp.mjs: initialize, tools/list, a search), `recall serve`'s page,
# front end and a search (scripts/install-test-serve.mjs), from the Node that
# installed it, from Node 22 (.cache/pi-runtime, if installed), and, unless RECALL_INSTALL_QUICK
# is set, from Node 24 and Bun (their npm packages), with no rebuild for any of them.
#
# Usage: scripts/install-test.sh   (needs native/recall.node and dist/, as `npm install` leaves them)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
platform="linux-x64-gnu"
work="$(mktemp -d "${TMPDIR:-/tmp}/recall-install-XXXXXX")"
trap 'rm -rf "$work"' EXIT
say() { echo "install-test: $*" >&2; }
fail() { echo "install-test: FAIL: $*" >&2; exit 1; }

[ -f "$repo/native/recall.node" ] || fail "no native/recall.node to package; run \`npm install\` first"

tarballs="$("$repo/scripts/pack-release.sh" "$platform" "$repo/native/recall.node" "$work/tarballs")" || fail "cannot pack the packages"
main_tgz="$(sed -n 1p <<<"$tarballs")" platform_tgz="$(sed -n 2p <<<"$tarballs")"
say "packed $(basename "$main_tgz") ($(du -k "$main_tgz" | cut -f1) KB) and $(basename "$platform_tgz") ($(du -k "$platform_tgz" | cut -f1) KB)"

# A PATH with everything on it but the Rust and C toolchains.
mkdir -p "$work/bin"
for dir in $(dirname "$(command -v node)") /usr/local/bin /usr/bin /bin; do
  for tool in "$dir"/*; do
    name="$(basename "$tool")"
    case "$name" in
      cargo|rustc|rustup|cc|gcc|g++|c++|clang|clang++|*-gcc|*-g++|*-gcc-[0-9]*|*-g++-[0-9]*|gcc-[0-9]*|g++-[0-9]*) continue ;;
    esac
    [ -x "$tool" ] && [ ! -e "$work/bin/$name" ] && ln -s "$tool" "$work/bin/$name"
  done
done
export PATH="$work/bin"
for tool in cargo rustc cc gcc; do
  if command -v "$tool" >/dev/null 2>&1; then fail "$tool is still on PATH"; fi
done

export HOME="$work/home" npm_config_cache="$work/npm-cache" npm_config_prefix="$work/prefix" npm_config_update_notifier=false
mkdir -p "$HOME/.pi/agent"
cp -R "$repo/test/fixtures/agent/sessions" "$HOME/.pi/agent/sessions"

started=$(date +%s%N)
npm install -g --no-audit --no-fund --loglevel=error "$main_tgz" "$platform_tgz" >&2 || fail "npm install -g failed"
say "installed in $(( ($(date +%s%N) - started) / 1000000 )) ms into a fresh prefix"
pkg="$work/prefix/lib/node_modules/recall-pi"
[ ! -e "$pkg/native/recall.node" ] || fail "the install built a native core instead of using the prebuilt one"

check() { "$repo/scripts/install-check.sh" "$2" "$pkg" "$1"; }

# Without the platform package and without cargo, the install stops with what is missing.
if npm install -g --prefix "$work/bare" --no-audit --no-fund --loglevel=error "$main_tgz" >"$work/bare.log" 2>&1; then
  fail "an install with neither a prebuilt core nor cargo succeeded"
fi
grep -q "recall-pi-$platform, is not installed.*cargo is not on PATH; install Rust from https://rustup.rs" "$work/bare.log" || fail "no clear message without a core and cargo: $(cat "$work/bare.log")"
say "ok: without the platform package and cargo, the install says what is missing"

"$work/prefix/bin/recall" search forkonlyword | grep -q "01a0f71f-0380-71ce-a5f6-9af2c7be0ad4" || fail "the installed recall command did not find the session"
node "$repo/scripts/install-test-mcp.mjs" "installed command" forkonlyword "$work/prefix/bin/recall-mcp"
node "$repo/scripts/install-test-serve.mjs" "installed command" forkonlyword "01a0f71f-0380-71ce-a5f6-9af2c7be0ad4" "$work/prefix/bin/recall"
check node "node"
pi_node="$repo/.cache/pi-runtime/node_modules/.bin/node"
if [ -x "$pi_node" ]; then check "$pi_node" "node22"; else say "skipped Node 22: no .cache/pi-runtime (scripts/pi-runtime.sh installs it)"; fi

if [ -z "${RECALL_INSTALL_QUICK:-}" ]; then
  npm install --prefix "$work/runtimes" --no-audit --no-fund --loglevel=error node@24 bun >&2 || fail "cannot install node@24 and bun from npm"
  check "$work/runtimes/node_modules/.bin/node" "node24"
  check "$work/runtimes/node_modules/.bin/bun" "bun"
fi
say "all passed"
