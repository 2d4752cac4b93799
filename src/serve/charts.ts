/**
 * The activity page's pictures, drawn here as SVG: bars per day (messages, tokens, cost) with
 * every day of the window shown, and horizontal bars per project and per model. Labels are
 * escaped; colors come from the page's stylesheet through classes (the page's policy allows no
 * style attribute), so the pictures follow its light or dark scheme.
 */
import type { Stats } from "../index.js";
import type { ChartAnswer } from "./wire.js";

const WIDTH = 720;
const DAY_HEIGHT = 180;
const ROW_HEIGHT = 22;
const MAX_ROWS = 12;
const DAY_MS = 86_400_000;

export function activityCharts(stats: Stats): ChartAnswer[] {
  const { unit, buckets } = timeBuckets(stats.days);
  const over = (pick: (a: Stats["days"][number]) => number) =>
    buckets.map((b) => ({ label: b.label, value: b.days.reduce((sum, d) => sum + pick(d), 0) }));
  const charts: ChartAnswer[] = [
    {
      title: `Messages per ${unit}`,
      svg: timeBars(
        over((d) => d.messages),
        whole,
      ),
    },
    {
      title: `Tokens per ${unit}`,
      svg: timeBars(
        over((d) => d.tokens),
        compact,
      ),
    },
  ];
  if (stats.totals.cost > 0)
    charts.push({
      title: `Cost per ${unit}`,
      svg: timeBars(
        over((d) => d.cost),
        money,
      ),
    });
  charts.push({
    title: "Messages per project",
    svg: rowBars(
      stats.projects.map((p) => ({
        label: p.project || "(no project)",
        value: p.messages,
        note: `${p.sessions} sessions, ${compact(p.tokens)} tokens${p.cost > 0 ? `, ${money(p.cost)}` : ""}`,
      })),
    ),
  });
  charts.push({
    title: "Replies per model",
    svg: rowBars(
      stats.models.map((m) => ({
        label: m.model,
        value: m.messages,
        note: `${compact(m.tokens)} tokens${m.cost > 0 ? `, ${money(m.cost)}` : ""}`,
      })),
    ),
  });
  return charts;
}

interface Bar {
  label: string;
  value: number;
  note?: string;
}

/**
 * The window's time in bars: every day from the first with activity to the last (the days
 * without any included), or every week (from its Monday) past three months, or every month past
 * two years.
 */
function timeBuckets(days: Stats["days"]): {
  unit: string;
  buckets: Array<{ label: string; days: Stats["days"] }>;
} {
  if (days.length === 0) return { unit: "day", buckets: [] };
  const first = dayMillis(days[0]!.day);
  const last = dayMillis(days[days.length - 1]!.day);
  const span = Math.round((last - first) / DAY_MS) + 1;
  const unit = span <= 92 ? "day" : span <= 730 ? "week" : "month";
  const keyOf = (at: number) => {
    if (unit === "month") return localDay(at).slice(0, 7);
    if (unit === "week") return localDay(at - ((new Date(at).getDay() + 6) % 7) * DAY_MS);
    return localDay(at);
  };
  const buckets = new Map<string, Stats["days"]>();
  // Noon, so that a change of summer time never skips or repeats a day.
  for (let at = first; at <= last; at += DAY_MS)
    if (!buckets.has(keyOf(at))) buckets.set(keyOf(at), []);
  for (const day of days) buckets.get(keyOf(dayMillis(day.day)))?.push(day);
  const label = (key: string) => (unit === "month" ? key : key.slice(span > 365 ? 2 : 5));
  return {
    unit,
    buckets: [...buckets].map(([key, inside]) => ({ label: label(key), days: inside })),
  };
}

function dayMillis(day: string): number {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(y!, m! - 1, d!, 12).getTime();
}

function localDay(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

function timeBars(bars: Bar[], format: (n: number) => string): string {
  if (bars.length === 0) return empty();
  const top = Math.max(...bars.map((b) => b.value), 0);
  const left = 56;
  const bottom = DAY_HEIGHT - 24;
  const step = (WIDTH - left - 24) / bars.length;
  const width = Math.max(1, step * 0.8);
  const out = [svgOpen(WIDTH, DAY_HEIGHT)];
  for (const fraction of [0, 0.5, 1]) {
    const y = bottom - fraction * (bottom - 12);
    out.push(
      `<line class="grid" x1="${left}" x2="${WIDTH - 24}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}"/>`,
    );
    out.push(
      `<text class="axis" x="${left - 6}" y="${(y + 4).toFixed(1)}" text-anchor="end">${esc(format(top * fraction))}</text>`,
    );
  }
  bars.forEach((bar, i) => {
    const height = top > 0 ? (bar.value / top) * (bottom - 12) : 0;
    const x = left + i * step + (step - width) / 2;
    out.push(
      `<rect class="bar" x="${x.toFixed(1)}" y="${(bottom - height).toFixed(1)}" width="${width.toFixed(1)}" height="${height.toFixed(1)}"><title>${esc(`${bar.label}: ${format(bar.value)}`)}</title></rect>`,
    );
  });
  // The first and last days, and about six between, under the bars.
  const every = Math.max(1, Math.ceil(bars.length / 7));
  bars.forEach((bar, i) => {
    if (i % every !== 0 && i !== bars.length - 1) return;
    if (i !== bars.length - 1 && bars.length - 1 - i < every / 2) return;
    out.push(
      `<text class="axis" x="${(left + i * step + step / 2).toFixed(1)}" y="${DAY_HEIGHT - 6}" text-anchor="middle">${esc(bar.label)}</text>`,
    );
  });
  out.push("</svg>");
  return out.join("");
}

function rowBars(all: Bar[]): string {
  if (all.length === 0) return empty();
  const rows = all.slice(0, MAX_ROWS);
  const rest = all.slice(MAX_ROWS);
  if (rest.length > 0)
    rows.push({ label: `${rest.length} more`, value: rest.reduce((sum, b) => sum + b.value, 0) });
  const top = Math.max(...rows.map((b) => b.value), 1);
  const labelWidth = 240;
  const barSpace = WIDTH - labelWidth - 180;
  const height = rows.length * ROW_HEIGHT + 8;
  const out = [svgOpen(WIDTH, height)];
  rows.forEach((bar, i) => {
    const y = 4 + i * ROW_HEIGHT;
    const width = Math.max(1, (bar.value / top) * barSpace);
    out.push(
      `<text class="label" x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${esc(shorten(bar.label, 34))}<title>${esc(bar.label)}</title></text>`,
    );
    out.push(
      `<rect class="bar" x="${labelWidth}" y="${y + 3}" width="${width.toFixed(1)}" height="${ROW_HEIGHT - 6}"><title>${esc(`${bar.label}: ${whole(bar.value)}`)}</title></rect>`,
    );
    out.push(
      `<text class="axis" x="${(labelWidth + width + 6).toFixed(1)}" y="${y + 15}">${esc(`${whole(bar.value)}${bar.note ? ` · ${bar.note}` : ""}`)}</text>`,
    );
  });
  out.push("</svg>");
  return out.join("");
}

function svgOpen(width: number, height: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ${width} ${height}" role="img">`;
}

function empty(): string {
  return `${svgOpen(WIDTH, 40)}<text class="axis" x="8" y="24">Nothing in this window.</text></svg>`;
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `…${text.slice(text.length - max + 1)}`;
}

function whole(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

function compact(n: number): string {
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}G`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return whole(n);
}

function money(n: number): string {
  return n >= 100 ? n.toFixed(0) : n.toFixed(2);
}

function esc(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}
