// Minimal hand-written SVG charts (no chart library): throughput bars with min–max whiskers,
// and latency-by-percentile curves on the usual HdrHistogram axis (50, 90, 99, 99.9, 99.99 %
// evenly spaced), log-scaled latency so PGlite and PostgreSQL fit on one chart.
import type { FigureResult, Group } from './measure.ts';
import { median } from './measure.ts';

const COLORS: Record<Group, string> = { 'service-pg': '#2563eb', 'service-pglite': '#16a34a', reference: '#9ca3af' };
const LINE_COLORS = ['#2563eb', '#16a34a', '#dc2626', '#9333ea', '#ea580c', '#0891b2', '#4b5563'];
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const FONT = 'font-family="system-ui, sans-serif" font-size="12"';

function svg(w: number, h: number, body: string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" ${FONT}>\n<rect width="100%" height="100%" fill="white"/>\n${body.join('\n')}\n</svg>\n`;
}

function niceMax(x: number): number {
  const p = 10 ** Math.floor(Math.log10(x));
  return [1, 2, 2.5, 5, 10].map((m) => m * p).find((v) => v >= x) ?? x;
}

export function throughputChart(results: FigureResult[], title: string): string {
  const rows = results.filter((r) => r.summary);
  const left = 330;
  const width = 900;
  const rowH = 24;
  const top = 50;
  const h = top + rows.length * rowH + 50;
  const max = niceMax(Math.max(...rows.map((r) => r.summary!.rpsMax)));
  const x = (v: number) => left + ((width - left - 40) * v) / max;
  const out: string[] = [`<text x="10" y="22" font-size="15" font-weight="bold">${esc(title)}</text>`];
  for (let i = 0; i <= 5; i++) {
    const v = (max * i) / 5;
    out.push(`<line x1="${x(v)}" y1="${top - 5}" x2="${x(v)}" y2="${h - 40}" stroke="#e5e7eb"/>`);
    out.push(`<text x="${x(v)}" y="${h - 25}" text-anchor="middle">${(v / 1000).toFixed(v % 1000 ? 1 : 0)}k</text>`);
  }
  out.push(
    `<text x="${(left + width) / 2}" y="${h - 8}" text-anchor="middle">requests per second (bar: median, whisker: min–max)</text>`,
  );
  rows.forEach((r, i) => {
    const s = r.summary!;
    const y = top + i * rowH;
    out.push(`<text x="${left - 8}" y="${y + 15}" text-anchor="end">${esc(`${r.server} · ${r.endpoint}`)}</text>`);
    out.push(
      `<rect x="${left}" y="${y + 4}" width="${x(s.rps) - left}" height="${rowH - 8}" fill="${COLORS[r.group]}"/>`,
    );
    out.push(
      `<line x1="${x(s.rpsMin)}" y1="${y + rowH / 2}" x2="${x(s.rpsMax)}" y2="${y + rowH / 2}" stroke="black"/>`,
    );
    out.push(`<text x="${x(s.rpsMax) + 5}" y="${y + 15}">${(s.rps / 1000).toFixed(1)}k</text>`);
  });
  return svg(width, h, out);
}

/** Position of a percentile on the chart: -log10(1 - p/100), so 90 → 1, 99 → 2, 99.9 → 3. */
const nines = (p: number) => -Math.log10(1 - p / 100);

export function latencyChart(results: FigureResult[], title: string): string {
  const rows = results.filter((r) => r.summary);
  const w = 760;
  const h = 420;
  const L = 70;
  const R = 230;
  const T = 45;
  const B = 50;
  // The run whose throughput is the median stands for the figure.
  const curves = rows.map((r) => {
    const m = median(r.runs.map((x) => x.rps));
    const run = r.runs.reduce((a, b) => (Math.abs(b.rps - m) < Math.abs(a.rps - m) ? b : a));
    return { r, pts: run.dist.filter(([p]) => p >= 50).map(([p, us]) => [nines(p), Math.max(us, 1) / 1000] as const) };
  });
  const all = curves.flatMap((c) => c.pts.map(([, y]) => y));
  const lo = 10 ** Math.floor(Math.log10(Math.min(...all)));
  const hi = 10 ** Math.ceil(Math.log10(Math.max(...all)));
  const xMax = nines(99.99);
  const px = (v: number) => L + ((w - L - R) * v) / xMax;
  const py = (ms: number) => h - B - ((h - T - B) * Math.log10(ms / lo)) / Math.log10(hi / lo);
  const out: string[] = [`<text x="10" y="22" font-size="15" font-weight="bold">${esc(title)}</text>`];
  for (const p of [50, 90, 99, 99.9, 99.99]) {
    out.push(`<line x1="${px(nines(p))}" y1="${T}" x2="${px(nines(p))}" y2="${h - B}" stroke="#e5e7eb"/>`);
    out.push(`<text x="${px(nines(p))}" y="${h - B + 16}" text-anchor="middle">p${p}</text>`);
  }
  for (let d = lo; d <= hi * 1.0001; d *= 10) {
    for (const m of [1, 2, 5]) {
      const v = d * m;
      if (v > hi * 1.0001) break;
      out.push(
        `<line x1="${L}" y1="${py(v)}" x2="${w - R}" y2="${py(v)}" stroke="${m === 1 ? '#d1d5db' : '#f3f4f6'}"/>`,
      );
      out.push(
        `<text x="${L - 6}" y="${py(v) + 4}" text-anchor="end">${v >= 1 ? v.toFixed(0) : v.toPrecision(1)}</text>`,
      );
    }
  }
  out.push(
    `<text x="16" y="${(T + h - B) / 2}" transform="rotate(-90 16 ${(T + h - B) / 2})" text-anchor="middle">latency, ms (log)</text>`,
  );
  out.push(`<text x="${(L + w - R) / 2}" y="${h - 12}" text-anchor="middle">percentile</text>`);
  curves.forEach(({ r, pts }, i) => {
    const color = LINE_COLORS[i % LINE_COLORS.length];
    const d = pts.map(([x, y], j) => `${j ? 'L' : 'M'}${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ');
    out.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2"/>`);
    out.push(`<rect x="${w - R + 12}" y="${T + i * 20}" width="12" height="3" fill="${color}"/>`);
    out.push(`<text x="${w - R + 30}" y="${T + i * 20 + 5}">${esc(r.server)}</text>`);
  });
  return svg(w, h, out);
}

/** Memory over time: one line per series of [seconds, MB] points. */
export function rssChart(series: Array<{ label: string; points: Array<[number, number]> }>, title: string): string {
  const w = 760;
  const h = 320;
  const L = 60;
  const R = 130;
  const T = 45;
  const B = 45;
  const all = series.flatMap((s) => s.points);
  const tMax = Math.max(1, ...all.map(([t]) => t));
  const yMax = niceMax(Math.max(1, ...all.map(([, mb]) => mb)) * 1.1);
  const px = (t: number) => L + ((w - L - R) * t) / tMax;
  const py = (mb: number) => h - B - ((h - T - B) * mb) / yMax;
  const out: string[] = [`<text x="10" y="22" font-size="15" font-weight="bold">${esc(title)}</text>`];
  for (let i = 0; i <= 4; i++) {
    const v = (yMax * i) / 4;
    out.push(`<line x1="${L}" y1="${py(v)}" x2="${w - R}" y2="${py(v)}" stroke="#e5e7eb"/>`);
    out.push(`<text x="${L - 6}" y="${py(v) + 4}" text-anchor="end">${v.toFixed(0)}</text>`);
  }
  for (let i = 0; i <= 6; i++) {
    const t = (tMax * i) / 6;
    out.push(`<text x="${px(t)}" y="${h - B + 16}" text-anchor="middle">${t.toFixed(tMax < 12 ? 1 : 0)} s</text>`);
  }
  out.push(
    `<text x="14" y="${(T + h - B) / 2}" transform="rotate(-90 14 ${(T + h - B) / 2})" text-anchor="middle">MB</text>`,
  );
  series.forEach(({ label, points }, i) => {
    const color = LINE_COLORS[i % LINE_COLORS.length];
    const d = points.map(([t, mb], j) => `${j ? 'L' : 'M'}${px(t).toFixed(1)},${py(mb).toFixed(1)}`).join(' ');
    out.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2"/>`);
    out.push(`<rect x="${w - R + 12}" y="${T + i * 20}" width="12" height="3" fill="${color}"/>`);
    out.push(`<text x="${w - R + 30}" y="${T + i * 20 + 5}">${esc(label)}</text>`);
  });
  return svg(w, h, out);
}
