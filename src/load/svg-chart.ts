/**
 * Minimal line charts as inline SVG, so the HTML report is one file with no script and no network.
 */
import { escapeMarkup as escapeXml } from '../escape.js';

export interface Series {
  name: string;
  color: string;
  points: Array<[number, number]>;
  dashed?: boolean;
}

export interface ChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  /** Labels for x tick values; default the number itself. */
  xTicks?: Array<[number, string]>;
  width?: number;
  height?: number;
}

/** The reporters' one escape for HTML and XML (control characters made visible too). */
export { escapeXml };

/** 1, 2 or 5 × 10^k steps giving about `count` ticks up to `max`. */
export function niceTicks(max: number, count = 5): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  const ticks: number[] = [];
  for (let v = 0; v <= max + step * 0.999; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

function fmt(v: number): string {
  if (v === 0) return '0';
  if (Math.abs(v) >= 1000) return `${Number((v / 1000).toPrecision(3))}k`;
  return String(Number(v.toPrecision(3)));
}

export function lineChart(options: ChartOptions): string {
  const width = options.width ?? 760;
  const height = options.height ?? 260;
  const pad = { left: 62, right: 16, top: 28, bottom: 42 };
  const plotW = width - pad.left - pad.right;
  const plotH = height - pad.top - pad.bottom;
  const all = options.series.flatMap((s) => s.points);
  const xs = all.map(([x]) => x);
  const ys = all.map(([, y]) => y).filter((y) => Number.isFinite(y));
  const xMin = xs.length ? Math.min(...xs) : 0;
  const xMaxRaw = xs.length ? Math.max(...xs) : 1;
  const xMax = xMaxRaw > xMin ? xMaxRaw : xMin + 1;
  const yTicks = niceTicks(ys.length ? Math.max(...ys) : 1);
  const yMax = yTicks[yTicks.length - 1] || 1;
  const sx = (x: number): number => pad.left + ((x - xMin) / (xMax - xMin)) * plotW;
  const sy = (y: number): number => pad.top + plotH - (Math.max(0, y) / yMax) * plotH;

  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${escapeXml(options.title)}">`);
  parts.push(`<text x="${pad.left}" y="18" class="title">${escapeXml(options.title)}</text>`);
  for (const t of yTicks) {
    const y = sy(t).toFixed(1);
    parts.push(`<line x1="${pad.left}" x2="${width - pad.right}" y1="${y}" y2="${y}" class="grid"/>`);
    parts.push(`<text x="${pad.left - 6}" y="${y}" class="tick" text-anchor="end" dy="0.35em">${fmt(t)}</text>`);
  }
  const xTicks = options.xTicks ?? niceTicks(xMax).filter((t) => t >= xMin).map((t): [number, string] => [t, fmt(t)]);
  for (const [t, label] of xTicks) {
    if (t < xMin || t > xMax) continue;
    const x = sx(t).toFixed(1);
    parts.push(`<line x1="${x}" x2="${x}" y1="${pad.top + plotH}" y2="${pad.top + plotH + 4}" class="axis"/>`);
    parts.push(`<text x="${x}" y="${pad.top + plotH + 16}" class="tick" text-anchor="middle">${escapeXml(label)}</text>`);
  }
  parts.push(`<line x1="${pad.left}" x2="${pad.left + plotW}" y1="${pad.top + plotH}" y2="${pad.top + plotH}" class="axis"/>`);
  parts.push(`<line x1="${pad.left}" x2="${pad.left}" y1="${pad.top}" y2="${pad.top + plotH}" class="axis"/>`);
  parts.push(`<text x="${pad.left + plotW / 2}" y="${height - 6}" class="label" text-anchor="middle">${escapeXml(options.xLabel)}</text>`);
  parts.push(`<text x="14" y="${pad.top + plotH / 2}" class="label" text-anchor="middle" transform="rotate(-90 14 ${pad.top + plotH / 2})">${escapeXml(options.yLabel)}</text>`);
  let legendX = pad.left + 8;
  for (const s of options.series) {
    const points = s.points.filter(([, y]) => Number.isFinite(y));
    if (points.length > 0) {
      const d = points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join('');
      parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="1.6"${s.dashed ? ' stroke-dasharray="5 3"' : ''}/>`);
      if (points.length === 1) parts.push(`<circle cx="${sx(points[0][0]).toFixed(1)}" cy="${sy(points[0][1]).toFixed(1)}" r="2.5" fill="${s.color}"/>`);
    }
    parts.push(`<rect x="${legendX}" y="${pad.top + 2}" width="10" height="10" fill="${s.color}"/>`);
    parts.push(`<text x="${legendX + 14}" y="${pad.top + 11}" class="legend">${escapeXml(s.name)}</text>`);
    legendX += 24 + s.name.length * 6.5;
  }
  parts.push('</svg>');
  return parts.join('');
}
