/** How long ago, in the short form a result list needs: `5m ago`, `3d ago`, `2mo ago`. */
const UNITS: [string, number][] = [
  ["y", 365 * 24 * 3600e3],
  ["mo", 30 * 24 * 3600e3],
  ["w", 7 * 24 * 3600e3],
  ["d", 24 * 3600e3],
  ["h", 3600e3],
  ["m", 60e3],
];

export function formatAge(then: number, now: number): string {
  const elapsed = now - then;
  if (!Number.isFinite(elapsed)) return "unknown";
  if (elapsed < 60e3) return "just now";
  for (const [unit, size] of UNITS) {
    if (elapsed >= size) return `${Math.floor(elapsed / size)}${unit} ago`;
  }
  return "just now";
}
