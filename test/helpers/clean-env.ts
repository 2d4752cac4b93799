/** Tests never see the developer's own color settings, Pi directories or recall overrides. */
for (const name of Object.keys(process.env)) {
  // RECALL_RELIABILITY_LONG is the tests' own switch (the long kill -9 campaign), not recall's.
  if (name === "RECALL_RELIABILITY_LONG") continue;
  if (name.startsWith("RECALL_") || name.startsWith("PI_CODING_AGENT") || ["NO_COLOR", "FORCE_COLOR", "TERM"].includes(name)) {
    delete process.env[name];
  }
}
