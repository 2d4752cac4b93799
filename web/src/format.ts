/** How the page words times and numbers. */
export function age(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, (now - Date.parse(iso)) / 1000);
  if (seconds < 60) return "just now";
  const steps: Array<[number, string]> = [
    [60, "min"],
    [3600, "h"],
    [86400, "d"],
    [86400 * 30, "mo"],
    [86400 * 365, "y"],
  ];
  let label = "min";
  let unit = 60;
  for (const [size, name] of steps) if (seconds >= size) [unit, label] = [size, name];
  return `${Math.floor(seconds / unit)} ${label} ago`;
}

export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}
