#!/usr/bin/env bash
# The install a user gets, tested: `npm pack` of the main package and of this platform's prebuilt
# core (linux-x64-gnu), `npm install -g` of both into a fresh prefix, with a fresh HOME and npm
# cache and with cargo, rustc and the C compilers hidden from PATH; then `recall --version`,
# `recall search`, `recall tag` and `recall tags` on a temporary ~/.pi/agent, from the Node that
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

# The platform package as the release makes it: npm/<platform> with the built addon under
# napi-rs's name in it (the release's `napi artifacts` does the same with every platform's).
mkdir -p "$work/tarballs"
cp -R "$repo/npm/$platform" "$work/$platform"
cp "$repo/native/recall.node" "$work/$platform/recall.$platform.node"
platform_tgz="$(npm pack "$work/$platform" --pack-destination "$work/tarballs" --silent | tail -n 1)"
# The main package as the release publishes it: `napi pre-publish` adds the platform packages to
# its package.json as optional dependencies (those not on the registry npm skips, as it skips the
# platforms that do not fit).
checkout_tgz="$(cd "$repo" && npm pack --ignore-scripts --pack-destination "$work" --silent | tail -n 1)"
mkdir -p "$work/stage" && tar -xzf "$work/$checkout_tgz" -C "$work/stage"
node -e '
  const fs = require("fs"), file = process.argv[1], pkg = JSON.parse(fs.readFileSync(file, "utf8"));
  const names = { "aarch64-apple-darwin": "darwin-arm64", "x86_64-apple-darwin": "darwin-x64", "x86_64-unknown-linux-gnu": "linux-x64-gnu",
    "aarch64-unknown-linux-gnu": "linux-arm64-gnu", "x86_64-unknown-linux-musl": "linux-x64-musl", "x86_64-pc-windows-msvc": "win32-x64-msvc" };
  pkg.optionalDependencies = Object.fromEntries(pkg.napi.targets.map((t) => [`recall-pi-${names[t]}`, pkg.version]));
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");' "$work/stage/package/package.json"
main_tgz="$(npm pack "$work/stage/package" --ignore-scripts --pack-destination "$work/tarballs" --silent | tail -n 1)"
say "packed $main_tgz ($(du -k "$work/tarballs/$main_tgz" | cut -f1) KB) and $platform_tgz ($(du -k "$work/tarballs/$platform_tgz" | cut -f1) KB)"

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
npm install -g --no-audit --no-fund --loglevel=error "$work/tarballs/$main_tgz" "$work/tarballs/$platform_tgz" >&2 || fail "npm install -g failed"
say "installed in $(( ($(date +%s%N) - started) / 1000000 )) ms into a fresh prefix"
pkg="$work/prefix/lib/node_modules/recall-pi"
[ ! -e "$pkg/native/recall.node" ] || fail "the install built a native core instead of using the prebuilt one"

session="01a0f71f-0380-71ce-a5f6-9af2c7be0ad4"
# Runs one recall command with the runtime given first (a node binary, or `bun`).
check() {
  local runtime="$1" label="$2" out
  out="$("$runtime" "$pkg/bin/recall.cjs" --version)" || fail "$label: recall --version failed"
  [ "$out" = "recall 0.1.0 (native core 0.1.0)" ] || fail "$label: recall --version printed: $out"
  out="$("$runtime" "$pkg/bin/recall.cjs" search forkonlyword)" || fail "$label: recall search failed"
  grep -q "$session" <<<"$out" || fail "$label: recall search did not find the session: $out"
  "$runtime" "$pkg/bin/recall.cjs" tag "$session" "from-$label" >/dev/null || fail "$label: recall tag failed"
  out="$("$runtime" "$pkg/bin/recall.cjs" tags)" || fail "$label: recall tags failed"
  grep -q "from-$label" <<<"$out" || fail "$label: recall tags lacks #from-$label: $out"
  out="$("$runtime" "$pkg/bin/recall.cjs" search "#from-$label")" || fail "$label: recall search #from-$label failed"
  grep -q "$session" <<<"$out" || fail "$label: the tag search did not find the session"
  say "ok: $label ($("$runtime" --version))"
}

# Without the platform package and without cargo, the install stops with what is missing.
if npm install -g --prefix "$work/bare" --no-audit --no-fund --loglevel=error "$work/tarballs/$main_tgz" >"$work/bare.log" 2>&1; then
  fail "an install with neither a prebuilt core nor cargo succeeded"
fi
grep -q "recall-pi-$platform, is not installed.*cargo is not on PATH; install Rust from https://rustup.rs" "$work/bare.log" || fail "no clear message without a core and cargo: $(cat "$work/bare.log")"
say "ok: without the platform package and cargo, the install says what is missing"

"$work/prefix/bin/recall" search forkonlyword | grep -q "$session" || fail "the installed recall command did not find the session"
check node "node"
pi_node="$repo/.cache/pi-runtime/node_modules/.bin/node"
if [ -x "$pi_node" ]; then check "$pi_node" "node22"; else say "skipped Node 22: no .cache/pi-runtime (scripts/pi-runtime.sh installs it)"; fi

if [ -z "${RECALL_INSTALL_QUICK:-}" ]; then
  npm install --prefix "$work/runtimes" --no-audit --no-fund --loglevel=error node@24 bun >&2 || fail "cannot install node@24 and bun from npm"
  check "$work/runtimes/node_modules/.bin/node" "node24"
  check "$work/runtimes/node_modules/.bin/bun" "bun"
fi
say "all passed"
