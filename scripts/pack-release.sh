#!/usr/bin/env bash
# Packs recall-pi as the release publishes it, into <out-dir>: the platform package npm/<platform>
# with the given addon in it under napi-rs's name (as the release's `napi artifacts` puts each
# platform's), and the main package with every platform package as an optional dependency (as
# `napi pre-publish` adds them; npm skips those that are not on the registry, as it skips those
# that do not fit). Prints the paths of the two tarballs, the main one first.
#
# Usage: scripts/pack-release.sh <platform> <addon.node> <out-dir>   (needs dist/, as `npm install` leaves it)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
platform="$1" addon="$2" out="$3"
[ -s "$addon" ] || { echo "pack-release: no addon at $addon" >&2; exit 1; }
stage="$(mktemp -d "${TMPDIR:-/tmp}/recall-pack-XXXXXX")"
trap 'rm -rf "$stage"' EXIT
mkdir -p "$out"

cp -R "$repo/npm/$platform" "$stage/$platform"
cp "$addon" "$stage/$platform/recall.$platform.node"
platform_tgz="$(npm pack "$stage/$platform" --pack-destination "$out" --silent | tail -n 1)"

checkout_tgz="$(cd "$repo" && npm pack --ignore-scripts --pack-destination "$stage" --silent | tail -n 1)"
tar -xzf "$stage/$checkout_tgz" -C "$stage"
node -e '
  const fs = require("fs"), file = process.argv[1], pkg = JSON.parse(fs.readFileSync(file, "utf8"));
  const names = { "aarch64-apple-darwin": "darwin-arm64", "x86_64-apple-darwin": "darwin-x64", "x86_64-unknown-linux-gnu": "linux-x64-gnu",
    "aarch64-unknown-linux-gnu": "linux-arm64-gnu", "x86_64-unknown-linux-musl": "linux-x64-musl" };
  pkg.optionalDependencies = Object.fromEntries(pkg.napi.targets.map((t) => [`recall-pi-${names[t]}`, pkg.version]));
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");' "$stage/package/package.json"
main_tgz="$(npm pack "$stage/package" --ignore-scripts --pack-destination "$out" --silent | tail -n 1)"
echo "$out/$main_tgz"
echo "$out/$platform_tgz"
