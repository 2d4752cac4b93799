/** Tests never see the developer's own color settings, Pi directories or recall overrides. */
for (const name of Object.keys(process.env)) {
  // The tests' own settings, not recall's: RECALL_RELIABILITY_LONG (the long kill -9 campaign),
  // RECALL_MODEL_PACKAGE_DIR (where scripts/model-package.sh assembled the model package),
  // RECALL_REQUIRE_MODEL (that package must be there: test/helpers/model-package.ts).
  if (
    ["RECALL_RELIABILITY_LONG", "RECALL_MODEL_PACKAGE_DIR", "RECALL_REQUIRE_MODEL"].includes(name)
  )
    continue;
  if (
    name.startsWith("RECALL_") ||
    name.startsWith("PI_CODING_AGENT") ||
    ["NO_COLOR", "FORCE_COLOR", "TERM"].includes(name)
  ) {
    delete process.env[name];
  }
}
