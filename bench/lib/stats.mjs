/** Small statistics and number formats for the benchmark tables. */

export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function min(values) {
  return Math.min(...values.filter((v) => Number.isFinite(v)));
}

export function max(values) {
  return Math.max(...values.filter((v) => Number.isFinite(v)));
}

export function sum(values) {
  return values.reduce((total, v) => total + v, 0);
}

/** "1 234 ms" style: whole milliseconds below 10 s, seconds with one decimal above. */
export function ms(value) {
  if (!Number.isFinite(value)) return 'n/a';
  if (Math.abs(value) >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  if (Math.abs(value) >= 100) return `${Math.round(value)} ms`;
  return `${value.toFixed(1)} ms`;
}

export function mib(kib) {
  return Number.isFinite(kib) ? `${(kib / 1024).toFixed(1)} MiB` : 'n/a';
}

export function ratio(value, digits = 2) {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

export function pct(value) {
  return Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : 'n/a';
}

/** "met" / "MISSED" against a target, for the tables. */
export function verdict(ok) {
  return ok ? 'met' : 'MISSED';
}
