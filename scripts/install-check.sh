#!/usr/bin/env bash
# Checks an installed recall-pi with one runtime, with no rebuild: `recall --version` (the native
# core's version), `recall search` (indexes the agent folder's sessions), `recall tag`, `recall tags`,
# a #tag search, and `recall-mcp` over stdio (scripts/install-test-mcp.mjs). HOME must hold a
# ~/.pi/agent with the fixture sessions (test/fixtures/agent). Used by scripts/install-test.sh and
# scripts/arm64-qemu-check.sh.
#
# Usage: scripts/install-check.sh <label> <installed recall-pi folder> <runtime> (a node binary, bun, or a wrapper)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
label="$1" pkg="$2" runtime="$3"
session="01a0f71f-0380-71ce-a5f6-9af2c7be0ad4"
version="$(node -p 'require(process.argv[1]).version' "$repo/package.json")"
fail() { echo "install-test: FAIL: $label: $*" >&2; exit 1; }

out="$("$runtime" "$pkg/bin/recall.cjs" --version)" || fail "recall --version failed"
[ "$out" = "recall $version (native core $version)" ] || fail "recall --version printed: $out"
out="$("$runtime" "$pkg/bin/recall.cjs" search forkonlyword)" || fail "recall search failed"
grep -q "$session" <<<"$out" || fail "recall search did not find the session: $out"
"$runtime" "$pkg/bin/recall.cjs" tag "$session" "from-$label" >/dev/null || fail "recall tag failed"
out="$("$runtime" "$pkg/bin/recall.cjs" tags)" || fail "recall tags failed"
grep -q "from-$label" <<<"$out" || fail "recall tags lacks #from-$label: $out"
out="$("$runtime" "$pkg/bin/recall.cjs" search "#from-$label")" || fail "recall search #from-$label failed"
grep -q "$session" <<<"$out" || fail "the tag search did not find the session"
node "$repo/scripts/install-test-mcp.mjs" "$label" forkonlyword "$runtime" "$pkg/bin/recall-mcp.cjs"
echo "install-test: ok: $label ($("$runtime" --version))" >&2
