// Small statistics and formatting helpers for the benchmark tables.

export function median(values) {
  return percentile(values, 50);
}

/** Nearest-rank percentile of a list of numbers (p in 0..100). */
export function percentile(values, p) {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function ms(value) {
  if (!Number.isFinite(value)) return '—';
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  if (value >= 10) return `${Math.round(value)} ms`;
  return `${value.toFixed(2)} ms`;
}

export function mb(kilobytes) {
  return Number.isFinite(kilobytes) ? `${Math.round(kilobytes / 1024)} MB` : '—';
}

export function ratio(ours, theirs) {
  return Number.isFinite(ours) && Number.isFinite(theirs) && theirs > 0 ? `${(ours / theirs).toFixed(2)}×` : '—';
}

export function count(value) {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—';
}

/** Slope of log(y) against log(x): 1 is linear growth, 2 quadratic. */
export function growthExponent(points) {
  const usable = points.filter(([x, y]) => x > 0 && y > 0);
  if (usable.length < 2) return NaN;
  const xs = usable.map(([x]) => Math.log(x));
  const ys = usable.map(([, y]) => Math.log(y));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return den === 0 ? NaN : num / den;
}

/** A Markdown table; also fine to print on a terminal. */
export function table(header, rows) {
  const widths = header.map((cell, index) => Math.max(String(cell).length, ...rows.map((row) => String(row[index] ?? '').length)));
  const line = (cells) => `| ${cells.map((cell, index) => String(cell ?? '').padEnd(widths[index])).join(' | ')} |`;
  return [line(header), `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}
