#!/usr/bin/env bash
# Install a pinned Pi runtime (Node 22 + Pi 1.6.0) into <repo>/.cache/pi-runtime/.
#
# Pi >= 0.75 needs Node >= 22.19 and cannot be imported under the system Node 20,
# so the runtime brings its own Node 22 from the npm `node` package. It lives in
# its own prefix (never in the project's node_modules, where a `node` binary in
# node_modules/.bin would shadow the system Node in npm scripts).
#
# The runtime also holds better-sqlite3 (the version the project depends on) built
# for that Node 22: the project's own copy is built for the Node that ran
# `npm install`, and a native addon only loads in the Node ABI it was built for.
# It is built into a prefix of its own, .cache/pi-runtime/sqlite; the Pi extension
# tests run the extension from an installed copy of the package that uses it (see
# test/helpers/pi-env.ts).
#
# Usage:
#   scripts/pi-runtime.sh               install if missing or at the wrong versions
#   scripts/pi-runtime.sh --print-env   install if needed, then print PI_NODE=... and PI_CLI=...
#   scripts/pi-runtime.sh --check       exit 0 if installed at the pinned versions, 1 otherwise
#   scripts/pi-runtime.sh --force       reinstall
#
# Typical use:
#   eval "$(scripts/pi-runtime.sh --print-env)"
#   "$PI_NODE" test/fixtures/generate-sessions.mjs
#
# Environment: PI_RUNTIME_DIR overrides the install directory.
set -euo pipefail

NODE_VERSION="22.23.3"
PI_VERSION="1.6.0"
# Pi's own dependencies are pinned exactly by pi-coding-agent@1.6.0; the
# packages below are listed so that the generator can import them directly.
PACKAGES=(
  "node@${NODE_VERSION}"
  "@earendil-works/pi-coding-agent@${PI_VERSION}"
  "@earendil-works/pi-ai@${PI_VERSION}"
  "@earendil-works/pi-agent-core@${PI_VERSION}"
  "@earendil-works/pi-tui@${PI_VERSION}"
)

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runtime_dir="${PI_RUNTIME_DIR:-$repo_root/.cache/pi-runtime}"
nm="$runtime_dir/node_modules"
pi_node="$nm/.bin/node"
pi_cli="$nm/@earendil-works/pi-coding-agent/dist/bundle/cli.js"
# The version of better-sqlite3 in the project's package.json "dependencies".
SQLITE_VERSION="$(sed -n 's/^[[:space:]]*"better-sqlite3":[[:space:]]*"\([^"]*\)".*/\1/p' "$repo_root/package.json" | head -n 1)"

mode="install"
case "${1:-}" in
  "") ;;
  --print-env) mode="print-env" ;;
  --check) mode="check" ;;
  --force) mode="force" ;;
  -h|--help) sed -n '2,26p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "pi-runtime.sh: unknown argument: $1" >&2; exit 2 ;;
esac

# Print the "version" field of a package.json (empty if missing).
pkg_version() {
  [ -f "$1" ] || return 0
  sed -n 's/^[[:space:]]*"version":[[:space:]]*"\([^"]*\)".*/\1/p' "$1" | head -n 1
}

main_installed() {
  [ -x "$pi_node" ] || return 1
  [ -f "$pi_cli" ] || return 1
  [ "$(pkg_version "$nm/node/package.json")" = "$NODE_VERSION" ] || return 1
  local p
  for p in pi-coding-agent pi-ai pi-agent-core pi-tui; do
    [ "$(pkg_version "$nm/@earendil-works/$p/package.json")" = "$PI_VERSION" ] || return 1
  done
  # The node package installs the real binary through an install script; make sure it runs.
  [ "$("$pi_node" --version 2>/dev/null)" = "v$NODE_VERSION" ] || return 1
}

is_installed() {
  main_installed && sqlite_ok
}

# better-sqlite3 at the project's version, built for the runtime's Node, in a prefix of its own
# ($runtime_dir/sqlite): a second npm install in the main prefix would prune, as extraneous, the
# platform package (node-<os>-<arch>) that the `node` package's install script adds behind npm's
# back; so the main prefix is left alone once it is complete.
sqlite_nm="$runtime_dir/sqlite/node_modules"

sqlite_ok() {
  [ -z "$SQLITE_VERSION" ] && return 0
  [ "$(pkg_version "$sqlite_nm/better-sqlite3/package.json")" = "$SQLITE_VERSION" ] || return 1
  "$pi_node" -e 'new (require(process.argv[1]))(":memory:").close()' "$sqlite_nm/better-sqlite3" >/dev/null 2>&1
}

# Builds it with npm running under the runtime's Node, against that Node's headers (from the
# npm package node-<os>-<arch>, which the `node` package also uses), so that prebuild-install
# asks for the right ABI and node-gyp needs no header download.
install_sqlite() {
  [ -z "$SQLITE_VERSION" ] && return 0
  local real_node platform npm_cli header_dir
  real_node="$(readlink -f "$pi_node")"
  platform="$("$pi_node" -p '(process.platform === "win32" ? "win" : process.platform) + "-" + process.arch')"
  npm_cli="$(readlink -f "$(command -v npm)")"
  header_dir="$runtime_dir/headers/node_modules/node-$platform"
  mkdir -p "$runtime_dir/headers" "$runtime_dir/sqlite"
  for dir in headers sqlite; do
    [ -f "$runtime_dir/$dir/package.json" ] ||
      printf '{\n  "name": "recall-pi-runtime-%s",\n  "private": true\n}\n' "$dir" >"$runtime_dir/$dir/package.json"
  done
  if [ ! -f "$header_dir/include/node/node_version.h" ]; then
    npm install --prefix "$runtime_dir/headers" --save-exact --no-audit --no-fund --loglevel=error --ignore-scripts \
      "node-$platform@$NODE_VERSION" 1>&2
  fi
  echo "pi-runtime: building better-sqlite3@$SQLITE_VERSION for Node $NODE_VERSION (takes a minute or two)" >&2
  PATH="$(dirname "$real_node"):$PATH" npm_config_nodedir="$header_dir" npm_config_target="$NODE_VERSION" npm_config_runtime=node \
    "$pi_node" "$npm_cli" install --prefix "$runtime_dir/sqlite" --save-exact --no-audit --no-fund --loglevel=error \
    "better-sqlite3@$SQLITE_VERSION" 1>&2
  if ! sqlite_ok; then
    # A build kept from an earlier install, for another Node: build again from source.
    PATH="$(dirname "$real_node"):$PATH" npm_config_nodedir="$header_dir" npm_config_target="$NODE_VERSION" npm_config_runtime=node \
      "$pi_node" "$npm_cli" rebuild --prefix "$runtime_dir/sqlite" --build-from-source --loglevel=error better-sqlite3 1>&2
  fi
}

install_runtime() {
  mkdir -p "$runtime_dir"
  if [ ! -f "$runtime_dir/package.json" ]; then
    printf '{\n  "name": "recall-pi-runtime",\n  "private": true,\n  "description": "Pinned Pi runtime for fixture generation and integration tests (generated by scripts/pi-runtime.sh)"\n}\n' \
      >"$runtime_dir/package.json"
  fi
  if ! main_installed; then
    echo "pi-runtime: installing ${PACKAGES[*]} into $runtime_dir" >&2
    # stdout of npm goes to stderr so that --print-env output stays clean.
    npm install --prefix "$runtime_dir" --save-exact --no-audit --no-fund --loglevel=error \
      "${PACKAGES[@]}" 1>&2
  fi
  sqlite_ok || install_sqlite
  if ! is_installed; then
    echo "pi-runtime: install finished but the runtime is incomplete (node: $("$pi_node" --version 2>&1 || true))" >&2
    exit 1
  fi
}

case "$mode" in
  check)
    is_installed
    exit $?
    ;;
  force)
    rm -rf "$nm" "$sqlite_nm"
    install_runtime
    ;;
  *)
    is_installed || install_runtime
    ;;
esac

if [ "$mode" = "print-env" ]; then
  echo "PI_NODE=$pi_node"
  echo "PI_CLI=$pi_cli"
  echo "PI_RUNTIME_NODE_MODULES=$nm"
  echo "PI_RUNTIME_SQLITE=$sqlite_nm/better-sqlite3"
fi
